import type { Kysely, Transaction } from 'kysely';
import { GPS_TRACK_FIELDS } from '../../domain/run/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';

/**
 * Physical table names for one copy of a read model. The live copy uses the logical names; a rebuild writes a fresh
 * copy under generation-suffixed names beside it and swaps them in. Projectors must always go through this map.
 */
export type TableNames<Logical extends string = string> = Readonly<Record<Logical, string>>;

/** The lists a client caches and refreshes when told they changed (the realtime topics of §7). */
export const changeTopics = [
  'goals',
  'runs',
  'streak',
  'badges',
  'xp',
  'feed',
  'reactions',
  'groups',
  'notifications',
  'stakes',
  'surge',
  'profile',
] as const;

export type ChangeTopic = (typeof changeTopics)[number];

/** What a projector gets for one batch: the transaction that will also store its checkpoint, and its tables. */
export interface ProjectionContext<Logical extends string = string> {
  readonly tx: Transaction<object>;
  readonly tables: TableNames<Logical>;
  /**
   * Tells a user's open clients that one of their lists changed. Delivered only after this batch commits (it rides
   * on the batch's transaction as a NOTIFY), so a client that refetches sees the change. No-op during rebuilds.
   */
  announce(userId: string, topic: ChangeTopic): void;
  /**
   * True while a rebuild replays the log into a fresh copy nobody reads yet: work whose result only the copy's final
   * state needs may be left to `finishReplay`, which runs once the replay has reached the end of the log.
   */
  readonly replaying?: boolean;
}

/**
 * Turns events into read-model rows. A projector owns its tables; `apply` runs in the same transaction as the
 * checkpoint, so each batch is applied exactly once. It must be deterministic: a rebuild from position 0 has to
 * produce the same rows as the live copy did.
 */
export interface Projector<Logical extends string = string> {
  /** Unique, stable name (kebab-case); also the checkpoint's key. */
  readonly name: string;
  /** Bump when the projector's output changes: a version mismatch at start-up triggers a rebuild. */
  readonly version: number;
  /** Logical table names this projector owns. */
  readonly tables: readonly Logical[];
  /** Creates the tables (and their indexes, named after the physical table) under the given physical names. */
  createTables(db: Kysely<object> | Transaction<object>, tables: TableNames<Logical>): Promise<void>;
  /** Applies a batch of events, in log order. Events it does not care about are ignored. */
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
}

/** The fields left out of what `projector` reads from the log. */
export function fieldsLeftOut(projector: Pick<Projector, 'withoutFields'>): readonly string[] {
  return projector.withoutFields ?? GPS_TRACK_FIELDS;
}

/** The logical table names as physical names for the live copy. */
export function liveTableNames<Logical extends string>(projector: Projector<Logical>): TableNames<Logical> {
  return Object.fromEntries(projector.tables.map((t) => [t, t])) as unknown as TableNames<Logical>;
}

/** Physical names of the rebuild copy for a generation. */
export function rebuildTableNames<Logical extends string>(
  projector: Projector<Logical>,
  generation: number,
): TableNames<Logical> {
  return Object.fromEntries(projector.tables.map((t) => [t, `${t}__g${generation}`])) as unknown as TableNames<Logical>;
}
