import { randomToken, type SecretBox } from '../auth/secrets.ts';
import type { IntegrationProvider } from './connection-events.ts';

/** How long a consent round trip may take. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

interface StatePayload {
  readonly u: string;
  readonly p: IntegrationProvider;
  readonly e: number;
  readonly n: string;
}

/**
 * The OAuth `state`: the user id, provider and an expiry, sealed with AES-GCM (authenticated encryption), so it
 * cannot be forged, altered or read, and binds the callback (which carries no bearer token) to the user who started.
 */
export function createOAuthState(box: SecretBox, userId: string, provider: IntegrationProvider, now: Date): string {
  const payload: StatePayload = { u: userId, p: provider, e: now.getTime() + OAUTH_STATE_TTL_MS, n: randomToken(9) };
  return box.seal(JSON.stringify(payload));
}

/** The user id the state was issued to, or null when it is forged, for another provider or expired. */
export function readOAuthState(
  box: SecretBox,
  state: string | undefined,
  provider: IntegrationProvider,
  now: Date,
): string | null {
  if (!state || state.length > 1000) return null;
  try {
    const payload = JSON.parse(box.open(state)) as Partial<StatePayload>;
    if (payload.p !== provider || typeof payload.u !== 'string' || typeof payload.e !== 'number') return null;
    return payload.e > now.getTime() ? payload.u : null;
  } catch {
    return null;
  }
}
