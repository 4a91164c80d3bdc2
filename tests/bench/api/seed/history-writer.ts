import { randomUUID } from 'node:crypto';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Kysely, Transaction } from 'kysely';
import type { DomainEvent } from '../../../../app-server/commands/execute-command.ts';
import { toNewEvent } from '../../../../app-server/commands/event-metadata.ts';
import type { Decider } from '../../../../domain/shared/decider.ts';
import type { EventStore, NewEvent } from '../../../../domain/shared/event-store.ts';
import { inParallel } from './in-parallel.ts';

/**
 * Streams appended per transaction when flushing (each stream is one es_append call). Kept small so a transaction
 * lasts milliseconds: readers of the global log stop at the oldest transaction still open on the whole PostgreSQL
 * cluster (pg_snapshot_xmin), so a long seeding transaction would stall every other database's subscribers too.
 */
const STREAMS_PER_TRANSACTION = 50;
/** Transactions flushing at once. */
const PARALLEL_TRANSACTIONS = 4;

/**
 * Writes a generated history through the domain's own deciders, fast: commands are decided in memory against
 * states this writer folds itself (it is the only writer of the seeded database, so it knows every stream's state
 * and revision), and the resulting events are appended in large batches — many streams per transaction, one
 * `es_append` each with the exact expected version, through the product's event store (so GPS tracks are encrypted
 * under their owner's key as in production). Reading each stream back before every command, as executeCommand does,
 * would make a million events take hours on this machine.
 */
export class HistoryWriter {
  readonly #store: EventStore<Transaction<object>>;
  readonly #db: Kysely<object>;
  readonly #states = new Map<string, unknown>();
  readonly #revisions = new Map<string, number>();
  #pending = new Map<string, NewEvent[]>();

  constructor(store: EventStore<Transaction<object>>, db: Kysely<object>) {
    this.#store = store;
    this.#db = db;
  }

  /**
   * Decides `command` against the stream's folded state and queues the events; returns them. A refusal throws with
   * the decider's message (the generator only issues commands the product would accept).
   */
  decide<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    streamId: string,
    command: C,
    meta: { actorId: string | null; now: Date },
  ): readonly E[] {
    const state = (this.#states.has(streamId) ? this.#states.get(streamId) : decider.initialState) as S;
    const decision = decider.decide(command, state);
    if (isLeft(decision)) throw new Error(`seed command refused on ${streamId}: ${decision.left.message}`);
    const events = decision.right;
    this.#states.set(streamId, events.reduce(decider.evolve, state));
    this.queue(streamId, events, meta);
    return events;
  }

  /** Queues events decided elsewhere (e.g. decideCreateGoal's two streams); `state` is the stream's new state. */
  queue(
    streamId: string,
    events: readonly DomainEvent[],
    meta: { actorId: string | null; now: Date },
    state?: unknown,
  ) {
    if (state !== undefined) this.#states.set(streamId, state);
    if (events.length === 0) return;
    const correlationId = randomUUID();
    const metadata = { ...meta, correlationId, causationId: null, newEventId: () => randomUUID() };
    const queued = this.#pending.get(streamId) ?? [];
    queued.push(...events.map((e) => toNewEvent(e, metadata)));
    this.#pending.set(streamId, queued);
  }

  /** The folded state of a stream this writer wrote (undefined if none). */
  stateOf<S>(streamId: string): S | undefined {
    return this.#states.get(streamId) as S | undefined;
  }

  /** Forgets streams that will not be written again (closed goals), to keep memory flat over a long history. */
  forget(streamIds: Iterable<string>): void {
    for (const id of streamIds) this.#states.delete(id);
  }

  /** Appends everything queued; returns the number of events written. */
  async flush(): Promise<number> {
    const pending = [...this.#pending];
    this.#pending = new Map();
    const chunks: (typeof pending)[] = [];
    for (let i = 0; i < pending.length; i += STREAMS_PER_TRANSACTION)
      chunks.push(pending.slice(i, i + STREAMS_PER_TRANSACTION));
    let written = 0;
    await inParallel(chunks, PARALLEL_TRANSACTIONS, async (chunk) => {
      await this.#db.transaction().execute(async (tx) => {
        for (const [streamId, events] of chunk) {
          const revision = this.#revisions.get(streamId);
          const result = await this.#store.appendToStream(streamId, events, {
            expectedVersion: revision === undefined ? 'no_stream' : revision,
            transaction: tx,
          });
          this.#revisions.set(streamId, result.nextExpectedRevision);
        }
      });
      written += chunk.reduce((n, [, events]) => n + events.length, 0);
    });
    return written;
  }
}
