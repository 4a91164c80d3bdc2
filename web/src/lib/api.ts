import { accessToken } from './auth-client.ts';
import { API_URL } from './config.ts';
import { ApiError, NON_JSON_RESPONSE, REQUEST_FAILED } from './api-error.ts';
import { isDemoMode } from './demo-mode.ts';
import { takeFirstResponse } from './first-requests.ts';
import { newIdempotencyKey, sendWithRetries } from './idempotent-send.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  readonly method?: HttpMethod;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** A POST's Idempotency-Key; a fresh one per call when absent (the offline queue passes the one it stored). */
  readonly idempotencyKey?: string;
}

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
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = await accessToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  // A POST is one user action: one key for it, sent again on each retry, so a retry never creates a second thing.
  if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? newIdempotencyKey();
  const send = () =>
    fetch(`${API_URL}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  // The page may have sent this very read already, before the app had loaded (lib/first-requests.ts); if that one
  // failed on the way, it is sent again.
  const sentByPage = method === 'GET' && token && !options.signal ? takeFirstResponse(path, token) : undefined;
  let response: Response;
  try {
    response =
      method === 'POST'
        ? await sendWithRetries(send, options.signal ? { signal: options.signal } : {})
        : await (sentByPage ? sentByPage.catch(send) : send());
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(REQUEST_FAILED, 0);
  }
  const text = await response.text();
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
