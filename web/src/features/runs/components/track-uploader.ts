import type { GpsPositionJson } from '../../../lib/api-types.ts';

/** The most fixes one upload carries (the server's limit per request). */
export const MAX_FIXES_PER_UPLOAD = 1000;

/** How often the tracker sends its new fixes while running (ms): the server counts a fix live within 5 min. */
export const UPLOAD_EVERY_MS = 15_000;

/** What sending a batch came to: sent, the network failed (try again later), or the session is gone (stop). */
export type UploadResult = 'sent' | 'failed' | 'gone';

/**
 * Sends the fixes not yet acknowledged (from `uploaded` on), in batches, and returns how many are acknowledged now.
 * A failed batch stops the round and keeps its fixes for the next one (an offline phone uploads them when it is
 * back: they then count for XP, not toward a stake, if they arrive over 5 minutes late); `gone` means the server
 * closed the session (finished elsewhere), so there is nothing left to send to.
 */
export async function uploadPending(
  session: { readonly positions: readonly GpsPositionJson[]; readonly uploaded: number },
  send: (batch: readonly GpsPositionJson[]) => Promise<UploadResult>,
): Promise<{ uploaded: number; gone: boolean }> {
  let uploaded = session.uploaded;
  while (uploaded < session.positions.length) {
    const batch = session.positions.slice(uploaded, uploaded + MAX_FIXES_PER_UPLOAD);
    const result = await send(batch);
    if (result === 'gone') return { uploaded, gone: true };
    if (result === 'failed') return { uploaded, gone: false };
    uploaded += batch.length;
  }
  return { uploaded, gone: false };
}
