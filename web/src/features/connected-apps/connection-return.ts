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

/**
 * The message for `/connected-apps?success=<provider>` or `?error=<code>`, or null for a plain visit. A success
 * names the service and the 30-day backfill it started (§9); an unknown error reads 'An error occurred'.
 */
export function connectionReturn(query: URLSearchParams): ConnectionReturn | null {
  const error = query.get('error');
  if (error !== null) {
    return {
      tone: 'error',
      message: Object.hasOwn(ERROR_MESSAGES, error) ? ERROR_MESSAGES[error]! : 'An error occurred',
    };
  }
  const success = query.get('success');
  if (success === null) return null;
  const name = Object.hasOwn(SERVICE_NAMES, success) ? SERVICE_NAMES[success]! : 'Your account';
  return { tone: 'success', message: `${name} connected! Importing your runs from the last 30 days.` };
}
