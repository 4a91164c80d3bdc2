import { handles } from './engine/processor.ts';
import type { Projector } from './engine/projector.ts';
import { allProjectors } from './registry.ts';

/**
 * What a write waits for before it answers (read-your-writes), derived from what it appended rather than listed by
 * hand: a route's list once said ['goals'] for a goal whose stake opened in the same transaction, and the runner's
 * next read had no stake. Every projector declares the event types it handles (engine/processor.ts), so the read
 * models a write reaches follow from the types of its events. Two kinds never hold a write up:
 *
 * - inline projectors (runs, goals): applied in the append's own transaction, committed with the write;
 * - a processor of `'all'` types (log statistics): it counts the log as a whole for operators and no user reads it
 *   back, so it is no read model of any one write.
 *
 * `'unknown'`: the request cannot say what the write appended (it answers a repeat with what an earlier request
 * saved): every read model that could hold the write is waited for.
 */
export function readModelsReachedBy(
  eventTypes: readonly string[] | 'unknown',
  projectors: readonly Projector[] = allProjectors,
): string[] {
  return projectors
    .filter((p) => !p.inline && p.eventTypes !== 'all')
    .filter((p) => eventTypes === 'unknown' || eventTypes.some((type) => handles(p, type)))
    .map((p) => p.name);
}
