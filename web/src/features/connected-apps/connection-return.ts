/** The services a user can connect, by the name the API uses (§2 Connected apps). */
export const SERVICE_NAMES: Readonly<Record<string, string>> = { strava: 'Strava', garmin: 'Garmin' };

/** What the screen says when the browser comes back from a provider's OAuth page (§4, §8). */
export interface ConnectionReturn {
  readonly tone: 'success' | 'error';
  readonly message: string;
}

/** §8 "Connection return error"; the spec leaves invalid_request and invalid_state to us. */
const ERROR_MESSAGES: Readonly<Record<string, string>> = {
  access_denied: 'Access was denied. Please try again.',
  callback_failed: 'Connection failed. Please try again.',
  invalid_request: 'The connection request was incomplete. Please try again.',
  invalid_state: 'The connection request expired or did not start here. Please connect again.',
};

/** The success message of a connection (§4): the service, and the 30-day backfill it started (§9). */
export function connectedMessage(provider: string): ConnectionReturn {
  const name = Object.hasOwn(SERVICE_NAMES, provider) ? SERVICE_NAMES[provider]! : 'Your account';
  return { tone: 'success', message: `${name} connected! Importing your runs from the last 30 days.` };
}

/** The message for a return error code (the callback's `?error=`, or the completion's refusal `code`). */
export function returnErrorMessage(code: string | null): ConnectionReturn {
  return {
    tone: 'error',
    message: code !== null && Object.hasOwn(ERROR_MESSAGES, code) ? ERROR_MESSAGES[code]! : 'An error occurred',
  };
}

/** What the API's callback hands over in the fragment (`#provider&code&state&scope`), for the app to complete. */
export interface ConnectionHandOver {
  readonly provider: string;
  readonly code: string;
  readonly state: string;
  readonly scope: string;
}

/** The hand-over in a location fragment, or null when there is none. */
export function connectionHandOver(hash: string): ConnectionHandOver | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const provider = params.get('provider');
  const code = params.get('code');
  const state = params.get('state');
  if (!provider || !code || !state) return null;
  return { provider, code, state, scope: params.get('scope') ?? '' };
}

/**
 * The message for `/connected-apps?success=<provider>` or `?error=<code>`, or null for a plain visit. A success
 * names the service and the 30-day backfill it started (§9); an unknown error reads 'An error occurred'.
 */
export function connectionReturn(query: URLSearchParams): ConnectionReturn | null {
  const error = query.get('error');
  if (error !== null) return returnErrorMessage(error);
  const success = query.get('success');
  return success === null ? null : connectedMessage(success);
}
