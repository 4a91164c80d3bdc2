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
import type { Kysely, Transaction } from 'kysely';
import {
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type Upcaster,
  WrongExpectedVersionError,
} from '../../../../domain/shared/event-store.ts';
import type { Database } from '../../../db/database.ts';
import { type SubscriptionContext, startSubscription } from '../checkpointed-subscription.ts';
import { startGroupedSubscription } from '../grouped-subscription.ts';
import { OpenSubscriptions } from '../open-subscriptions.ts';
import { createUpcast, type UpcastFn } from '../upcasting.ts';
import { KurrentWake } from './kurrent-wake.ts';
import { toKurrentPosition, toLogPosition, toRecordedEvent, toStreamState } from './map-kurrent.ts';

export interface KurrentDbEventStoreOptions {
  /** e.g. `kurrentdb://localhost:2113?tls=false`. */
  readonly connectionString: string;
  /** PostgreSQL (or PGlite) holding es_checkpoints and the read models that subscription handlers write. */
  readonly checkpoints: Database;
  readonly upcasters?: readonly Upcaster[];
  /** Longest a caught-up subscriber sleeps without a wake-up; default 5 s. */
  readonly wakeTimeoutMs?: number;
}

/**
 * The event-store port on KurrentDB. Events live in KurrentDB; subscription checkpoints and the handler's
 * transaction live in PostgreSQL, so a batch's read-model writes and its checkpoint still commit together.
 * Appends cannot join a PostgreSQL transaction (they are rejected when one is passed).
 */
export function createKurrentDbEventStore(options: KurrentDbEventStoreOptions): EventStore<Transaction<object>> {
  const client = KurrentDBClient.connectionString(options.connectionString);
  const upcast = createUpcast(options.upcasters);
  const wake = new KurrentWake(client);
  const { db } = options.checkpoints;
  const subscriptions = new OpenSubscriptions();
  const readAll = (after: LogPosition | null, maxCount: number | undefined) =>
    readAllAfter(client, after, maxCount, upcast);
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

  const subscriptionContext: SubscriptionContext = {
    db,
    readBatch: async (_tx: Kysely<object>, after: LogPosition, maxCount: number, fields?: readonly string[]) =>
      withoutFields(await readAll(after, maxCount), fields),
    headPosition,
    // KurrentDB makes an event readable in $all when it commits: nothing is ever hidden.
    hasHiddenEvents: async () => false,
    onWake: (listener) => wake.add(listener),
    wakeTimeoutMs: options.wakeTimeoutMs ?? 5000,
  };

  return {
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
      withoutFields(await readAll(readOptions.after ?? null, readOptions.maxCount), readOptions.withoutFields),
    headPosition,
    subscribeToAll: (subscribeOptions) => subscriptions.track(startSubscription(subscriptionContext, subscribeOptions)),
    subscribeTogether: (subscribers) => subscriptions.track(startGroupedSubscription(subscriptionContext, subscribers)),
    onAppended: (listener) => wake.add(listener),
    async close() {
      await subscriptions.stopAll();
      await wake.stop();
      await client.dispose();
    },
  };
}

/** $all after a position (exclusive: KurrentDB's fromPosition is inclusive), without system events. */
async function readAllAfter(
  client: KurrentDBClient,
  after: LogPosition | null,
  maxCount: number | undefined,
  upcast: UpcastFn | null,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  const limit = maxCount ?? Number.POSITIVE_INFINITY;
  for await (const resolved of client.readAll({
    fromPosition: after ? toKurrentPosition(after) : START,
    filter: excludeSystemEvents(),
    ...(maxCount !== undefined && { maxCount: maxCount + 1 }),
  })) {
    const event = toRecordedEvent(resolved, upcast);
    if (!event) continue;
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
