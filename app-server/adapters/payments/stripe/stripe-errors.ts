import { PaymentGatewayError } from '../payment-errors.ts';

/** The fields of a Stripe SDK error this adapter reads (the SDK's classes differ between its CJS and ESM builds). */
export type StripeErrorLike = {
  readonly type: string;
  readonly message: string;
  readonly statusCode?: number | undefined;
  readonly code?: string | undefined;
  readonly decline_code?: string | undefined;
  readonly requestId?: string | undefined;
  readonly payment_intent?: { readonly id: string; readonly status: string; readonly client_secret?: string | null };
};

/** True for an error thrown by the Stripe SDK. */
export function isStripeError(error: unknown): error is StripeErrorLike {
  if (!(error instanceof Error)) return false;
  const type: unknown = (error as unknown as { type?: unknown }).type;
  return typeof type === 'string' && type.startsWith('Stripe');
}

/**
 * Translates any failure of a Stripe call into a PaymentGatewayError, keeping only codes and ids: the SDK error (and
 * the request it carries) never reaches callers or logs through us.
 */
export function toPaymentError(error: unknown): PaymentGatewayError {
  if (error instanceof PaymentGatewayError) return error;
  if (!isStripeError(error)) {
    return new PaymentGatewayError('provider_error', 'The payment processor call failed unexpectedly.');
  }
  const details = { providerCode: error.code ?? null, requestId: error.requestId ?? null };
  // 409: another request with this key is still running (the SDK raises it as a plain API error); nothing was done.
  if (error.statusCode === 409) {
    return new PaymentGatewayError(
      'idempotency_in_use',
      'A request with this idempotency key is in progress.',
      details,
    );
  }
  switch (error.type) {
    case 'StripeConnectionError':
      return new PaymentGatewayError('network', 'No answer from the payment processor.', details);
    case 'StripeRateLimitError':
      return new PaymentGatewayError('rate_limited', 'The payment processor asked us to slow down.', details);
    case 'StripeIdempotencyError':
      // 409: another request with this key is still running; 400: the key was used with other parameters.
      return error.statusCode === 409 || error.code === 'idempotency_key_in_use'
        ? new PaymentGatewayError('idempotency_in_use', 'A request with this idempotency key is in progress.', details)
        : new PaymentGatewayError(
            'idempotency_mismatch',
            'The idempotency key was used with other parameters.',
            details,
          );
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new PaymentGatewayError('configuration', 'The payment processor refused our credentials.', details);
    case 'StripeInvalidRequestError':
      if (error.statusCode === 404 || error.code === 'resource_missing') {
        return new PaymentGatewayError('not_found', 'No such payment object.', details);
      }
      return new PaymentGatewayError(
        'invalid_request',
        `The payment processor refused the request: ${error.message}`,
        details,
      );
    case 'StripeCardError':
      return new PaymentGatewayError('invalid_request', `The card was refused: ${error.message}`, details);
    default:
      return new PaymentGatewayError(
        'provider_error',
        'The payment processor failed to complete the request.',
        details,
      );
  }
}
