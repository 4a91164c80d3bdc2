import { randomUUID } from 'node:crypto';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { PersonalKeyVault } from '../../app-server/privacy/key-vault.ts';
import { personalDataRules } from '../../app-server/privacy/personal-data-policy.ts';
import { protectPersonalData } from '../../app-server/privacy/protected-event-store.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/*
 * A group commit saves the runs of up to 32 runners in one transaction, and the worker reads many runners' events at
 * once. Each used to read its runners' data keys one statement after another: eight runners new to the process, eight
 * round trips inside the group's transaction, which every run of the group waited for. The keys of a batch are now
 * read (and made) together.
 */

/** Counts the statements sent to personal_data_keys through the Kysely it is plugged into. */
class KeyStatements implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (JSON.stringify(node).includes('"personal_data_keys"')) this.count++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs) {
    return result;
  }
}

describe.each(databaseTargets())('the data keys of a batch are read in one statement (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
  });
  afterAll(async () => runtime.close());

  const vaultCounting = () => {
    const statements = new KeyStatements();
    const vault = new PersonalKeyVault({
      db: runtime.database.db.withPlugin(statements),
      serverSecret: 'keys-in-one-read-test',
      now: () => runtime.clock.now(),
    });
    return { vault, statements };
  };

  it('keysFor: one read for the known, one insert and one read for the new, each key the one keyFor gives', async () => {
    const subjects = Array.from({ length: 8 }, (_, i) => `batch-subject-${target}-${i}`);
    const first = vaultCounting();
    // Three exist already (made by another vault), five are new.
    const sealedBefore = new Map<string, string>();
    for (const subject of subjects.slice(0, 3))
      sealedBefore.set(subject, (await first.vault.keyFor(subject)).seal(`note of ${subject}`));

    const { vault, statements } = vaultCounting();
    const keys = await vault.keysFor([...subjects, subjects[0]!]);
    expect(statements.count).toBe(3);
    expect([...keys.keys()].sort()).toEqual([...subjects].sort());
    for (const [subject, sealed] of sealedBefore) expect(keys.get(subject)!.open(sealed)).toBe(`note of ${subject}`);
    // Remembered now: asking again reads nothing, and a third vault finds the same keys in the database.
    await vault.keysFor(subjects);
    expect(statements.count).toBe(3);
    const third = vaultCounting();
    const again = await third.vault.existingKeys([...subjects, `never-keyed-${target}`]);
    expect(third.statements.count).toBe(1);
    expect(again.get(`never-keyed-${target}`)).toBeNull();
    for (const subject of subjects) expect(again.get(subject)!.open(keys.get(subject)!.seal('x'))).toBe('x');
  });

  it('a sealed field whose event names no subject reads as null, beside events whose keys are read', async () => {
    const raw = createPostgresEventStore(runtime.database);
    const streamId = `run-keys-orphan-${target}`;
    const metadata = () => ({
      eventId: randomUUID(),
      occurredAt: '2026-11-18T12:00:00Z',
      actorId: null,
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
    });
    await raw.appendToStream(streamId, [
      { type: 'RunNotesEdited', data: { runId: 'orphan', notes: { $personal: 'v1.a.b.c' } }, metadata: metadata() },
    ]);
    const { vault } = vaultCounting();
    const store = protectPersonalData(raw, vault, personalDataRules);
    const [event] = await store.readStream(streamId);
    expect((event!.data as { notes: unknown }).notes).toBeNull();
  });

  it('the protected store seals a batch of runners and reveals it with one key statement each way', async () => {
    const users = Array.from({ length: 6 }, (_, i) => `store-batch-${target}-${i}`);
    const writing = vaultCounting();
    const store = protectPersonalData(createPostgresEventStore(runtime.database), writing.vault, personalDataRules);
    const note = (userId: string) => `${userId} starts at the bakery`;
    await store.appendToStreams(
      users.map((userId) => ({
        streamId: `run-keys-${userId}`,
        expectedVersion: 'no_stream' as const,
        events: [
          {
            type: 'RunNotesEdited',
            data: { runId: userId, userId, notes: note(userId) },
            metadata: {
              eventId: randomUUID(),
              occurredAt: '2026-11-18T12:00:00Z',
              actorId: userId,
              correlationId: randomUUID(),
              causationId: null,
              schemaVersion: 1,
            },
          },
        ],
      })),
    );
    // The keys are new: one read finds none, one insert makes them all, one read takes them.
    expect(writing.statements.count).toBe(3);

    const reading = vaultCounting();
    const readStore = protectPersonalData(createPostgresEventStore(runtime.database), reading.vault, personalDataRules);
    const streams = await readStore.readStreams(users.map((userId) => `run-keys-${userId}`));
    expect(reading.statements.count).toBe(1);
    for (const userId of users) {
      const [event] = streams.get(`run-keys-${userId}`)!;
      expect((event!.data as { notes: string }).notes).toBe(note(userId));
    }
  });
});
