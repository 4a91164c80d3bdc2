import type { ImportSource } from './events.ts';

/**
 * The run id of an imported activity, derived from the service and its activity id. Import deduplication is done
 * by the store, not by an index: the handler uses stream `run-<this id>`, so the same activity always lands on the
 * same stream, and an ImportRun on an existing (or deleted) run is a no-op. One activity therefore counts once,
 * even if two users linked the same service account, and a run the user deleted is not brought back by a re-sync.
 */
export function importedRunId(source: ImportSource, importId: string): string {
  return `${source}-${importId}`;
}
