import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope } from '../../../lib/api-types.ts';

/** A connected service (§3 External account), as GET /api/integrations answers it: no tokens, ever. */
export interface Connection {
  readonly id: string;
  readonly provider: string;
  readonly last_sync_at: string | null;
  readonly created_at: string;
  /** The 30-day backfill after connecting is still importing (§4). */
  readonly backfill_pending: boolean;
}

/** GET /api/integrations: the user's connected services. */
export const getConnections = async (): Promise<Connection[]> =>
  (await api<DataEnvelope<Connection[]>>('/api/integrations')).data;

/** While a backfill imports, the list is re-read every few seconds so the screen shows when it is done. */
const BACKFILL_POLL_MS = 3_000;

/**
 * A connection that has never completed a sync is importing its first 30 days (§4): the backfill is queued by the
 * sync worker moments after the connection, so `backfill_pending` alone would read "done" in between.
 */
export const isImporting = (c: Connection): boolean => c.backfill_pending || c.last_sync_at === null;

export const connectionsQueryOptions = () =>
  queryOptions({
    queryKey: ['connections'],
    queryFn: getConnections,
    refetchInterval: (query) => (query.state.data?.some(isImporting) ? BACKFILL_POLL_MS : false),
  });

export const useConnections = () => useQuery(connectionsQueryOptions());
