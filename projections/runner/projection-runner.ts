import type { Kysely, Transaction } from 'kysely';
import { type EventStore, type LogPosition, comparePositions } from '../../domain/shared/event-store.ts';
import { applyNextBatch } from './apply-batch.ts';
import { type Checkpoint, readAllCheckpoints, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { type Projector, liveTableNames } from './projector.ts';
import { type RebuildResult, rebuildProjection } from './rebuild.ts';
import { Broadcast, WakeSignal } from './wake-signal.ts';

export interface RunnerLogger {
  info(fields: object, message: string): void;
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
}

const FIRST_HIDDEN_RETRY_MS = 5;
const MAX_HIDDEN_RETRY_MS = 1000;

const silent: RunnerLogger = { info() {}, error() {} };

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
  readonly #wake = new WakeSignal();
  readonly #applied = new Broadcast();
  #running = false;
  #loops: Promise<void>[] = [];
  #unsubscribe: (() => void) | null = null;
  readonly #signals = new Map<string, WakeSignal>();

  constructor(options: ProjectionRunnerOptions) {
    this.#db = options.db;
    this.#store = options.store;
    this.#projectors = new Map(options.projectors.map((p) => [p.name, p]));
    if (this.#projectors.size !== options.projectors.length) throw new Error('Projector names must be unique');
    this.#batchSize = options.batchSize ?? 1000;
    this.#now = options.now ?? (() => new Date());
    this.#logger = options.logger ?? silent;
    this.#idleMs = options.idleMs ?? 10_000;
  }

  /** The registered projector names. */
  get names(): string[] {
    return [...this.#projectors.keys()];
  }

  /** Creates missing read models, rebuilds those whose version changed. Idempotent; needed before anything else. */
  async prepare(): Promise<void> {
    for (const projector of this.#projectors.values()) {
      const checkpoint = await readCheckpoint(this.#db, projector.name);
      if (!checkpoint) {
        await this.#db.transaction().execute(async (tx) => {
          if (await readCheckpoint(tx, projector.name, { lock: true })) return;
          await projector.createTables(tx, liveTableNames(projector));
          await writeCheckpoint(tx, initialCheckpoint(projector, this.#now()));
        });
      } else if (checkpoint.version !== projector.version) {
        this.#logger.info({ projection: projector.name, from: checkpoint.version, to: projector.version }, 'rebuilding changed projection');
        await this.rebuild(projector.name);
      }
    }
  }

  /** Starts following the log live. */
  async start(): Promise<void> {
    if (this.#running) return;
    await this.prepare();
    this.#running = true;
    this.#unsubscribe = this.#store.onAppended(() => {
      for (const signal of this.#signals.values()) signal.wake();
    });
    this.#loops = [...this.#projectors.values()].map((projector) => this.#follow(projector));
  }

  /** Stops after the batches in hand. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#unsubscribe?.();
    for (const signal of this.#signals.values()) signal.wake();
    await Promise.all(this.#loops);
    this.#loops = [];
  }

  /** Applies everything currently in the log to every projection, in this process (tests, CLI, simulations). */
  async catchUp(): Promise<void> {
    for (const projector of this.#projectors.values()) {
      const target = { projector, checkpointName: projector.name, tables: liveTableNames(projector) };
      while ((await applyNextBatch(this.#db, this.#store, target, this.#options())) > 0) {}
    }
    this.#applied.wake();
  }

  /**
   * Resolves once every projection has applied the event at `position` (read-your-writes). Works whether the
   * projections run in this process or in a worker: it re-reads the checkpoints after each local batch, or at a
   * short interval. Rejects after `timeoutMs`.
   */
  async waitFor(position: LogPosition, timeoutMs = 5_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const checkpoints = await readAllCheckpoints(this.#db);
      const behind = [...this.#projectors.keys()].filter((name) => {
        const checkpoint = checkpoints.find((c) => c.name === name);
        return !checkpoint?.position || comparePositions(checkpoint.position, position) < 0;
      });
      if (behind.length === 0) return;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`Projections ${behind.join(', ')} did not reach the write in ${timeoutMs} ms`);
      await this.#applied.wait(Math.min(left, 25));
    }
  }

  /** Rebuilds one projection beside the live copy and swaps it in. */
  async rebuild(name: string, onProgress?: (eventsApplied: number) => void): Promise<RebuildResult> {
    const projector = this.#projectors.get(name);
    if (!projector) throw new Error(`Unknown projection "${name}". Known: ${this.names.join(', ')}`);
    const result = await rebuildProjection(this.#db, this.#store, projector, {
      ...this.#options(),
      ...(onProgress ? { onProgress } : {}),
    });
    this.#signals.get(name)?.wake();
    this.#applied.wake();
    return result;
  }

  /** Position and lag of every projection. */
  async status(lagLimit = 100_000): Promise<ProjectionStatus[]> {
    const checkpoints = await readAllCheckpoints(this.#db);
    const statuses: ProjectionStatus[] = [];
    for (const projector of this.#projectors.values()) {
      const checkpoint = checkpoints.find((c) => c.name === projector.name);
      const lag = await this.#countAfter(checkpoint?.position ?? null, lagLimit);
      statuses.push({
        name: projector.name,
        version: checkpoint?.version ?? projector.version,
        position: checkpoint?.position ?? null,
        globalPosition: checkpoint?.globalPosition ?? 0,
        eventsApplied: checkpoint?.eventsApplied ?? 0,
        lag,
        lagCapped: lag >= lagLimit,
        updatedAt: checkpoint?.updatedAt ?? null,
      });
    }
    return statuses;
  }

  async #countAfter(position: LogPosition | null, limit: number): Promise<number> {
    let count = 0;
    let after = position;
    while (count < limit) {
      const events = await this.#store.readAll({ after, maxCount: Math.min(this.#batchSize * 10, limit - count) });
      if (events.length === 0) break;
      count += events.length;
      after = events[events.length - 1]!.position;
    }
    return count;
  }

  async #follow(projector: Projector): Promise<void> {
    const signal = new WakeSignal();
    this.#signals.set(projector.name, signal);
    const target = { projector, checkpointName: projector.name, tables: liveTableNames(projector) };
    let failures = 0;
    // After a notification, an empty read can mean the new events sit behind an older transaction that is still
    // open (the store hides them until it ends, which sends no notification): look again soon, backing off.
    let hiddenRetryMs = 0;
    while (this.#running) {
      try {
        const applied = await applyNextBatch(this.#db, this.#store, target, this.#options());
        failures = 0;
        if (applied > 0) {
          hiddenRetryMs = 0;
          this.#applied.wake();
        } else if (hiddenRetryMs > 0 && hiddenRetryMs <= MAX_HIDDEN_RETRY_MS) {
          if (!(await signal.wait(hiddenRetryMs))) hiddenRetryMs *= 2;
        } else {
          hiddenRetryMs = (await signal.wait(this.#idleMs)) ? FIRST_HIDDEN_RETRY_MS : 0;
        }
      } catch (error) {
        failures++;
        this.#logger.error({ err: error, projection: projector.name, failures }, 'projection batch failed');
        // Back off so a poison event does not spin a core; the batch is retried from the same checkpoint.
        await signal.wait(Math.min(30_000, 100 * 2 ** Math.min(failures, 8)));
      }
    }
    this.#signals.delete(projector.name);
  }

  #options() {
    return { batchSize: this.#batchSize, now: this.#now };
  }
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
