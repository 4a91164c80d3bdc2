import {
  getPostgreSQLEventStore,
  type PostgresEventStore,
  postgreSQLEventStoreConsumer,
} from '@event-driven-io/emmett-postgresql';
import { benchEvent, secondsSince, throughput } from './bench-events.ts';

/** The anchor: Emmett 0.42's PostgreSQL event store, used the way its docs show. */
export function openEmmett(connectionString: string): PostgresEventStore {
  return getPostgreSQLEventStore(connectionString);
}

function emmettEvents(streamId: string, count: number) {
  return Array.from({ length: count }, (_, k) => {
    const e = benchEvent(streamId, k);
    return { type: e.type, data: e.data as Record<string, unknown>, metadata: { ...e.metadata } };
  });
}

// Measurements repeat in rounds: each run gets its own stream names.
let run = 0;

/** Events per second appended in `size`-event appends by `writers` concurrent writers (fresh stream each). */
export function emmettAppends(
  store: PostgresEventStore,
  writers: number,
  size: number,
  durationMs: number,
): Promise<number> {
  const round = ++run;
  return throughput(writers, durationMs, async (writer, i) => {
    const streamId = `emmett-${round}-${writers}-${size}-${writer}-${i}`;
    await store.appendToStream(streamId, emmettEvents(streamId, size));
    return size;
  });
}

/** Runs Emmett's own consumer (a reactor from the beginning); resolves with a stop function and the seen ids. */
function startEmmettReader(connectionString: string, stopWhenCaughtUp: boolean, batchSize: number) {
  const seen = new Map<string, number>();
  const consumer = postgreSQLEventStoreConsumer({
    connectionString,
    pulling: { batchSize },
    ...(stopWhenCaughtUp ? { stopWhen: { noMessagesLeft: true } } : {}),
  });
  consumer.reactor({
    processorId: `reader-${Date.now()}`,
    startFrom: 'BEGINNING',
    eachMessage: async (message) => {
      const id = String((message.data as { runId?: unknown }).runId);
      seen.set(id, (seen.get(id) ?? 0) + 1);
    },
  });
  const running = consumer.start();
  return { consumer, running, seen };
}

/** Events per second for Emmett's consumer to read its whole log from the beginning. */
export async function emmettRebuild(connectionString: string, batchSize: number, maxSeconds: number): Promise<number> {
  const started = performance.now();
  const reader = startEmmettReader(connectionString, true, batchSize);
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, maxSeconds * 1000));
  await Promise.race([reader.running, deadline]);
  const seconds = secondsSince(started);
  const count = [...reader.seen.values()].reduce((a, b) => a + b, 0);
  await reader.consumer.close();
  return count / seconds;
}

/** Emmett's consumer follows from the beginning while `writers` append; counts appended events it never saw. */
export async function emmettLostUnderLoad(
  store: PostgresEventStore,
  connectionString: string,
  writers: number,
  durationMs: number,
): Promise<{ appended: number; lost: number; duplicated: number }> {
  const appended = new Set<string>();
  const reader = startEmmettReader(connectionString, false, 100);
  await throughput(writers, durationMs, async (writer, i) => {
    const streamId = `emmett-lost-${writer}-${i % 20}`;
    const events = emmettEvents(streamId, i % 3 === 0 ? 5 : 1);
    await store.appendToStream(streamId, events);
    for (const e of events) appended.add(String(e.data.runId));
    return events.length;
  });
  // Let it drain: stop once it has seen every appended event or made no progress for two seconds.
  let last = -1;
  while (reader.seen.size !== last && [...appended].some((id) => !reader.seen.has(id))) {
    last = reader.seen.size;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  await reader.consumer.close();
  let lost = 0;
  for (const id of appended) if (!reader.seen.has(id)) lost++;
  const duplicated = [...appended].filter((id) => (reader.seen.get(id) ?? 0) > 1).length;
  return { appended: appended.size, lost, duplicated };
}
