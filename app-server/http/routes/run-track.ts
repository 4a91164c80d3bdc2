import type { Transaction } from 'kysely';
import type { RunRecorded } from '../../../domain/run/events.ts';
import type { GpsPosition } from '../../../domain/run/geo.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';

/**
 * A run's GPS fixes, read from its stream: the recording event holds the whole track (a tracked run's uploads are
 * joined into it at the finish), encrypted under the owner's key and opened by the store. No read model copies it:
 * copying every track into a table would put the fixes in plain text beside the encrypted log and cost each run
 * its track's bytes twice more (read by a projector, written to a table). Empty for a run synced without a track and
 * once the owner's personal data was erased (the fields read as null). Call after checking the run is the user's.
 */
export async function readRunTrack(store: EventStore<Transaction<object>>, runId: string): Promise<GpsPosition[]> {
  const [first] = await store.readStream(streams.run(runId), { maxCount: 1 });
  if (first?.type !== 'RunRecorded') return [];
  const { positions } = first.data as RunRecorded['data'];
  return Array.isArray(positions) ? [...positions] : [];
}
