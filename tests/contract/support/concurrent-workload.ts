import type { Kysely } from 'kysely';
import type { EventStore, NewEvent, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { newEvent } from './contract-events.ts';
import { seededRandom } from './seeded-random.ts';

export interface WorkloadOptions {
  readonly seed: number;
  readonly prefix: string;
  readonly writers: number;
  readonly events: number;
  readonly streams: number;
  /** When set, some appends run inside a caller's transaction held open a little after the append. */
  readonly transaction?: (work: (tx: Kysely<object>) => Promise<void>) => Promise<void>;
}

/**
 * Writers append a seeded mix of single and multi-event appends to many streams (expectedVersion 'any', so
 * every append commits). Some hold their transaction open after appending, so transactions commit out of
 * sequence order: the situation in which a naive reader skips events. Returns every appended event id.
 */
export async function runConcurrentWriters(store: EventStore, options: WorkloadOptions): Promise<Set<string>> {
  const appended = new Set<string>();
  let remaining = options.events;
  await Promise.all(
    Array.from({ length: options.writers }, async (_, writer) => {
      const random = seededRandom(options.seed * 1000 + writer);
      while (remaining > 0) {
        const size = Math.min(remaining, random.next() < 0.4 ? 1 : 2 + random.int(9));
        remaining -= size;
        const streamId = `${options.prefix}-${random.int(options.streams)}`;
        const events: NewEvent[] = Array.from({ length: size }, () => newEvent('Worked', { writer }));
        const lingerMs = random.next() < 0.2 ? random.int(4) : -1;
        if (options.transaction && lingerMs >= 0) {
          await options.transaction(async (tx) => {
            await store.appendToStream(streamId, events, { transaction: tx });
            await new Promise((resolve) => setTimeout(resolve, lingerMs));
          });
        } else {
          await store.appendToStream(streamId, events);
        }
        for (const event of events) appended.add(event.metadata.eventId);
      }
    }),
  );
  return appended;
}

/** Records what a subscriber received for streams with a prefix: per-event counts and per-stream revisions. */
export class DeliveryLog {
  readonly counts = new Map<string, number>();
  readonly revisions = new Map<string, number[]>();
  readonly #prefix: string;

  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  record(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (!event.streamId.startsWith(this.#prefix)) continue;
      this.counts.set(event.metadata.eventId, (this.counts.get(event.metadata.eventId) ?? 0) + 1);
      const revisions = this.revisions.get(event.streamId) ?? [];
      revisions.push(event.streamRevision);
      this.revisions.set(event.streamId, revisions);
    }
  }

  /** Ids never delivered, ids delivered more than once, and streams whose revisions were not 0, 1, 2 … */
  check(appended: ReadonlySet<string>): { missing: number; duplicated: number; unordered: string[] } {
    let missing = 0;
    for (const id of appended) if (!this.counts.has(id)) missing++;
    const duplicated = [...this.counts.values()].filter((n) => n > 1).length;
    const unordered = [...this.revisions].filter(([, revs]) => revs.some((r, i) => r !== i)).map(([id]) => id);
    return { missing, duplicated, unordered };
  }
}
