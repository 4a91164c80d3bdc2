import { type Kysely, sql, type Transaction } from 'kysely';
import {
  comparePositions,
  type LogPosition,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../../domain/shared/event-store.ts';
import {
  CHECKPOINT_LOCK_SPACE,
  checkpointLockKey,
  DEFAULT_BATCH_SIZE,
  FIRST_HIDDEN_RETRY_MS,
  FIRST_RETRY_MS,
  MAX_HIDDEN_RETRY_MS,
  MAX_RETRY_MS,
  ORIGIN,
  type SubscriptionContext,
} from './checkpointed-subscription.ts';

/** One subscriber of a group, with where its checkpoint stands and how it is doing. */
interface Member {
  readonly options: SubscribeOptions<Transaction<object>>;
  /** Its stored checkpoint as last seen (only ever behind or at the stored one: checkpoints move forward only). */
  position: LogPosition;
  /** Stepped on its own after its handler failed, on a backoff, until a batch succeeds. */
  alone: boolean;
  retryAt: number;
  retryMs: number;
}

/**
 * Starts several checkpointed subscriptions that follow the log together (EventStore.subscribeTogether). Each keeps
 * its own checkpoint and the guarantees of a single subscription (checkpointed-subscription.ts): its handler runs in
 * the transaction that stores its checkpoint, under the same advisory lock, so a second instance never handles a
 * batch twice. What is shared is the work around the handlers: one read of the log per batch for all of them, one
 * transaction, one statement for the locks, one for the checkpoints, one check for hidden events when idle. Six
 * process managers each woken by every append cost about 55 statements per append apart; together about 9.
 *
 * A handler that throws rolls the shared transaction back; every member of that batch then steps alone once, so the
 * failing one is found and retried on its own backoff (reported through its onError) while the others go on and
 * rejoin the group.
 */
export function startGroupedSubscription(
  context: SubscriptionContext,
  subscribers: readonly SubscribeOptions<Transaction<object>>[],
): Subscription {
  return new GroupedSubscription(context, subscribers);
}

class GroupedSubscription implements Subscription {
  readonly #context: SubscriptionContext;
  readonly #members: Member[];
  readonly #groups: Member[][];
  #loaded = false;
  #stopped = false;
  #notifications = 0;
  #interrupt: (() => void) | null = null;
  #waiters: { target: LogPosition; resolve: () => void; reject: (error: Error) => void }[] = [];
  readonly #loop: Promise<void>;

  constructor(context: SubscriptionContext, subscribers: readonly SubscribeOptions<Transaction<object>>[]) {
    const names = new Set(subscribers.map((s) => s.checkpointName));
    if (names.size !== subscribers.length) throw new Error('Subscribers following together need distinct checkpoints');
    this.#context = context;
    this.#members = subscribers.map((options) => ({
      options,
      position: ORIGIN,
      alone: false,
      retryAt: 0,
      retryMs: FIRST_RETRY_MS,
    }));
    this.#groups = groupByFieldsLeftOut(this.#members);
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#interrupt?.();
    await this.#loop;
  }

  async caughtUp(): Promise<void> {
    const head = await this.#context.headPosition();
    if (head === null || (this.#loaded && this.#allReached(head))) return;
    if (this.#stopped) throw new Error('Grouped subscription is stopped');
    await new Promise<void>((resolve, reject) => this.#waiters.push({ target: head, resolve, reject }));
  }

  async #run(): Promise<void> {
    const registration = this.#context.onWake(() => {
      this.#notifications++;
      this.#interrupt?.();
    });
    let loadRetryMs = FIRST_RETRY_MS;
    let hiddenRetryMs = FIRST_HIDDEN_RETRY_MS;
    try {
      await registration.ready.catch((error) => this.#reportToAll(error));
      while (!this.#stopped) {
        const notificationsBefore = this.#notifications;
        if (!this.#loaded) {
          try {
            await this.#loadCheckpoints();
            loadRetryMs = FIRST_RETRY_MS;
          } catch (error) {
            this.#reportToAll(error);
            await this.#sleep(loadRetryMs, null);
            loadRetryMs = Math.min(loadRetryMs * 2, MAX_RETRY_MS);
            continue;
          }
        }
        const { progressed, nextRetryMs } = await this.#stepAll();
        this.#resolveWaiters();
        if (progressed || this.#notifications !== notificationsBefore) continue;
        let hidden = false;
        try {
          const earliest = this.#earliest(this.#members);
          hidden = await this.#context.hasHiddenEvents(earliest);
          // The empty read and that check saw two snapshots: a transaction that held the horizon may have ended in
          // between (ending sends no NOTIFY if it appended nothing), turning hidden events visible after the read
          // missed them and before the check. One more read, after the check, closes that gap.
          if (
            !hidden &&
            (await this.#context.readBatch(this.#context.db, earliest, 1, this.#members[0]?.options.withoutFields))
              .length > 0
          )
            continue;
        } catch {
          // Treated as "maybe": look again soon rather than sleep through events.
          hidden = true;
        }
        if (hidden) {
          await this.#sleep(Math.min(hiddenRetryMs, nextRetryMs), notificationsBefore);
          hiddenRetryMs = Math.min(hiddenRetryMs * 2, MAX_HIDDEN_RETRY_MS);
        } else {
          hiddenRetryMs = FIRST_HIDDEN_RETRY_MS;
          await this.#sleep(Math.min(this.#context.wakeTimeoutMs, nextRetryMs), notificationsBefore);
        }
      }
    } finally {
      registration.remove();
      for (const waiter of this.#waiters) waiter.reject(new Error('Grouped subscription stopped'));
      this.#waiters = [];
    }
  }

  /** Steps the members that failed (when their backoff is over), then each group together. */
  async #stepAll(): Promise<{ progressed: boolean; nextRetryMs: number }> {
    let progressed = false;
    let nextRetryMs = Number.POSITIVE_INFINITY;
    for (const member of this.#members) {
      if (!member.alone || this.#stopped) continue;
      if (member.retryAt <= performance.now()) {
        try {
          if ((await this.#step([member])) > 0) progressed = true;
          member.alone = false;
          member.retryMs = FIRST_RETRY_MS;
        } catch (error) {
          member.options.onError?.(error);
          member.retryAt = performance.now() + member.retryMs;
          member.retryMs = Math.min(member.retryMs * 2, MAX_RETRY_MS);
        }
      }
      if (member.alone) nextRetryMs = Math.min(nextRetryMs, Math.max(1, member.retryAt - performance.now()));
    }
    for (const group of this.#groups) {
      const together = group.filter((m) => !m.alone);
      if (together.length === 0 || this.#stopped) continue;
      try {
        if ((await this.#step(together)) > 0) progressed = true;
      } catch (error) {
        if (together.length === 1) {
          const [member] = together as [Member];
          member.options.onError?.(error);
          member.alone = true;
          member.retryAt = performance.now() + member.retryMs;
          member.retryMs = Math.min(member.retryMs * 2, MAX_RETRY_MS);
        } else {
          // Which handler failed is not known: each steps alone now, and the ones that succeed rejoin.
          for (const member of together) {
            member.alone = true;
            member.retryAt = 0;
          }
          progressed = true;
        }
      }
    }
    return { progressed, nextRetryMs };
  }

  /**
   * One batch for `members`: read after the earliest of them, then in one transaction take their checkpoint locks,
   * read their stored checkpoints, hand each the events past its own, and store the checkpoints that moved.
   * Returns the number of events read (0: nothing new).
   */
  async #step(members: readonly Member[]): Promise<number> {
    const { db } = this.#context;
    const batchSize = Math.min(...members.map((m) => m.options.batchSize ?? DEFAULT_BATCH_SIZE));
    const events = await this.#context.readBatch(
      db,
      this.#earliest(members),
      batchSize,
      members[0]!.options.withoutFields,
    );
    if (events.length === 0) return 0;
    const names = members.map((m) => m.options.checkpointName);
    const stored = await db.transaction().execute(async (tx) => {
      await lockCheckpoints(tx, names);
      const positions = await readCheckpoints(tx, names);
      const moved: { name: string; position: LogPosition }[] = [];
      for (const member of members) {
        const name = member.options.checkpointName;
        const own = eventsAfter(events, positions.get(name) ?? ORIGIN);
        if (own.length === 0) continue;
        await member.options.handle(own, tx);
        const last = own.at(-1)!.position;
        moved.push({ name, position: last });
        positions.set(name, last);
      }
      await writeCheckpoints(tx, moved);
      return positions;
    });
    for (const member of members) member.position = stored.get(member.options.checkpointName) ?? member.position;
    return events.length;
  }

  async #loadCheckpoints(): Promise<void> {
    const { db } = this.#context;
    const names = this.#members.map((m) => m.options.checkpointName);
    await sql`insert into es_checkpoints (name, commit_position, prepare_position)
      select name, 0, 0 from (values ${sql.join(names.map((n) => sql`(${n})`))}) as v(name)
      on conflict (name) do nothing`.execute(db);
    const positions = await readCheckpoints(db, names);
    for (const member of this.#members) member.position = positions.get(member.options.checkpointName) ?? ORIGIN;
    this.#loaded = true;
  }

  #earliest(members: readonly Member[]): LogPosition {
    let earliest = members[0]?.position ?? ORIGIN;
    for (const { position } of members) if (comparePositions(position, earliest) < 0) earliest = position;
    return earliest;
  }

  #allReached(target: LogPosition): boolean {
    return this.#members.every((m) => comparePositions(m.position, target) >= 0);
  }

  #resolveWaiters(): void {
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting) {
      if (this.#allReached(waiter.target)) waiter.resolve();
      else this.#waiters.push(waiter);
    }
  }

  #reportToAll(error: unknown): void {
    for (const member of this.#members) member.options.onError?.(error);
  }

  /** As in checkpointed-subscription.ts: up to `ms`; stop() always interrupts, and so does a notification. */
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

/**
 * The advisory locks of several checkpoints in one statement, taken in name order so two instances locking the same
 * group cannot deadlock. The same locks a single subscription takes, so the two kinds exclude each other.
 */
async function lockCheckpoints(tx: Kysely<object>, names: readonly string[]): Promise<void> {
  const keys = [...names].sort().map((name) => sql`(${checkpointLockKey(name)})`);
  await sql`select pg_advisory_xact_lock(${CHECKPOINT_LOCK_SPACE}, hashtext(k))
    from (select k from (values ${sql.join(keys)}) as v(k) order by k offset 0) as ordered`.execute(tx);
}

async function readCheckpoints(db: Kysely<object>, names: readonly string[]): Promise<Map<string, LogPosition>> {
  const { rows } = await sql<{ name: string; commit_position: number; prepare_position: number }>`
    select name, commit_position, prepare_position from es_checkpoints
    where name in (${sql.join(names)})`.execute(db);
  return new Map(rows.map((r) => [r.name, { commit: Number(r.commit_position), prepare: Number(r.prepare_position) }]));
}

async function writeCheckpoints(
  tx: Kysely<object>,
  moved: readonly { name: string; position: LogPosition }[],
): Promise<void> {
  if (moved.length === 0) return;
  const values = moved.map(
    ({ name, position }) => sql`(${name}, ${position.commit}::bigint, ${position.prepare}::bigint)`,
  );
  await sql`update es_checkpoints as c
    set commit_position = v.commit_position, prepare_position = v.prepare_position, updated_at = now()
    from (values ${sql.join(values)}) as v(name, commit_position, prepare_position)
    where c.name = v.name`.execute(tx);
}

/** The events of a batch (in log order) after `position`. */
function eventsAfter(events: readonly RecordedEvent[], position: LogPosition): readonly RecordedEvent[] {
  const first = events.findIndex((e) => comparePositions(e.position, position) > 0);
  return first === -1 ? [] : first === 0 ? events : events.slice(first);
}

/** Members that leave out the same fields of the log share one read of it. */
function groupByFieldsLeftOut(members: readonly Member[]): Member[][] {
  const groups = new Map<string, Member[]>();
  for (const member of members) {
    const key = JSON.stringify([...(member.options.withoutFields ?? [])].sort());
    groups.set(key, [...(groups.get(key) ?? []), member]);
  }
  return [...groups.values()];
}
