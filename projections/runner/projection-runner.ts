import type { Kysely, Transaction } from 'kysely';
import { GPS_TRACK_FIELDS } from '../../domain/run/events.ts';
import type { AppendedListener, EventStore, LogPosition, RecordedEvent } from '../../domain/shared/event-store.ts';
import { stepTogether, type TogetherMember } from './apply-together.ts';
import { CheckpointWatch } from './checkpoint-watch.ts';
import { type Checkpoint, readAllCheckpoints, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { DEFAULT_FAULT_POLICY, type FaultPolicy, FaultTracker, retryDelayMs } from './fault-tracker.ts';
import { type ReplayResult, replayPoisonedEvent, skipPoisonedEvent } from './poison-operations.ts';
import { listPoisonedEvents, type PoisonedEvent, type PoisonStatus } from './poisoned-events.ts';
import { fieldsLeftOut, liveTableNames, type Projector } from './projector.ts';
import { type RebuildResult, rebuildProjection, rebuildProjections } from './rebuild.ts';
import { drainPastFaults, stepPastFaults } from './step-past-faults.ts';
import { isTransientDatabaseError } from './transient-error.ts';
import { Broadcast, WakeSignal } from './wake-signal.ts';

export interface RunnerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface ProjectionRunnerOptions {
  readonly db: Kysely<object>;
  readonly store: EventStore<Transaction<object>>;
  readonly projectors: readonly Projector[];
  readonly batchSize?: number;
  readonly now?: () => Date;
  readonly logger?: RunnerLogger;
  /** Longest sleep between log reads when no notification arrives (a safety net, not the wake-up mechanism). */
  readonly idleMs?: number;
  /** Retries and delays before an event a projector refuses is recorded as poisoned and passed. */
  readonly faultPolicy?: FaultPolicy;
  /**
   * Runs prepare() (read-model tables created, changed ones rebuilt) while no other process does schema work: several
   * processes started at once would otherwise create the same tables together, which PostgreSQL refuses. The server
   * passes its schema lock (app-server/db/schema-lock.ts); without one prepare() runs as it is.
   */
  readonly exclusive?: <T>(work: () => Promise<T>) => Promise<T>;
}

export interface ProjectionStatus {
  readonly name: string;
  readonly version: number;
  readonly position: LogPosition | null;
  readonly globalPosition: number;
  readonly eventsApplied: number;
  /** Events in the log after this projection's checkpoint, counted up to `lagLimit`. */
  readonly lag: number;
  readonly lagCapped: boolean;
  readonly updatedAt: Date | null;
  /** When the store recorded the oldest event this projection has not applied yet (null: none pending). */
  readonly oldestPendingAt: Date | null;
  /** Events recorded as poisoned for this projection and not yet skipped or replayed. */
  readonly poisoned: number;
}

const FIRST_HIDDEN_RETRY_MS = 5;
const MAX_HIDDEN_RETRY_MS = 1000;

const silent: RunnerLogger = { info() {}, warn() {}, error() {} };

/**
 * Runs projectors over the global log: one loop per projector, each batch applied together with its checkpoint,
 * woken by the store's append notifications. Also rebuilds a projection beside the live copy and answers
 * "has my write been projected yet?" for read-your-writes.
 */
export class ProjectionRunner {
  readonly #db: Kysely<object>;
  readonly #store: EventStore<Transaction<object>>;
  readonly #projectors: ReadonlyMap<string, Projector>;
  readonly #batchSize: number;
  readonly #now: () => Date;
  readonly #logger: RunnerLogger;
  readonly #idleMs: number;
  readonly #faultPolicy: FaultPolicy;
  readonly #exclusive: <T>(work: () => Promise<T>) => Promise<T>;
  readonly #applied = new Broadcast();
  #running = false;
  #loops: Promise<void>[] = [];
  #appended: AppendedListener | null = null;
  readonly #signal = new WakeSignal();
  readonly #watch: CheckpointWatch;

  constructor(options: ProjectionRunnerOptions) {
    this.#db = options.db;
    this.#store = options.store;
    this.#projectors = new Map(options.projectors.map((p) => [p.name, p]));
    if (this.#projectors.size !== options.projectors.length) throw new Error('Projector names must be unique');
    this.#batchSize = options.batchSize ?? 1000;
    this.#now = options.now ?? (() => new Date());
    this.#logger = options.logger ?? silent;
    this.#idleMs = options.idleMs ?? 10_000;
    this.#faultPolicy = options.faultPolicy ?? DEFAULT_FAULT_POLICY;
    this.#exclusive = options.exclusive ?? ((work) => work());
    this.#watch = new CheckpointWatch(() => readAllCheckpoints(this.#db), this.#applied);
  }

  /** The registered projector names. */
  get names(): string[] {
    return [...this.#projectors.keys()];
  }

  /** Creates missing read models, rebuilds those whose version changed. Idempotent; needed before anything else. */
  async prepare(): Promise<void> {
    // A process that waited for another's finds the tables there and the versions current: nothing left to do.
    await this.#exclusive(() => this.#prepare());
  }

  async #prepare(): Promise<void> {
    const changed: string[] = [];
    for (const projector of this.#projectors.values()) {
      const checkpoint = await readCheckpoint(this.#db, projector.name);
      if (!checkpoint) {
        await this.#db.transaction().execute(async (tx) => {
          if (await readCheckpoint(tx, projector.name, { lock: true })) return;
          await projector.createTables(tx, liveTableNames(projector));
          await writeCheckpoint(tx, initialCheckpoint(projector, this.#now()));
        });
      } else if (checkpoint.version !== projector.version) {
        this.#logger.info(
          { projection: projector.name, from: checkpoint.version, to: projector.version },
          'rebuilding changed projection',
        );
        changed.push(projector.name);
      }
    }
    if (changed.length > 0) await this.#rebuildAll(changed);
  }

  /** Starts following the log live. */
  async start(): Promise<void> {
    if (this.#running) return;
    await this.prepare();
    this.#running = true;
    this.#appended = this.#store.onAppended(() => this.#signal.wake());
    this.#loops = [this.#followAll()];
  }

  /** Stops after the batches in hand. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#appended?.remove();
    this.#signal.wake();
    await Promise.all(this.#loops);
    this.#loops = [];
  }

  /**
   * Applies everything currently in the log to every projection, in this process (tests, CLI, simulations). Events a
   * projector refuses are recorded as poisoned and passed, as when following live.
   */
  async catchUp(): Promise<void> {
    for (const projector of this.#projectors.values()) {
      const target = { projector, checkpointName: projector.name, tables: liveTableNames(projector) };
      await drainPastFaults(this.#db, this.#store, target, new FaultTracker(this.#faultPolicy), {
        ...this.#options(),
        onPoisoned: (report) => this.#logPoisoned(report.projection, report.event, report.error, report.attempts),
      });
    }
    this.#applied.wake();
  }

  /**
   * Resolves once every projection has applied the event at `position` (read-your-writes). Works whether the
   * projections run in this process or in a worker: it re-reads the checkpoints after each local batch, or at a
   * short interval. Rejects after `timeoutMs`.
   */
  async waitFor(position: LogPosition, timeoutMs = 5_000): Promise<void> {
    const behind = await this.reached(position, { timeoutMs });
    if (behind.length > 0)
      throw new Error(`Projections ${behind.join(', ')} did not reach the write in ${timeoutMs} ms`);
  }

  /**
   * Waits until the named projections (all when omitted) have passed `position`, for at most `timeoutMs`. Returns
   * the ones still behind when time ran out (empty: all there). An unknown name is a programming error and throws.
   */
  async reached(
    position: LogPosition,
    options: { projections?: readonly string[]; timeoutMs?: number } = {},
  ): Promise<string[]> {
    const names = options.projections ?? [...this.#projectors.keys()];
    const unknown = names.filter((name) => !this.#projectors.has(name));
    if (unknown.length > 0)
      throw new Error(`Unknown projection(s) ${unknown.join(', ')}. Known: ${this.names.join(', ')}`);
    return this.#watch.reached(position, names, options.timeoutMs ?? 5_000);
  }

  /**
   * Rebuilds one projection beside the live copy and swaps it in. Like every rebuild asked from outside (the
   * operator's `projections:rebuild`, a test), it holds the schema lock, so it never races another process creating
   * or rebuilding the same tables at start-up.
   */
  async rebuild(name: string, onProgress?: (eventsApplied: number) => void): Promise<RebuildResult> {
    const projector = this.#projectors.get(name);
    if (!projector) throw new Error(`Unknown projection "${name}". Known: ${this.names.join(', ')}`);
    const result = await this.#exclusive(() =>
      rebuildProjection(this.#db, this.#store, projector, {
        ...this.#options(),
        faultPolicy: this.#faultPolicy,
        ...(onProgress ? { onProgress } : {}),
      }),
    );
    this.#signal.wake();
    this.#applied.wake();
    return result;
  }

  /**
   * Rebuilds several projections beside their live copies, reading the log once for all of them, and swaps each in
   * (rebuildProjections). Results in the order of `names`. Holds the schema lock, as `rebuild` does.
   */
  async rebuildAll(names: readonly string[]): Promise<RebuildResult[]> {
    return this.#exclusive(() => this.#rebuildAll(names));
  }

  /** rebuildAll's work, for a caller that holds the schema lock already (start-up's #prepare). */
  async #rebuildAll(names: readonly string[]): Promise<RebuildResult[]> {
    const projectors = names.map((name) => {
      const projector = this.#projectors.get(name);
      if (!projector) throw new Error(`Unknown projection "${name}". Known: ${this.names.join(', ')}`);
      return projector;
    });
    const results = await rebuildProjections(this.#db, this.#store, projectors, {
      ...this.#options(),
      faultPolicy: this.#faultPolicy,
    });
    this.#signal.wake();
    this.#applied.wake();
    return results;
  }

  /** Position, lag and open poisoned events of every projection. */
  async status(lagLimit = 100_000): Promise<ProjectionStatus[]> {
    const checkpoints = await readAllCheckpoints(this.#db);
    const open = await listPoisonedEvents(this.#db, { status: ['poisoned'] });
    const statuses: ProjectionStatus[] = [];
    for (const projector of this.#projectors.values()) {
      const checkpoint = checkpoints.find((c) => c.name === projector.name);
      const { lag, oldestPendingAt } = await this.#pendingAfter(checkpoint?.position ?? null, lagLimit);
      statuses.push({
        name: projector.name,
        version: checkpoint?.version ?? projector.version,
        position: checkpoint?.position ?? null,
        globalPosition: checkpoint?.globalPosition ?? 0,
        eventsApplied: checkpoint?.eventsApplied ?? 0,
        lag,
        lagCapped: lag >= lagLimit,
        updatedAt: checkpoint?.updatedAt ?? null,
        oldestPendingAt,
        poisoned: open.filter((p) => p.projection === projector.name).length,
      });
    }
    return statuses;
  }

  /** Poisoned events of this runner's projections, oldest first (every status unless filtered). */
  async poisoned(filter: { status?: readonly PoisonStatus[] } = {}): Promise<PoisonedEvent[]> {
    const all = await listPoisonedEvents(this.#db, filter);
    return all.filter((p) => this.#projectors.has(p.projection));
  }

  /** Marks a poisoned event handled without applying it (the operator accepts the gap). False if unknown. */
  async skipPoisoned(id: number): Promise<boolean> {
    return skipPoisonedEvent(this.#db, id, this.#now());
  }

  /**
   * Applies a poisoned (or skipped) event through its projector now, on top of the live read model, in one
   * transaction holding the projection's checkpoint lock; marks it replayed when it applies.
   */
  async replayPoisoned(id: number): Promise<ReplayResult> {
    const result = await replayPoisonedEvent(this.#db, this.#store, this.#projectors, id, this.#now());
    if (result.kind === 'replayed') this.#applied.wake();
    return result;
  }

  async #pendingAfter(
    position: LogPosition | null,
    limit: number,
  ): Promise<{ lag: number; oldestPendingAt: Date | null }> {
    let count = 0;
    let oldestPendingAt: Date | null = null;
    let after = position;
    while (count < limit) {
      const events = await this.#store.readAll({
        after,
        maxCount: Math.min(this.#batchSize * 10, limit - count),
        withoutFields: GPS_TRACK_FIELDS,
      });
      if (events.length === 0) break;
      oldestPendingAt ??= new Date(events[0]!.recordedAt);
      count += events.length;
      after = events[events.length - 1]!.position;
    }
    return { lag: count, oldestPendingAt };
  }

  /**
   * Follows the log live for every projection in one loop. Projections that leave out the same fields of the log
   * step together (apply-together.ts: one read, one transaction per step for all of them). One whose batch is
   * refused steps alone until its fault is over (narrowing down, retries on a schedule, passing a poisoned event;
   * see step-past-faults.ts), so a bad event holds back neither later events nor the other projections.
   */
  async #followAll(): Promise<void> {
    const signal = this.#signal;
    const members: FollowedProjection[] = [...this.#projectors.values()].map((projector) => ({
      target: { projector, checkpointName: projector.name, tables: liveTableNames(projector) },
      cursor: {},
      tracker: new FaultTracker(this.#faultPolicy),
      alone: false,
      retryAt: 0,
    }));
    const groups = groupByFieldsLeftOut(members);
    // After a notification, an empty read can mean the new events sit behind an older transaction that is still
    // open (the store hides them until it ends, which sends no notification): look again soon, backing off.
    let hiddenRetryMs = 0;
    let transientFailures = 0;
    // The first read comes after LISTEN is in place: an append committed in between would otherwise send a wake-up
    // nobody hears and wait out the idle timeout (10 s) behind a write that asked for its read model.
    await this.#appended?.ready;
    while (this.#running) {
      let progressed = false;
      let waitAtMostMs = Number.POSITIVE_INFINITY;
      for (const member of members) {
        if (!member.alone) continue;
        const dueInMs = member.retryAt - performance.now();
        if (dueInMs <= 0 && (await this.#stepAlone(member))) progressed = true;
        if (member.alone) waitAtMostMs = Math.min(waitAtMostMs, Math.max(0, member.retryAt - performance.now()));
      }
      let waitingForDatabase = false;
      for (const [withoutFields, group] of groups) {
        const together = group.filter((member) => !member.alone);
        if (together.length === 0) continue;
        try {
          const step = await stepTogether(this.#db, this.#store, together, { ...this.#options(), withoutFields });
          transientFailures = 0;
          for (const [member, events] of step.applied) member.tracker.succeeded(events.at(-1)!.position);
          // Read but not applied: another runner moved a checkpoint; the cursors are forgotten, look again now.
          if (step.read > 0) progressed = true;
        } catch (error) {
          if (isTransientDatabaseError(error)) {
            transientFailures++;
            this.#logger.warn(
              { err: error, projections: together.map((m) => m.target.projector.name), failures: transientFailures },
              'projection waiting for the database',
            );
            waitingForDatabase = true;
            waitAtMostMs = Math.min(waitAtMostMs, retryDelayMs(this.#faultPolicy, transientFailures));
          } else {
            // Some projector refused the batch: step them one by one, which finds out which one and which event.
            for (const member of together) member.alone = true;
            progressed = true;
          }
        }
      }
      if (progressed) {
        hiddenRetryMs = 0;
        this.#applied.wake();
        continue;
      }
      if (!this.#running) break;
      if (waitingForDatabase) {
        // A notification (the database is back: a LISTEN reconnect announces it) cuts the wait short.
        await signal.wait(waitAtMostMs);
      } else if (hiddenRetryMs > 0 && hiddenRetryMs <= MAX_HIDDEN_RETRY_MS) {
        if (!(await signal.wait(Math.min(hiddenRetryMs, waitAtMostMs)))) hiddenRetryMs *= 2;
      } else {
        hiddenRetryMs = (await signal.wait(Math.min(this.#idleMs, waitAtMostMs))) ? FIRST_HIDDEN_RETRY_MS : 0;
      }
    }
  }

  /** One step of a projection on its own while it has a fault outstanding; true when it moved (or must go on now). */
  async #stepAlone(member: FollowedProjection): Promise<boolean> {
    const { projector } = member.target;
    const outcome = await stepPastFaults(
      this.#db,
      this.#store,
      member.target,
      member.tracker,
      this.#options(),
      member.cursor,
    );
    member.retryAt = 0;
    if (outcome.kind === 'failed') {
      if (outcome.transient) {
        this.#logger.warn(
          { err: outcome.error, projection: projector.name, failures: member.tracker.transientFailures },
          'projection waiting for the database',
        );
      } else {
        this.#logger.error({ err: outcome.error, projection: projector.name }, 'projection batch failed');
      }
      // Refusals are retried on a schedule, not on every append, so the retries stay spaced.
      member.retryAt = performance.now() + outcome.retryInMs;
      return outcome.retryInMs === 0;
    }
    if (outcome.kind === 'poisoned') {
      const { event, error, attempts } = outcome.report;
      this.#logPoisoned(projector.name, event, error, attempts);
    }
    if (member.tracker.settled) member.alone = false;
    return outcome.kind === 'poisoned' || outcome.events.length > 0;
  }

  #logPoisoned(projection: string, event: RecordedEvent, error: string, attempts: number): void {
    this.#logger.error(
      {
        projection,
        eventId: event.metadata.eventId,
        eventType: event.type,
        globalPosition: event.globalPosition,
        attempts,
        error,
      },
      'projection passed a poisoned event (see npm run projections:poisoned)',
    );
  }

  #options() {
    return { batchSize: this.#batchSize, now: this.#now };
  }
}

/** A projection as the live loop follows it. */
interface FollowedProjection extends TogetherMember {
  readonly tracker: FaultTracker;
  /** Stepped on its own while a refused event is being narrowed down, retried or passed. */
  alone: boolean;
  /** performance.now() before which a projection stepping alone is not retried. */
  retryAt: number;
}

/** Projections that leave out the same fields of the log can share one read of it. */
function groupByFieldsLeftOut(members: readonly FollowedProjection[]): Map<readonly string[], FollowedProjection[]> {
  const byKey = new Map<string, { fields: readonly string[]; members: FollowedProjection[] }>();
  for (const member of members) {
    const fields = fieldsLeftOut(member.target.projector);
    const key = JSON.stringify([...fields].sort());
    const group = byKey.get(key) ?? { fields, members: [] };
    group.members.push(member);
    byKey.set(key, group);
  }
  return new Map([...byKey.values()].map((g) => [g.fields, g.members]));
}

function initialCheckpoint(projector: Projector, now: Date): Checkpoint {
  return {
    name: projector.name,
    position: null,
    globalPosition: 0,
    eventsApplied: 0,
    version: projector.version,
    generation: 0,
    updatedAt: now,
  };
}
