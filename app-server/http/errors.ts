import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DomainError } from '../../domain/shared/decider.ts';

/** An error with the HTTP status and the user-facing message to answer with (`{ "error": message }`). */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly body: Record<string, unknown> | undefined;

  constructor(status: ContentfulStatusCode, message: string, body?: Record<string, unknown>) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }
}

const statusByKind: Record<DomainError['kind'], ContentfulStatusCode> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
};

/** Turns a domain refusal into the HTTP error that reports it. */
export function httpErrorFromDomain(error: DomainError): HttpError {
  return new HttpError(statusByKind[error.kind], error.message, { code: error.code });
}
