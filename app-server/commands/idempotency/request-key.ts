import { createHash } from 'node:crypto';
import { stableJson } from '../../../domain/shared/stable-json.ts';

/**
 * A creating request's `Idempotency-Key` (client-chosen, e.g. a UUID per user action), scoped to the signed-in user,
 * with what the request was: its route (method and concrete path) and the fingerprint of its JSON body. What the key
 * does is keyed-request.ts's.
 */
export interface RequestKey {
  readonly userId: string;
  readonly key: string;
  /** `POST /runs`, `POST /feed/<id>/reactions`: the concrete path, so a key is for one target. */
  readonly route: string;
  /** sha256 of the body as stable JSON (key order does not matter). */
  readonly fingerprint: string;
}

/** The key of a request, with the fingerprint of its parsed JSON body. */
export function requestKey(input: { userId: string; key: string; route: string; body: unknown }): RequestKey {
  const fingerprint = createHash('sha256')
    .update(stableJson(input.body ?? null))
    .digest('hex');
  return { userId: input.userId, key: input.key, route: input.route, fingerprint };
}
