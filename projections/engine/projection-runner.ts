import { GPS_TRACK_FIELDS } from '../../domain/run/events.ts';
import type { LogPosition } from '../../domain/shared/event-store.ts';
import { CheckpointWatch } from './checkpoint-watch.ts';
import { type Checkpoint, newCheckpoint, readCheckpoint, readCheckpoints, writeCheckpoints } from './checkpoints.ts';
import { Engine, type EngineOptions } from './engine.ts';
import { DEFAULT_FAULT_POLICY, type FaultPolicy } from './fault-tracker.ts';
import {
  listPoisonedEvents,
  type PoisonedEvent,
  type PoisonStatus,
  type ReplayResult,
  recordPoisonedEvent,
  replayPoisonedEvent,
  resolvePoisonedEvent,
} from './poisoned-events.ts';
import type { Processor } from './processor.ts';
import { liveTableNames, type Projector, projectorProcessor } from './projector.ts';
import { type RebuildResult, rebuildProjections } from './rebuild.ts';
import { isTransientDatabaseError } from '../transient-error.ts';

export type RunnerLogger = Record<'info' | 'warn' | 'error', (fields: object, message: string) => void>;

export interface ProjectionRunnerOptions extends Omit<EngineOptions, 'processors'> {
  readonly projectors: readonly Projector[];
  readonly logger?: RunnerLogger;
  /** Retries and delays before an event a projector refuses is recorded as poisoned and passed. */
  readonly faultPolicy?: FaultPolicy;
  /**
   * Runs prepare() and rebuilds while no other process does schema work (the server's schema lock,
   * app-server/db/schema-lock.ts): processes started at once would create the same tables together, which PostgreSQL
   * refuses.
   */
  readonly exclusive?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Called when a read-your-writes wait finds projections behind: hurry the engines that apply them (a linger). */
  readonly onBehind?: () => void;
}

/** A projection's checkpoint (updatedAt null before its first), with how far behind it is. */
export interface ProjectionStatus extends Omit<Checkpoint, 'updatedAt'> {
  readonly updatedAt: Date | null;
  /** Events in the log after this projection's checkpoint, counted up to `lagLimit`. */
  readonly lag: number;
  readonly lagCapped: boolean;
  /** When the store recorded the oldest event this projection has not applied yet (null: none pending). */
  readonly oldestPendingAt: Date | null;
  /** Events recorded as poisoned for this projection and not yet skipped or replayed. */
  readonly poisoned: number;
}

const silent: RunnerLogger = { info() {}, warn() {}, error() {} };

/**
 * The projectors on the engine: their read models created (and rebuilt when their version changed), followed live,
 * rebuilt beside the live copy on demand, their poisoned events listed, skipped and replayed; and "has my write
 * been projected yet?" for read-your-writes.
 */
export class ProjectionRunner {
  /** The options, defaults filled in. */
  readonly #o: Required<Omit<ProjectionRunnerOptions, 'projectors' | 'idleMs' | 'lingerMs' | 'onBehind'>>;
  readonly #projectors: ReadonlyMap<string, Projector>;
  readonly #engineOptions: EngineOptions;
  readonly #engine: Engine;
  readonly #watch: CheckpointWatch;

