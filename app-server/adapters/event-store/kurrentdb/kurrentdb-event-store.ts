import {
  BACKWARDS,
  END,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import type { Transaction } from 'kysely';
import {
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type Upcaster,
  WrongExpectedVersionError,
} from '../../../../domain/shared/event-store.ts';
import { createUpcast, type UpcastFn } from '../upcasting.ts';
import { KurrentWake } from './kurrent-wake.ts';
import { toKurrentPosition, toLogPosition, toRecordedEvent, toStreamState } from './map-kurrent.ts';

export interface KurrentDbEventStoreOptions {
  /** e.g. `kurrentdb://localhost:2113?tls=false`. */
  readonly connectionString: string;
  readonly upcasters?: readonly Upcaster[];
}

/**
 * The event-store port on KurrentDB. Events live in KurrentDB; the engine's checkpoints and its processors'
 * transactions live in PostgreSQL, so a batch's read-model writes and its checkpoint still commit together.
 * Appends cannot join a PostgreSQL transaction (they are rejected when one is passed).
 */
export function createKurrentDbEventStore(options: KurrentDbEventStoreOptions): EventStore<Transaction<object>> {
  const client = KurrentDBClient.connectionString(options.connectionString);
  const upcast = createUpcast(options.upcasters);
  const wake = new KurrentWake(client);
  const readAll = (after: LogPosition | null, maxCount: number | undefined, eventTypes?: readonly string[]) =>
    readAllAfter(client, after, maxCount, upcast, eventTypes);
  // No horizon here: what KurrentDB has committed it can read, so the committed head is the visible one.
  const headPosition = async () => {
    for await (const resolved of client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: excludeSystemEvents(),
    })) {
      if (resolved.event) return toLogPosition(resolved.event.position);
    }
    return null;
  };

  const store: EventStore<Transaction<object>> = {
    async appendToStreams(appends, appendOptions = {}) {
      if (appendOptions.transaction) throw new Error('KurrentDB appends cannot join a PostgreSQL transaction');
      // Stream by stream, NOT atomic: the client's multiStreamAppend (protocol v2) takes only string-valued
      // metadata, and ours carries numbers and nulls. Each stream still checks its own expected version, and a
      // repeat answers with the original result, so a caller that decides each stream on its own (settlement)
      // is safe; one that needs several streams to change together must not run on this adapter.
      const results = [];
      for (const a of appends) {
        const result = await store.appendToStream(a.streamId, a.events, {
          expectedVersion: a.expectedVersion ?? 'any',
        });
        results.push({ streamId: a.streamId, ...result });
      }
      return results;
    },
    async readStreams(streamIds, readOptions = {}) {
      const entries = await Promise.all(
        streamIds.map(async (id) => {
          const fromRevision = readOptions.fromRevisions?.get(id);
          return [id, await store.readStream(id, fromRevision === undefined ? {} : { fromRevision })] as const;
        }),
      );
      return new Map(entries);
    },
    async appendToStream(streamId, events, appendOptions = {}) {
      if (appendOptions.transaction) throw new Error('KurrentDB appends cannot join a PostgreSQL transaction');
      const expected = appendOptions.expectedVersion ?? 'any';
      const data = events.map((e) =>
        jsonEvent({ id: e.metadata.eventId, type: e.type, data: e.data as never, metadata: e.metadata as never }),
      );
      try {
        const result = await client.appendToStream(streamId, data, { streamState: toStreamState(expected) });
        const position = toLogPosition(result.position);
        return {
          nextExpectedRevision: Number(result.nextExpectedRevision),
          position,
          globalPosition: position.prepare,
        };
      } catch (error) {
        if (error instanceof KurrentWrongExpectedVersionError) {
          const actual = error.actualState === 'no_stream' ? -1 : Number(error.actualState);
          throw new WrongExpectedVersionError(streamId, expected, actual);
        }
        throw error;
      }
    },
    async readStream(streamId, readOptions = {}) {
      const backwards = readOptions.direction === 'backwards';
      const from = readOptions.fromRevision;
      const events: RecordedEvent[] = [];
      try {
        for await (const resolved of client.readStream(streamId, {
          direction: backwards ? BACKWARDS : FORWARDS,
          fromRevision: from === undefined ? (backwards ? END : START) : BigInt(from),
          ...(readOptions.maxCount !== undefined && { maxCount: readOptions.maxCount }),
        })) {
          const event = toRecordedEvent(resolved, upcast);
          if (event) events.push(event);
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      return events;
    },
    readAll: async (readOptions = {}) =>
      withoutFields(
        await readAll(readOptions.after ?? null, readOptions.maxCount, readOptions.eventTypes),
        readOptions.withoutFields,
      ),
    // $all only ever grows at its end, in the order it is read: a head read first is never past what the read after
    // it returns.
    async readAllToHead(readOptions = {}) {
      const head = await headPosition();
      const events = await readAll(readOptions.after ?? null, readOptions.maxCount, readOptions.eventTypes);
      return { events: withoutFields(events, readOptions.withoutFields), head };
    },
    headPosition,
    onAppended: (listener) => wake.add(listener),
    async close() {
      await wake.stop();
      await client.dispose();
    },
  };
  return store;
}

/**
 * $all after a position (exclusive: KurrentDB's fromPosition is inclusive), without system events; only `eventTypes`
 * when given (matched here, so `maxCount` counts the events returned, as on PostgreSQL).
 */
async function readAllAfter(
  client: KurrentDBClient,
  after: LogPosition | null,
  maxCount: number | undefined,
  upcast: UpcastFn | null,
  eventTypes?: readonly string[],
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  const limit = maxCount ?? Number.POSITIVE_INFINITY;
  const types = eventTypes ? new Set(eventTypes) : null;
  for await (const resolved of client.readAll({
    fromPosition: after ? toKurrentPosition(after) : START,
    filter: excludeSystemEvents(),
    ...(maxCount !== undefined && !types && { maxCount: maxCount + 1 }),
  })) {
    const event = toRecordedEvent(resolved, upcast);
    if (!event || (types && !types.has(event.type))) continue;
    if (after && event.position.commit === after.commit && event.position.prepare === after.prepare) continue;
    events.push(event);
    if (events.length >= limit) break;
  }
  return events;
}

/** KurrentDB cannot leave fields out of a read: they are dropped here, so readers see the same events as on PostgreSQL. */
function withoutFields(events: RecordedEvent[], fields: readonly string[] | undefined): RecordedEvent[] {
  if (!fields?.length) return events;
  return events.map((event) => {
    const data = { ...(event.data as Record<string, unknown>) };
    for (const field of fields) delete data[field];
    return { ...event, data };
  });
}
