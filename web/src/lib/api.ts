import { accessToken } from './auth-client.ts';
import { API_URL } from './config.ts';
import { ApiError, NON_JSON_RESPONSE, REQUEST_FAILED } from './api-error.ts';
import { demoRequest } from './demo/demo-api.ts';
import { isDemoMode } from './demo-mode.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  readonly method?: HttpMethod;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/**
 * Calls the product API (§7): JSON, with the bearer token when signed in. A non-ok answer throws its `error` text
 * ('Request failed' when it has none); a success that is not JSON throws the §8 non-JSON message. In demo mode the
 * same paths are answered from sample data in the browser, so features never check the mode.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  if (isDemoMode()) return demoRequest<T>(method, path, options.body);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = await accessToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${API_URL}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
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
    const message = isJson && parsed && typeof parsed === 'object' && 'error' in parsed ? parsed.error : null;
    throw new ApiError(typeof message === 'string' && message ? message : REQUEST_FAILED, response.status);
  }
  if (!isJson) throw new ApiError(NON_JSON_RESPONSE, response.status);
  return parsed as T;
}
