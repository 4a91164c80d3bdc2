import { type Kysely, sql, type Transaction } from 'kysely';
import {
  comparePositions,
  type LogPosition,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../../domain/shared/event-store.ts';

/**
 * What a checkpointed subscription needs from a store. Checkpoints and the handler's transaction always live in
 * PostgreSQL (`db`), where read models live; the events may come from elsewhere (KurrentDB).
 */
export interface SubscriptionContext {
  readonly db: Kysely<object>;
  /**
   * Reads up to `maxCount` events strictly after `after`, in log order (inside the batch's transaction), without the
   * `data` fields named in `withoutFields`.
   */
  readBatch(
    tx: Kysely<object>,
    after: LogPosition,
    maxCount: number,
    withoutFields?: readonly string[],
  ): Promise<RecordedEvent[]>;
  /** The newest position a reader can get now. */
  headPosition(): Promise<LogPosition | null>;
  /** True when committed events after `after` are not readable yet (so look again soon). */
  hasHiddenEvents(after: LogPosition): Promise<boolean>;
  /** Registers a wake-up for appends; `ready` resolves once wake-ups flow. */
  onWake(listener: () => void): { ready: Promise<void>; remove: () => void };
  /** Longest sleep without a notification; only matters if one is lost. */
  readonly wakeTimeoutMs: number;
}

export const DEFAULT_BATCH_SIZE = 1000;
export const FIRST_RETRY_MS = 100;
export const MAX_RETRY_MS = 5000;
// Events committed behind an older open transaction become visible when it ends, which sends no NOTIFY if it
// wrote no events: look again soon, backing off so a long transaction does not cost a busy loop.
export const FIRST_HIDDEN_RETRY_MS = 5;
export const MAX_HIDDEN_RETRY_MS = 250;
// First key of the two-key advisory locks taken on checkpoints, apart from any single-key lock.
export const CHECKPOINT_LOCK_SPACE = 7_240_117;
export const ORIGIN: LogPosition = { commit: 0, prepare: 0 };

/** The advisory lock key of a checkpoint (grouped-subscription.ts takes the same ones). */
export function checkpointLockKey(checkpointName: string): string {
  return `es_checkpoint:${checkpointName}`;
}

/** Starts a checkpointed subscription to the global log; see SubscribeOptions for the guarantees. */
export function startSubscription(
  context: SubscriptionContext,
  options: SubscribeOptions<Transaction<object>>,
): Subscription {
  return new CheckpointedSubscription(context, options);
}

class CheckpointedSubscription implements Subscription {
  readonly #context: SubscriptionContext;
  readonly #options: SubscribeOptions<Transaction<object>>;
  readonly #lockKey: string;
  #position: LogPosition | null = null;
  #stopped = false;
  #notifications = 0;
  #interrupt: (() => void) | null = null;
  #waiters: { target: LogPosition; resolve: () => void; reject: (error: Error) => void }[] = [];
  readonly #loop: Promise<void>;

  constructor(context: SubscriptionContext, options: SubscribeOptions<Transaction<object>>) {
    this.#context = context;
    this.#options = options;
    this.#lockKey = checkpointLockKey(options.checkpointName);
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#interrupt?.();
    await this.#loop;
  }

  async caughtUp(): Promise<void> {
    const head = await this.#context.headPosition();
    if (head === null || (this.#position && comparePositions(this.#position, head) >= 0)) return;
    if (this.#stopped) throw new Error(`Subscription ${this.#options.checkpointName} is stopped`);
    await new Promise<void>((resolve, reject) => this.#waiters.push({ target: head, resolve, reject }));
  }

  async #run(): Promise<void> {
    const registration = this.#context.onWake(() => {
      this.#notifications++;
      this.#interrupt?.();
    });
    let retryMs = FIRST_RETRY_MS;
    let hiddenRetryMs = FIRST_HIDDEN_RETRY_MS;
    try {
      await registration.ready.catch((error) => this.#options.onError?.(error));
      while (!this.#stopped) {
        const notificationsBefore = this.#notifications;
        try {
          if (this.#position === null) this.#advance(await this.#loadCheckpoint());
          const applied = await this.#applyBatch();
          retryMs = FIRST_RETRY_MS;
          if (applied > 0 || this.#notifications !== notificationsBefore) continue;
          if (await this.#context.hasHiddenEvents(this.#position ?? ORIGIN)) {
            await this.#sleep(hiddenRetryMs, notificationsBefore);
            hiddenRetryMs = Math.min(hiddenRetryMs * 2, MAX_HIDDEN_RETRY_MS);
          } else {
            hiddenRetryMs = FIRST_HIDDEN_RETRY_MS;
            await this.#sleep(this.#context.wakeTimeoutMs, notificationsBefore);
          }
        } catch (error) {
          this.#options.onError?.(error);
          await this.#sleep(retryMs, null);
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
        }
      }
    } finally {
      registration.remove();
      for (const waiter of this.#waiters)
        waiter.reject(new Error(`Subscription ${this.#options.checkpointName} stopped`));
      this.#waiters = [];
    }
  }

  async #loadCheckpoint(): Promise<LogPosition> {
    const { db } = this.#context;
    await sql`insert into es_checkpoints (name, commit_position, prepare_position)
      values (${this.#options.checkpointName}, 0, 0) on conflict (name) do nothing`.execute(db);
    return (await this.#readCheckpoint(db)) ?? ORIGIN;
  }

  /** One batch: read after the checkpoint, handle, store the checkpoint; all in one transaction. */
  async #applyBatch(): Promise<number> {
    const { db } = this.#context;
    // Most wake-ups find nothing new (a NOTIFY per append, and the last batch took it already): one read outside a
    // transaction answers that, instead of a transaction, a lock and two reads. Sound because a checkpoint only
    // moves forward: nothing after the position this subscription last stored means nothing after the stored one.
    if (this.#position) {
      const ahead = await this.#context.readBatch(db, this.#position, 1, this.#options.withoutFields);
      if (ahead.length === 0) return 0;
    }
    const reached = await db.transaction().execute(async (tx) => {
      // Another instance with the same checkpoint name (a second server) waits here, then reads our checkpoint.
      await sql`select pg_advisory_xact_lock(${CHECKPOINT_LOCK_SPACE}, hashtext(${this.#lockKey}))`.execute(tx);
      const after = (await this.#readCheckpoint(tx)) ?? ORIGIN;
      const events = await this.#context.readBatch(
        tx,
        after,
        this.#options.batchSize ?? DEFAULT_BATCH_SIZE,
        this.#options.withoutFields,
      );
      const last = events.at(-1);
      if (!last) return { position: after, count: 0 };
      await this.#options.handle(events, tx);
      await sql`update es_checkpoints
        set commit_position = ${last.position.commit}, prepare_position = ${last.position.prepare}, updated_at = now()
        where name = ${this.#options.checkpointName}`.execute(tx);
      return { position: last.position, count: events.length };
    });
    this.#advance(reached.position);
    return reached.count;
  }

  async #readCheckpoint(db: Kysely<object>): Promise<LogPosition | null> {
    const { rows } = await sql<{ commit_position: number; prepare_position: number }>`
      select commit_position, prepare_position from es_checkpoints where name = ${this.#options.checkpointName}`.execute(
      db,
    );
    const row = rows[0];
    return row ? { commit: row.commit_position, prepare: row.prepare_position } : null;
  }

  #advance(position: LogPosition): void {
    this.#position = position;
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting) {
      if (comparePositions(position, waiter.target) >= 0) waiter.resolve();
      else this.#waiters.push(waiter);
    }
  }

  /**
   * Sleeps up to `ms`; stop() always interrupts. Given the notification count seen before the last read, a
   * notification interrupts too, including one that arrived while that read was in flight (no lost wake-up).
   */
  #sleep(ms: number, notificationsBefore: number | null): Promise<void> {
    const wakeOnNotify = notificationsBefore !== null;
    if (this.#stopped || (wakeOnNotify && this.#notifications !== notificationsBefore)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#interrupt = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#interrupt = wakeOnNotify ? done : () => this.#stopped && done();
    });
  }
}