  constructor({ projectors, idleMs, lingerMs, onBehind, ...options }: ProjectionRunnerOptions) {
    const defaults = { batchSize: 1000, now: () => new Date(), logger: silent, faultPolicy: DEFAULT_FAULT_POLICY };
    this.#o = { ...defaults, exclusive: (work) => work(), ...options };
    this.#projectors = new Map(projectors.map((p) => [p.name, p]));
    const { db, store, batchSize, now } = this.#o;
    const processors = projectors.map((projector) => this.#live(projector));
    this.#engineOptions = { db, store, processors, batchSize, now, idleMs, lingerMs };
    this.#engine = new Engine(this.#engineOptions);
    const checkpoints = async () => [...(await readCheckpoints(db)).values()];
    this.#watch = new CheckpointWatch(checkpoints, this.#engine.moved, onBehind);
  }

  /** Ends this process's engine's linger: a request waits for what it has yet to apply. */
  hurry(): void {
    this.#engine.hurry();
  }

  get names(): string[] {
    return [...this.#projectors.keys()];
  }

  /** Creates missing read models, rebuilds those whose version changed. Idempotent; needed before anything else. */
  async prepare(): Promise<void> {
    // A process that waited for another's finds the tables there and the versions current: nothing left to do.
    await this.#o.exclusive(async () => {
      const changed: string[] = [];
      const stored = await readCheckpoints(this.#o.db, this.names);
      for (const projector of this.#projectors.values()) {
        const { name, version } = projector;
        const from = stored.get(name)?.version;
        if (from !== undefined && from !== version) {
          this.#o.logger.info({ projection: name, from, to: version }, 'rebuilding changed projection');
          changed.push(name);
        }
        if (from !== undefined) continue;
        await this.#o.db.transaction().execute(async (tx) => {
          if (await readCheckpoint(tx, name, { lock: true })) return;
          await projector.createTables(tx, liveTableNames(projector));
          await writeCheckpoints(tx, [newCheckpoint(name, version, this.#o.now())]);
        });
      }
      if (changed.length > 0) await this.#rebuildAll(changed);
    });
  }

  async start(): Promise<void> {
    await this.prepare();
    this.#engine.start();
  }

  async stop(): Promise<void> {
    await this.#engine.stop();
  }

  /** Applies everything now in the log to every projection, in this process (tests, CLI), passing refusals as live. */
  async catchUp(): Promise<void> {
    await new Engine(this.#engineOptions).drain();
    this.#engine.moved.wake();
  }

  /** Resolves once every projection has applied the event at `position` (read-your-writes); rejects after `timeoutMs`. */
  async waitFor(position: LogPosition, timeoutMs = 5_000): Promise<void> {
    const behind = await this.reached(position, { timeoutMs });
    if (behind.length > 0)
      throw new Error(`Projections ${behind.join(', ')} did not reach the write in ${timeoutMs} ms`);
  }

  /**
   * Waits until the named projections (all when omitted) have passed `position`, for at most `timeoutMs`, whether they
   * run in this process or in a worker (checkpoint-watch.ts). Returns the ones still behind (empty: all there).
   */
  async reached(
    position: LogPosition,
    options: { projections?: readonly string[]; timeoutMs?: number } = {},
  ): Promise<string[]> {
    const names = options.projections ?? [...this.#projectors.keys()];
    const unknown = names.filter((name) => !this.#projectors.has(name));
    if (unknown.length > 0)
      throw new Error(`Unknown projection(s) ${unknown.join(', ')}. Known: ${this.names.join(', ')}`);
    // An inline read model has a write's events once the write has returned (they committed together): no wait.
    const awaited = names.filter((name) => !this.#projectors.get(name)!.inline);
    if (awaited.length === 0) return [];
    return this.#watch.reached(position, awaited, options.timeoutMs ?? 5_000);
  }

  /**
   * Rebuilds one projection beside the live copy and swaps it in (rebuild.ts), under the schema lock, so it never
   * races another process creating or rebuilding the same tables at start-up.
   */
  async rebuild(name: string, onProgress?: (eventsApplied: number) => void): Promise<RebuildResult> {
    return (await this.rebuildAll([name], onProgress))[0]!;
  }

  /** Rebuilds several projections, reading the log once for all of them; results in the order of `names`. */
  async rebuildAll(names: readonly string[], onProgress?: (eventsApplied: number) => void): Promise<RebuildResult[]> {
    return this.#o.exclusive(() => this.#rebuildAll(names, onProgress));
  }

  /** rebuildAll's work, for a caller that holds the schema lock already (prepare). */
  async #rebuildAll(names: readonly string[], onProgress?: (eventsApplied: number) => void) {
    const projectors = names.map((name) => {
      const projector = this.#projectors.get(name);
      if (!projector) throw new Error(`Unknown projection "${name}". Known: ${this.names.join(', ')}`);
      return projector;
    });
    const results = await rebuildProjections(this.#o.db, this.#o.store, projectors, { ...this.#o, onProgress });
    this.#engine.forgetPositions();
    return results;
  }

  /** Position, lag and open poisoned events of every projection. */
  async status(lagLimit = 100_000): Promise<ProjectionStatus[]> {
    const checkpoints = await readCheckpoints(this.#o.db, this.names);
    const open = await listPoisonedEvents(this.#o.db, { status: ['poisoned'] });
    const statuses: ProjectionStatus[] = [];
    for (const { name, version } of this.#projectors.values()) {
      const checkpoint = checkpoints.get(name);
      const pending = await this.#pendingAfter(checkpoint?.position ?? null, lagLimit);
      const poisoned = open.filter((p) => p.projection === name).length;
      const updatedAt = checkpoint?.updatedAt ?? null;
      const at = checkpoint ?? newCheckpoint(name, version, new Date(0));
      statuses.push({ ...at, updatedAt, ...pending, lagCapped: pending.lag >= lagLimit, poisoned });
    }
    return statuses;
  }

  /** Poisoned events of this runner's projections, oldest first (every status unless filtered). */
  async poisoned(filter: { status?: readonly PoisonStatus[] } = {}): Promise<PoisonedEvent[]> {
    const all = await listPoisonedEvents(this.#o.db, filter);
    return all.filter((p) => this.#projectors.has(p.projection));
  }

  /** Marks a poisoned event handled without applying it (the operator accepts the gap). False if unknown. */
  async skipPoisoned(id: number): Promise<boolean> {
    const [poisoned] = await listPoisonedEvents(this.#o.db, { id });
    if (poisoned?.status === 'poisoned') await resolvePoisonedEvent(this.#o.db, id, 'skipped', this.#o.now());
    return poisoned !== undefined;
  }

  /** Applies a poisoned (or skipped) event through its projector now (poisoned-events.ts). */
  async replayPoisoned(id: number): Promise<ReplayResult> {
    const result = await replayPoisonedEvent(this.#o.db, this.#o.store, this.#projectors, id, this.#o.now());
    if (result.kind === 'replayed') this.#engine.moved.wake();
    return result;
  }

  /** How many events follow `after` (counted up to `limit`, a bounded read at a time), and the oldest one's date. */
  async #pendingAfter(after: LogPosition | null, limit: number) {
    let lag = 0;
    let oldestPendingAt: Date | null = null;
    while (lag < limit) {
      const maxCount = Math.min(this.#o.batchSize * 10, limit - lag);
      const events = await this.#o.store.readAll({ after, maxCount, withoutFields: GPS_TRACK_FIELDS });
      if (events.length === 0) break;
      oldestPendingAt ??= new Date(events[0]!.recordedAt);
      lag += events.length;
      after = events.at(-1)!.position;
    }
    return { lag, oldestPendingAt };
  }

  /**
   * A projector's live copy as a processor, recording what it passes as poisoned. An inline one's rows are written by
   * the appends (inline-projections.ts): it only moves its checkpoint, for its status, lag and rebuild generation.
   */
  #live(projector: Projector): Processor {
    const { name } = projector;
    const onError = (err: unknown) =>
      isTransientDatabaseError(err)
        ? this.#o.logger.warn({ err, projection: name }, 'projection waiting for the database')
        : this.#o.logger.error({ err, projection: name }, 'projection batch failed');
    const live = { name, tables: liveTableNames(projector), replaying: false, failure: this.#o.faultPolicy, onError };
    const processor = projectorProcessor(projector, live, async (report, tx) => {
      await recordPoisonedEvent(tx, report);
      const { event, error, attempts } = report;
      const fields = { projection: name, eventId: event.metadata.eventId, eventType: event.type, attempts };
      this.#o.logger.error({ ...fields, globalPosition: event.globalPosition, error }, POISONED_MESSAGE);
    });
    return projector.inline ? { ...processor, handle: async () => {} } : processor;
  }
}

const POISONED_MESSAGE = 'projection passed a poisoned event (see npm run projections:poisoned)';
