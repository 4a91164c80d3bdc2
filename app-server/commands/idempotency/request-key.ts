import { createHash } from 'node:crypto';
import { stableJson } from '../../../domain/shared/stable-json.ts';
import { deterministicUuid } from '../deterministic-uuid.ts';

/**
 * A creating request's `Idempotency-Key` (client-chosen, e.g. a UUID per user action), scoped to the signed-in user,
 * with what the request was: its route (method and concrete path) and the fingerprint of its JSON body.
 *
 * The key decides the ids of what the request creates (`keyedId`) and of the events it appends (`keyedEventIds`).
 * A retry — sequential after a lost answer, or a twin racing the first in parallel — therefore decides the same
 * events on the same streams, and the event store's idempotent re-append keeps one copy; the command then answers
 * with what exists. The small `idempotency_keys` table only remembers which route and body first used a key, so the
 * same key with another body answers 422 instead of silently replaying the wrong thing (Stripe's rule).
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

/**
 * The id of the aggregate a keyed request creates (`purpose` tells apart several ids of one request). Depends on the
 * user and the key only: any body with this key maps to the same id, so a different body cannot create a second one.
 */
export function keyedId(request: RequestKey, purpose = 'id'): string {
  return deterministicUuid('idempotency-key', request.userId, request.key, purpose);
}

/** The n-th event id a keyed request appends: the same for an identical retry, different for another body. */
export function keyedEventId(request: RequestKey, n: number): string {
  return deterministicUuid('idempotency-event', request.userId, request.key, request.fingerprint, String(n));
}

/** A generator of `keyedEventId(request, 0), (…, 1), …` for one execution of the request's command. */
export function keyedEventIds(request: RequestKey): () => string {
  let next = 0;
  return () => keyedEventId(request, next++);
}
