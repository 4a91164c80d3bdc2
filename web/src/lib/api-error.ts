/** The messages of §8 for requests that fail without a message of their own. */
export const REQUEST_FAILED = 'Request failed';
export const NON_JSON_RESPONSE = 'Server returned non-JSON response. Please check if the API is running correctly.';

/** A failed API call: the server's `error` text, the HTTP status (0 when the network failed) and its `code` if any. */
export class ApiError extends Error {
  readonly status: number;
  /** The machine-readable reason the server gave (`card_declined`…), or null. */
  readonly code: string | null;

  constructor(message: string, status: number, code: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** The message to show for any thrown value, with a screen's own fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
