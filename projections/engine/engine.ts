import type { Kysely, Transaction } from 'kysely';
import type { AppendedListener, EventStore } from '../../domain/shared/event-store.ts';
import { CheckpointWatch } from './checkpoint-watch.ts';
import { FaultTracker } from './fault-tracker.ts';
import type { Processor } from './processor.ts';
import { type Member, type StepFailure, step } from './step.ts';
import { isTransientDatabaseError } from '../transient-error.ts';

export interface EngineOptions {
  readonly db: Kysely<object>;
  readonly store: EventStore<Transaction<object>>;
  readonly processors: readonly Processor[];
  /** Most events per batch, unless a processor asks for fewer; default 1000. */
  readonly batchSize?: number;
  readonly now?: () => Date;
  /** Longest sleep without an announcement of an append (a safety net, not the wake-up); default 10 s. */
  readonly idleMs?: number;
  /** After a short batch, wait this long before reading again: a stream of small appends comes as one batch; default 0. */
  readonly lingerMs?: number;
}

// After a wake-up, an empty read can mean the new events sit behind an older transaction still open (hidden until it
// ends, which announces nothing): look again soon, backing off.
const FIRST_HIDDEN_RETRY_MS = 5;
const MAX_HIDDEN_RETRY_MS = 1000;
/** Failures in a row that blame no event after which a one-off drain gives up and throws. */
const DRAIN_FAILURE_LIMIT = 10;

/**
 * The one engine that follows the log, for projectors and reactors alike (Emmett's processors, Marten's async
 * daemon). Processors that leave out the same fields step together (step.ts); one whose batch is refused steps alone,
 * under its failure policy, until it is past the fault, so a bad event holds back neither later events nor the other
 * processors. Woken by the store's announcements of appends; between wake-ups it reads nothing.
 */
export class Engine {
  readonly #options: EngineOptions;
  readonly #members: Member[];
  readonly #groups: Member[][];
  readonly #now: () => Date;
  readonly #wake = new Signal();
  /** Ends a linger: stop(), or a request waiting for what this engine has yet to apply (hurry()). */
  readonly #hurry = new Signal();
  /** Woken after every round that moved something (read-your-writes waiters re-read the checkpoints). */
  readonly moved = new Signal();
  /** caughtUp()'s waiters, judged by where this engine left its processors. */
  readonly #watch: CheckpointWatch;
  #running = false;
  #loop: Promise<void> | null = null;
  #appended: AppendedListener | null = null;
  #unblamed: { error: unknown; count: number } | null = null;

