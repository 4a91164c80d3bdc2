import { formatWalPosition, parseWalPosition, type WalPosition } from '../../../domain/shared/wal-position.ts';

/*
 * Read-your-writes when the API reads from a streaming replica (READ_DATABASE_URL): each write's answer names the
 * primary's position after it (x-read-position); the app sends the latest one back on its reads (x-read-after), and
 * the API serves such a read from the replica only once the replica is there, else from the primary
 * (app-server/http/middleware/read-routing.ts). Without a replica the API sends no position and this sends nothing.
 * Kept in memory: a reload starts a new page whose reads a replica a few milliseconds behind serves correctly.
 */
let latest: WalPosition | null = null;

/** Notes the position a write's answer names (the highest seen wins: answers may arrive out of order). */
export function rememberReadPosition(response: Pick<Response, 'headers'>): void {
  const text = response.headers.get('x-read-position');
  const position = text === null ? null : parseWalPosition(text);
  if (position !== null && (latest === null || position > latest)) latest = position;
}

/** The header a read sends so it sees this app's own writes; empty before the first write. */
export function readPositionHeaders(): Record<string, string> {
  return latest === null ? {} : { 'x-read-after': formatWalPosition(latest) };
}

/** Forgets the position (tests; a session ending). */
export function forgetReadPosition(): void {
  latest = null;
}
