import type { Kysely, Transaction } from 'kysely';
import { GPS_TRACK_FIELDS } from '../../domain/run/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { PoisonReport } from './poisoned-events.ts';
import type { BatchContext, Processor } from './processor.ts';

/**
 * Physical table names for one copy of a read model. The live copy uses the logical names; a rebuild writes a fresh
 * copy under generation-suffixed names beside it and swaps them in. Projectors must always go through this map.
 */
export type TableNames<Logical extends string = string> = Readonly<Record<Logical, string>>;

/** The topics a projector announces (defined with the realtime messages that carry them). */
export { type ChangeTopic, changeTopics } from '../change-announcements.ts';

/** What a projector gets for one batch: the processor's (processor.ts), and the tables of the copy it writes. */
export interface ProjectionContext<Logical extends string = string> extends BatchContext {
  readonly tables: TableNames<Logical>;
  /**
   * True while a rebuild replays into a copy nobody reads yet (`announce` does nothing): work only the copy's final
   * state needs may be left to `finishReplay`, run once the replay reached the log's end.
   */
  readonly replaying?: boolean;
  /**
   * The users whose read-model lock (user-lock.ts) this transaction already holds, shared by the projectors of one
   * inline append (inline-projections.ts), so the second does not send the first's lock again. Absent elsewhere.
   */
  readonly heldUserLocks?: Set<string>;
}

/**
 * Turns events into read-model rows, in its own tables, each batch in its checkpoint's transaction (exactly once).
 * Deterministic: a rebuild from position 0 must produce the rows the live copy has.
 */
export interface Projector<Logical extends string = string> extends Pick<Processor, 'name' | 'version' | 'eventTypes'> {
  /** Logical table names this projector owns. */
  readonly tables: readonly Logical[];
  /** Creates the tables (and their indexes, named after the physical table) under the given physical names. */
  createTables(db: Kysely<object> | Transaction<object>, tables: TableNames<Logical>): Promise<void>;
  /** Applies a batch of events of its `eventTypes`, in log order. */
  apply(events: readonly RecordedEvent[], context: ProjectionContext<Logical>): Promise<void>;
  /**
   * Completes a rebuild copy after a replay (`replaying` batches), before the copy catches up with the last events
   * and is swapped in; the rows must then be what applying every batch without `replaying` would have made.
   */
  finishReplay?(db: Kysely<object>, tables: TableNames<Logical>): Promise<void>;
  /**
   * `data` fields this projector never reads, left out of its batches (ReadAllOptions.withoutFields). Absent: the GPS
   * track, which only a read model that draws maps needs (that one says `[]`).
   */
  readonly withoutFields?: readonly string[];
  /**
   * Applied in the transaction of every append that carries one of its `eventTypes` (inline-projections.ts), not by
   * a worker: for the read models a write's own answer reads.
   */
  readonly inline?: boolean;
}

/**
 * A projector as one of the engine's processors, writing to `tables`: the live copy (under its own name), or a
 * rebuild's copy beside it (`replaying`, under a scratch name: nobody reads its rows yet, so nothing is announced).
 */
export function projectorProcessor(
  projector: Projector,
  copy: Pick<Processor, 'name' | 'failure' | 'onError'> & { tables: TableNames; replaying: boolean },
  passPoisoned: (report: PoisonReport, tx: Transaction<object>) => Promise<void>,
  onApplied?: (events: readonly RecordedEvent[]) => void,
): Processor {
  const { name, failure, onError, tables, replaying } = copy;
  return {
    name,
    version: projector.version,
    eventTypes: projector.eventTypes,
    withoutFields: fieldsLeftOut(projector),
    failure,
    handle: async (events, { tx, announce }) => {
      await projector.apply(events, { tx, tables, announce: replaying ? () => {} : announce, replaying });
      onApplied?.(events);
    },
    passPoisoned: (report, tx) => passPoisoned({ ...report, projection: projector.name }, tx),
    ...(onError && { onError }),
  };
}

export function fieldsLeftOut(projector: Pick<Projector, 'withoutFields'>): readonly string[] {
  return projector.withoutFields ?? GPS_TRACK_FIELDS;
}

/** The logical table names as physical names for the live copy. */
export function liveTableNames<Logical extends string>(projector: Projector<Logical>): TableNames<Logical> {
  return Object.fromEntries(projector.tables.map((t) => [t, t])) as unknown as TableNames<Logical>;
}