  constructor(options: EngineOptions) {
    if (new Set(options.processors.map((p) => p.name)).size !== options.processors.length)
      throw new Error('Processor names must be unique');
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    const tracked = (processor: Processor) => ({ processor, tracker: new FaultTracker(processor.failure) });
    this.#members = options.processors.map((processor) => ({ ...tracked(processor), alone: false, retryAt: 0 }));
    const fieldsLeftOut = (member: Member) => JSON.stringify([...member.processor.withoutFields].sort());
    const groups = [...new Set(this.#members.map(fieldsLeftOut))];
    this.#groups = groups.map((fields) => this.#members.filter((m) => fieldsLeftOut(m) === fields));
    this.#watch = new CheckpointWatch(async () => {
      if (!this.#running) throw new Error('The engine stopped');
      return this.#members.map((m) => ({ name: m.processor.name, position: m.position ?? null }));
    }, this.moved);
  }

  /** Follows the log live until stop(). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#appended = this.#options.store.onAppended(() => this.#wake.wake());
    this.#loop = this.#follow();
  }

  /** Stops after the batches in hand; caughtUp() waiters are rejected. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#appended?.remove();
    this.#wake.wake();
    this.#hurry.wake();
    await this.#loop;
    this.moved.wake();
  }

  /** Ends the linger now, or the next one (someone waits to read what arrived): batches gather only unwatched. */
  hurry(): void {
    this.#hurry.wake();
  }

  /** Reads every checkpoint again at the next step (another writer moved them: a rebuild's swap). */
  forgetPositions(): void {
    for (const member of this.#members) member.position = undefined;
    this.#wake.wake();
  }

  /**
   * Resolves once every processor has passed every append committed by now (at once when not following), including
   * one still hidden behind an older open transaction: the visible head would let that one through unseen.
   */
  async caughtUp(): Promise<void> {
    const head = this.#running ? await this.#options.store.headPosition({ committed: true }) : null;
    if (head === null) return;
    const everyone = this.#members.map((m) => m.processor.name);
    await this.#watch.reached(head, everyone, Number.POSITIVE_INFINITY);
  }

  /**
   * Applies everything now in the log without following (tests, CLI, a rebuild's replay), refused events handled as
   * when following. Throws a failure that blames no event at once, or after DRAIN_FAILURE_LIMIT in a row when the
   * database is away. `afterRound` runs between rounds.
   */
  async drain(afterRound?: () => Promise<void>): Promise<void> {
    for (;;) {
      const round = await this.#round();
      const unblamed = this.#unblamed;
      if (unblamed && (!isTransientDatabaseError(unblamed.error) || unblamed.count >= DRAIN_FAILURE_LIMIT))
        throw unblamed.error;
      if (!round.progressed && !unblamed && this.#members.every((m) => !m.alone)) return;
      if (round.progressed) await afterRound?.();
      else await this.#wake.wait(Number.isFinite(round.waitMs) ? round.waitMs : FIRST_HIDDEN_RETRY_MS);
    }
  }

  async #follow(): Promise<void> {
    // The first read comes after LISTEN is in place: an append committed in between would wake nobody.
    await this.#appended?.ready;
    let hiddenRetryMs = 0;
    while (this.#running) {
      const round = await this.#round();
      if (round.progressed && !round.full && this.#options.lingerMs) await this.#hurry.wait(this.#options.lingerMs);
      if (round.progressed) hiddenRetryMs = 0;
      else if (this.#unblamed) await this.#wake.wait(round.waitMs);
      else if (hiddenRetryMs > 0 && hiddenRetryMs <= MAX_HIDDEN_RETRY_MS) {
        if (!(await this.#wake.wait(Math.min(hiddenRetryMs, round.waitMs)))) hiddenRetryMs *= 2;
      } else {
        const idleMs = Math.min(this.#options.idleMs ?? 10_000, round.waitMs);
        hiddenRetryMs = (await this.#wake.wait(idleMs)) ? FIRST_HIDDEN_RETRY_MS : 0;
      }
    }
  }

  /** Steps the members that are alone (when due), then each group: did anything move, did a batch fill, how long to wait. */
  async #round(): Promise<{ progressed: boolean; full: boolean; waitMs: number }> {
    const steps: (boolean | 'full')[] = [];
    for (const member of this.#members)
      if (member.alone && member.retryAt <= performance.now()) steps.push(await this.#step([member]));
    for (const group of this.#groups.map((g) => g.filter((m) => !m.alone)))
      if (group.length > 0) steps.push(await this.#step(group));
    const progressed = steps.some(Boolean);
    if (progressed) this.moved.wake();
    const waiting = this.#members.filter((m) => m.alone || m.retryAt > 0);
    const waitMs = Math.min(...waiting.map((m) => Math.max(0, m.retryAt - performance.now())));
    return { progressed, full: steps.includes('full'), waitMs };
  }

  /** One step of a group, or of a member alone; truthy when something moved (or must go on at once). */
  async #step(members: Member[]): Promise<boolean | 'full'> {
    const sizes = members.map((m) => m.tracker.batchSize(m.processor.batchSize ?? this.#options.batchSize ?? 1000));
    for (const member of members) member.retryAt = 0;
    try {
      const options = { batchSize: Math.min(...sizes), now: this.#now };
      const moved = await step(this.#options.db, this.#options.store, members, options);
      this.#unblamed = null;
      for (const member of members) {
        member.pass = undefined;
        if (member.position) member.tracker.succeeded(member.position);
        if (member.tracker.settled) member.alone = false;
      }
      return moved;
    } catch (caught) {
      const failure = caught as StepFailure;
      const transient = isTransientDatabaseError(failure.error);
      if (members.length > 1 && !transient) {
        // Which one refused is not known: each steps alone now, and those that succeed rejoin.
        for (const member of members) member.alone = true;
        return true;
      }
      // Blames no event (counted once for a group, which the database being away leaves waiting together).
      if (transient || failure.events.length === 0)
        this.#unblamed = { error: failure.error, count: (this.#unblamed?.count ?? 0) + 1 };
      return members.map((member) => this.#failed(member, failure, transient)).includes(true);
    }
  }

  /** A member's step failed: its policy says when to retry, or to pass the event next (true: go on at once). */
  #failed(member: Member, { error, events }: StepFailure, transient: boolean): boolean {
    member.processor.onError?.(error);
    // A database that is away blames nobody: a member of a group stays in it, waiting with the others.
    member.alone ||= !transient;
    member.pass = undefined;
    const ids = events.map((e) => e.metadata.eventId);
    const last = events.at(-1)?.position ?? null;
    const decision = member.tracker.failed({ eventIds: ids, lastPosition: last }, transient, this.#now());
    if (decision.kind === 'retry') {
      member.retryAt = performance.now() + decision.delayMs;
      return decision.delayMs === 0;
    }
    const { eventId, attempts, firstFailedAt: firstSeenAt } = decision;
    member.pass = { eventId, error: describeError(error), attempts, firstSeenAt };
    return true;
  }
}

/** The error as an operator reads it: the SQLSTATE or Node code when there is one, then the message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

/**
 * A wake-up for any number of waiters: `wait(ms)` resolves true on the next `wake()`, false after `ms`. A wake while
 * nobody waits is kept for the next wait, so an append between "read nothing" and "wait" is not slept through.
 */
export class Signal {
  readonly #waiters = new Set<(woken: boolean) => void>();
  #pending = false;

  wake(): void {
    if (this.#waiters.size === 0) this.#pending = true;
    for (const resolve of [...this.#waiters]) resolve(true);
  }

  wait(ms: number): Promise<boolean> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve(woken);
      };
      const timer = setTimeout(() => done(false), Math.min(ms, 2_147_483_647));
      this.#waiters.add(done);
    });
  }
}
