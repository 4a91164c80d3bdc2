import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersonalKeyVault } from '../../app-server/privacy/key-vault.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/*
 * The vault remembers unsealed data keys for a minute, and at most so many at once. Without the bound, an entry past
 * its minute was dropped only when its subject was asked for again: every runner whose run a process sealed or read
 * stayed in its memory for the process's life.
 */
describe('the personal key vault remembers a bounded number of keys', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime('pglite', { now: '2026-11-18T12:00:00Z' });
  });
  afterAll(async () => runtime.close());

  const vault = (cacheKeys: number) =>
    new PersonalKeyVault({
      db: runtime.database.db,
      serverSecret: 'key-vault-bound-test',
      now: () => runtime.clock.now(),
      cacheKeys,
    });

  it('reads a key it let go of again from the database, and remembers the newest', async () => {
    const keys = vault(2);
    const sealed = (await keys.keyFor('subject-a')).seal('12 Elm Street');
    await keys.keyFor('subject-b');
    await keys.keyFor('subject-c');
    // Pushed out by b and c, a's key is read again, and opens what it sealed before.
    expect((await keys.existingKey('subject-a'))?.open(sealed)).toBe('12 Elm Street');

    // Gone from the database (another instance shredded them): only what the vault still remembers answers.
    await sql`DELETE FROM personal_data_keys WHERE subject_id IN ('subject-a', 'subject-b', 'subject-c')`.execute(
      runtime.database.db,
    );
    expect(await keys.existingKey('subject-a')).not.toBeNull();
    expect(await keys.existingKey('subject-b')).toBeNull();
  });

  it('keeps nothing with a bound of 0: every key is read from the database', async () => {
    const keys = vault(0);
    await keys.keyFor('subject-d');
    await sql`DELETE FROM personal_data_keys WHERE subject_id = 'subject-d'`.execute(runtime.database.db);
    expect(await keys.existingKey('subject-d')).toBeNull();
  });
});
