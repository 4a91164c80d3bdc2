import { deterministicUuid } from '../deterministic-uuid.ts';
import type { RequestKey } from './request-key.ts';

/*
 * Before results were recorded with the key (keyed-request.ts), a keyed request named what it created after its key.
 * A request sent then and still in an offline queue may come back with that key; a KeyedGroup hands its command this
 * id (`idBeforeOutcomes`, ../group-commit.ts GroupWork), and POST /runs finds the run it made by it, read-only.
 * Nothing new is named this way.
 */

/** The id a keyed request gave what it created, before results were recorded (`purpose`: several ids of one). */
export function idBeforeRecordedOutcomes(request: RequestKey, purpose = 'id'): string {
  return deterministicUuid('idempotency-key', request.userId, request.key, purpose);
}
