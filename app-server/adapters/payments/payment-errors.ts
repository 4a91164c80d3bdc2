/**
 * Why a payment call failed (a business outcome such as a decline is a result, never one of these).
 * - `network`: no answer arrived, or it was lost; the processor may or may not have acted. Retrying with the same
 *   idempotency key is safe and tells which.
 * - `rate_limited`, `idempotency_in_use`: refused before anything ran; retry later with the same key.
 * - `provider_error`: the processor failed while running the request. That answer is replayed for the same key, so
 *   re-fetch the PaymentIntent before deciding what to do.
 * - `idempotency_mismatch`: the key was already used with other parameters (a bug in the caller).
 * - `not_found`, `not_owned`, `invalid_request`: the request can never succeed as written.
 * - `configuration`: bad or missing credentials.
 */
export type PaymentErrorCode =
  | 'network'
  | 'rate_limited'
  | 'idempotency_in_use'
  | 'provider_error'
  | 'idempotency_mismatch'
  | 'not_found'
  | 'not_owned'
  | 'invalid_request'
  | 'configuration';

const RETRYABLE: ReadonlySet<PaymentErrorCode> = new Set(['network', 'rate_limited', 'idempotency_in_use']);

/** A failed payment call, with no processor SDK object attached (callers never depend on the SDK). */
export class PaymentGatewayError extends Error {
  readonly code: PaymentErrorCode;
  /** True when the same call with the same idempotency key may simply be made again. */
  readonly retryable: boolean;
  /** The processor's own error code, for logs (e.g. `resource_missing`). */
  readonly providerCode: string | null;
  /** The processor's request id, for support tickets. */
  readonly requestId: string | null;

  constructor(
    code: PaymentErrorCode,
    message: string,
    details: { providerCode?: string | null | undefined; requestId?: string | null | undefined } = {},
  ) {
    super(message);
    this.name = 'PaymentGatewayError';
    this.code = code;
    this.retryable = RETRYABLE.has(code);
    this.providerCode = details.providerCode ?? null;
    this.requestId = details.requestId ?? null;
  }
}

/** A webhook whose signature is missing, malformed, wrong or too old: answer 400 and do not act on it. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** True for a PaymentGatewayError with one of the given codes. */
export function isPaymentError(error: unknown, ...codes: PaymentErrorCode[]): error is PaymentGatewayError {
  return error instanceof PaymentGatewayError && (codes.length === 0 || codes.includes(error.code));
}
