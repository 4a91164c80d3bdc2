import { ApiError, NON_JSON_RESPONSE, REQUEST_FAILED } from './api-error.ts';
import { type Access, currentAccess, renewAfterUnauthorized } from './auth-client.ts';
import { API_URL } from './config.ts';
import { isDemoMode } from './demo-mode.ts';
import { takeFirstResponse } from './first-requests.ts';
import { newIdempotencyKey, sendWithRetries } from './idempotent-send.ts';
import { readPositionHeaders, rememberReadPosition } from './read-position.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  readonly method?: HttpMethod;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** A POST's Idempotency-Key; a fresh one per call when absent (the offline queue passes the one it stored). */
  readonly idempotencyKey?: string;
  /**
   * Sent only with this user's session: another user's (or none) answers 401 without a request. The offline queue
   * sends each kept run as the user who ran it, never under an account that signed in since.
   */
  readonly asUser?: string;
}

/** The 401 of a request made for a user who is not the one signed in (RequestOptions.asUser). */
export const NOT_SIGNED_IN_AS = 'Signed in as another user';
/** The 401 of a request whose session the server no longer has: it was ended on this device too (auth-client.ts). */
export const SESSION_ENDED = 'Your session has ended';

/**
 * Calls the product API (§7): JSON, with the bearer token when signed in. A non-ok answer throws its `error` text
 * ('Request failed' when it has none); a success that is not JSON throws the §8 non-JSON message. In demo mode the
 * same paths are answered from sample data in the browser, so features never check the mode. A POST carries an
 * Idempotency-Key and is retried with it after a network failure or a 502/503/504 (see idempotent-send.ts).
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  // The sample data is loaded only by those who open the demo (most visitors never do).
  if (isDemoMode()) return (await import('./demo/demo-api.ts')).demoRequest<T>(method, path, options.body);
  const response = await signedExchange(path, method, options);
  const text = await response.text();
  return parsedAnswer<T>(response, text);
}

/**
 * A file from the product API (a run as GPX, the account's zip), as a Blob; a non-ok
 * answer throws its `error` sentence as api() does. Not in demo mode: the sample data has no files.
 */
export async function apiFile(path: string): Promise<Blob> {
  const response = await signedExchange(path, 'GET', {});
  if (!response.ok) parsedAnswer(response, await response.text());
  return response.blob();
}

/** One request with the session's token: a 401 renews the token and sends again once, or ends the session. */
async function signedExchange(path: string, method: HttpMethod, options: RequestOptions): Promise<Response> {
  let access = await currentAccess();
  if (options.asUser !== undefined && access?.userId !== options.asUser) throw new ApiError(NOT_SIGNED_IN_AS, 401);
  // A POST is one user action: one key for it, sent again on each retry, so a retry never creates a second thing.
  const key = method === 'POST' ? (options.idempotencyKey ?? newIdempotencyKey()) : null;
  // The page may have sent this very read already, before the app had loaded (lib/first-requests.ts); if that one
  // failed on the way, it is sent again.
  const sentByPage = method === 'GET' && access && !options.signal ? takeFirstResponse(path, access.token) : undefined;
  let response = await exchange(path, method, options, access, key, sentByPage);
  // 401 with a token: it expired, or the session is gone (signed out on another device). The auth client tells
  // which: a renewed token is sent again, once; a session gone is ended here (storage, cache, the sign-in page).
  if (response.status === 401 && access) {
    const renewal = await renewAfterUnauthorized(access.token);
    if (renewal.kind === 'ended') throw new ApiError(SESSION_ENDED, 401, 'session_ended');
    if (renewal.kind === 'renewed') {
      if (options.asUser !== undefined && renewal.access.userId !== options.asUser)
        throw new ApiError(NOT_SIGNED_IN_AS, 401);
      access = renewal.access;
      response = await exchange(path, method, options, access, key, undefined);
    }
  }
  return response;
}

/** An answer's JSON; a non-ok answer throws its `error` text, a success that is not JSON the §8 message. */
function parsedAnswer<T>(response: Response, text: string): T {
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    isJson = false;
  }
  if (!response.ok) {
    const body = isJson && parsed && typeof parsed === 'object' ? (parsed as { error?: unknown; code?: unknown }) : {};
    const message = typeof body.error === 'string' && body.error ? body.error : REQUEST_FAILED;
    throw new ApiError(message, response.status, typeof body.code === 'string' ? body.code : null);
  }
  if (!isJson) throw new ApiError(NON_JSON_RESPONSE, response.status);
  return parsed as T;
}

/** One request (a POST with its retries), answered with the response; a network failure throws 'Request failed'. */
async function exchange(
  path: string,
  method: HttpMethod,
  options: RequestOptions,
  access: Access | null,
  key: string | null,
  sentByPage: Promise<Response> | undefined,
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (access) headers.authorization = `Bearer ${access.token}`;
  // A FormData body (a watch file) sets its own multipart content type, with its boundary.
  const form = options.body instanceof FormData ? options.body : null;
  if (options.body !== undefined && !form) headers['content-type'] = 'application/json';
  if (key !== null) headers['idempotency-key'] = key;
  // A read sees this app's own writes, also when the API reads from a replica (read-position.ts).
  if (method === 'GET') Object.assign(headers, readPositionHeaders());
  const send = () =>
    fetch(`${API_URL}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: form ?? JSON.stringify(options.body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  try {
    const response =
      method === 'POST'
        ? await sendWithRetries(send, options.signal ? { signal: options.signal } : {})
        : await (sentByPage ? sentByPage.catch(send) : send());
    if (method !== 'GET') rememberReadPosition(response);
    return response;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(REQUEST_FAILED, 0);
  }
}
