import { randomBytes } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { createSecretBox, type SecretBox } from '../auth/secrets.ts';
import { BoundedMap } from '../bounded-map.ts';

type KeyTables = {
  personal_data_keys: { subject_id: string; sealed_key: string; created_at: Date };
};

type Db = Kysely<object> | Transaction<object>;

// A shredded key must stop working everywhere soon: other API instances drop cached keys after this long.
const CACHE_MS = 60_000;
/**
 * Keys remembered at once. An entry past CACHE_MS is only dropped when its subject is asked for again, so without a
 * bound every user whose run a process ever sealed or read stayed in memory for the process's life (a worker that
 * settles 100,000 goals, an API serving every runner). Dropped ones are read again: one statement.
 */
const CACHE_KEYS = 10_000;

/**
 * One random data key per user, sealed at rest under the server key. `shred` deletes it: what was encrypted with
 * it can never be read again, from the live log, a replay or a backup of the events.
 */
export class PersonalKeyVault {
  readonly #db: Kysely<object>;
  readonly #master: SecretBox;
  readonly #now: () => Date;
  readonly #cache: BoundedMap<string, { box: SecretBox; until: number }>;

  constructor(options: {
    db: Kysely<object>;
    serverSecret: string | undefined;
    now: () => Date;
    /** Keys remembered at once (tests shrink it). */
    cacheKeys?: number;
  }) {
    this.#cache = new BoundedMap(options.cacheKeys ?? CACHE_KEYS);
    this.#db = options.db;
    this.#master = createSecretBox(options.serverSecret);
    this.#now = options.now;
  }

  /**
   * The subject's key, created on first use. Runs in `db` (the caller's transaction, when it holds one). Read first:
   * a key is made once per user and read on every cache miss after, so the usual miss costs one statement, not an
   * insert that does nothing and then the read.
   */
  async keyFor(subjectId: string, db: Db = this.#db): Promise<SecretBox> {
    return (await this.keysFor([subjectId], db)).get(subjectId)!;
  }

  /**
   * keyFor for several subjects at once, in as many statements as one (a group of runs from eight runners sealed
   * their tracks one key read after another, each a round trip inside the group's transaction).
   */
  async keysFor(subjectIds: readonly string[], db: Db = this.#db): Promise<Map<string, SecretBox>> {
    const keys = await this.existingKeys(subjectIds, db);
    const missing = [...keys].flatMap(([subject, box]) => (box ? [] : [subject]));
    if (missing.length > 0) {
      await db
        .withTables<KeyTables>()
        .insertInto('personal_data_keys')
        .values(
          missing.map((subject) => ({
            subject_id: subject,
            sealed_key: this.#master.seal(randomBytes(32).toString('base64url')),
            created_at: this.#now(),
          })),
        )
        // Another transaction may create one meanwhile: theirs is kept, and read below.
        .onConflict((oc) => oc.column('subject_id').doNothing())
        .execute();
      for (const [subject, box] of await this.existingKeys(missing, db)) {
        if (!box) throw new Error(`Personal data key for ${subject} vanished while being created`);
        keys.set(subject, box);
      }
    }
    return keys as Map<string, SecretBox>;
  }

  /** The subject's key if it still exists, else null (shredded, or never needed). */
  async existingKey(subjectId: string, db: Db = this.#db): Promise<SecretBox | null> {
    return (await this.existingKeys([subjectId], db)).get(subjectId)!;
  }

  /** existingKey for several subjects: those not remembered are read in one statement. */
  async existingKeys(subjectIds: readonly string[], db: Db = this.#db): Promise<Map<string, SecretBox | null>> {
    const keys = new Map<string, SecretBox | null>();
    for (const subject of subjectIds) keys.set(subject, this.#cached(subject));
    const toRead = [...keys].flatMap(([subject, box]) => (box ? [] : [subject]));
    if (toRead.length === 0) return keys;
    const rows = await db
      .withTables<KeyTables>()
      .selectFrom('personal_data_keys')
      .select(['subject_id', 'sealed_key'])
      .where(sql<boolean>`subject_id = ANY(${toRead}::text[])`)
      .execute();
    for (const row of rows) {
      const box = createSecretBox(this.#master.open(row.sealed_key));
      this.#cache.set(row.subject_id, { box, until: performance.now() + CACHE_MS });
      keys.set(row.subject_id, box);
    }
    return keys;
  }

  /** Destroys the subject's key. */
  async shred(subjectId: string, db: Db = this.#db): Promise<void> {
    this.#cache.delete(subjectId);
    await db.withTables<KeyTables>().deleteFrom('personal_data_keys').where('subject_id', '=', subjectId).execute();
  }

  #cached(subjectId: string): SecretBox | null {
    const entry = this.#cache.use(subjectId);
    if (!entry) return null;
    if (entry.until < performance.now()) {
      this.#cache.delete(subjectId);
      return null;
    }
    return entry.box;
  }
}
