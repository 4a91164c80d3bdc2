import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { Clock } from '../../../clock.ts';
import { assertChargeAmount, assertIdempotencyKey } from '../amounts.ts';
import { PaymentGatewayError, WebhookSignatureError } from '../payment-errors.ts';
import type {
  CaptureHoldInput,
  CaptureResult,
  ChargeOffSessionInput,
  ChargeResult,
  EnsureCustomerInput,
  HoldResult,
  PaymentGateway,
  PaymentIntentSnapshot,
  PaymentWebhookEvent,
  PlaceHoldInput,
  ReleaseHoldInput,
  ReleaseResult,
  SavedCard,
  SetupIntentCreated,
  RefundInput,
  RefundResult,
} from '../payment-gateway.ts';
import { normaliseWebhookEvent } from '../webhook-event.ts';
import { isStripeError, toPaymentError } from './stripe-errors.ts';
import { cardErrorOutcome, chargeResultOf, holdResultOf, toSnapshot } from './stripe-payment-intent.ts';

/** How the Stripe adapter reaches Stripe (host/port/protocol point it at a stand-in server in tests). */
export type StripeGatewayOptions = {
  readonly secretKey: string;
  /** `whsec_…` of the webhook endpoint; without it parseWebhook fails with `configuration`. */
  readonly webhookSecret?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: number | string | undefined;
  readonly protocol?: 'http' | 'https' | undefined;
  /** Retries of a request that got no answer, made by the SDK with the same idempotency key. Default 2. */
  readonly maxNetworkRetries?: number | undefined;
  readonly timeoutMs?: number | undefined;
  /**
   * Ask for an authorization valid up to 30 days where the network and the account allow it (`if_available`).
   * Default true: it costs nothing where unavailable, and the charge's `capture_before` tells what was granted.
   */
  readonly requestExtendedAuthorization?: boolean | undefined;
  /** The webhook timestamp tolerance is measured against this clock. */
  readonly clock?: Clock | undefined;
  readonly webhookToleranceSeconds?: number | undefined;
};

const CURRENCY = 'usd';
// Metadata key that ties a Stripe customer to our user, so a lost customer id can be found again by e-mail.
const USER_ID_METADATA = 'stridestake_user_id';

/** The payments port over Stripe's API through the official SDK. */
export class StripeGateway implements PaymentGateway {
  readonly kind = 'stripe' as const;
  /** Eight requests in flight, as the stake worker always made them: a few dozen a second at most (see the port). */
  readonly callsAtOnce = 8;
  readonly #stripe: Stripe;
  readonly #webhookSecret: string | undefined;
  readonly #extendedAuthorization: boolean;
  readonly #clock: Clock | undefined;
  readonly #tolerance: number;

  constructor(options: StripeGatewayOptions) {
    if (!options.secretKey) throw new PaymentGatewayError('configuration', 'A Stripe secret key is required.');
    this.#stripe = new Stripe(options.secretKey, {
      ...(options.host ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 30_000,
      telemetry: false,
      appInfo: { name: 'StrideStake' },
    });
    this.#webhookSecret = options.webhookSecret;
    this.#extendedAuthorization = options.requestExtendedAuthorization ?? true;
    this.#clock = options.clock;
    this.#tolerance = options.webhookToleranceSeconds ?? 300;
  }

  async ensureCustomer({ userId, email }: EnsureCustomerInput): Promise<{ customerId: string }> {
    return call(async () => {
      // The idempotency key covers a retry within 24 hours; the metadata lookup covers one after Stripe forgot it.
      const existing = await this.#stripe.customers.list({ email, limit: 100 });
      const mine = existing.data.find((c) => c.metadata?.[USER_ID_METADATA] === userId);
      if (mine) return { customerId: mine.id };
      const created = await this.#stripe.customers.create(
        { email, metadata: { [USER_ID_METADATA]: userId } },
        { idempotencyKey: `customer-${userId}` },
      );
      return { customerId: created.id };
    });
  }

  async createSetupIntent(input: { customerId: string; idempotencyKey?: string }): Promise<SetupIntentCreated> {
    return call(async () => {
      const intent = await this.#stripe.setupIntents.create(
        { customer: input.customerId, usage: 'off_session', allowed_payment_method_types: ['card'] },
        // A fresh card form per request; the key still makes the SDK's own retries safe.
        { idempotencyKey: input.idempotencyKey ?? `setup-${randomUUID()}` },
      );
      if (!intent.client_secret) {
        throw new PaymentGatewayError('provider_error', 'The SetupIntent came back without a client secret.');
      }
      return { setupIntentId: intent.id, clientSecret: intent.client_secret };
    });
  }

  async listPaymentMethods({ customerId }: { customerId: string }): Promise<SavedCard[]> {
    return call(async () => {
      const list = await this.#stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 });
      return list.data.flatMap((pm) =>
        pm.card
          ? [
              {
                id: pm.id,
                brand: pm.card.brand,
                last4: pm.card.last4,
                expMonth: pm.card.exp_month,
                expYear: pm.card.exp_year,
              },
            ]
          : [],
      );
    });
  }

  async detachPaymentMethod({
    customerId,
    paymentMethodId,
  }: {
    customerId: string;
    paymentMethodId: string;
  }): Promise<void> {
    return call(async () => {
      const pm = await this.#stripe.paymentMethods.retrieve(paymentMethodId);
      const owner = typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
      if (owner !== customerId) {
        throw new PaymentGatewayError('not_owned', 'This card is not saved for this customer.');
      }
      await this.#stripe.paymentMethods.detach(paymentMethodId, {}, { idempotencyKey: `detach-${paymentMethodId}` });
    });
  }

  async placeHold(input: PlaceHoldInput): Promise<HoldResult> {
    assertChargeAmount(input.amountCents);
    assertIdempotencyKey(input.idempotencyKey);
    const customerPresent = input.customerPresent ?? false;
    return call(async () => {
      try {
        const pi = await this.#stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: CURRENCY,
            customer: input.customerId,
            payment_method: input.paymentMethodId,
            allowed_payment_method_types: ['card'],
            capture_method: 'manual',
            confirm: true,
            ...(customerPresent ? {} : { off_session: true }),
            ...(this.#extendedAuthorization
              ? { payment_method_options: { card: { request_extended_authorization: 'if_available' } } }
              : {}),
            metadata: { ...input.metadata },
            // capture_before lives on the charge.
            expand: ['latest_charge'],
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return holdResultOf(pi, customerPresent);
      } catch (error) {
        if (isStripeError(error) && error.type === 'StripeCardError') return cardErrorOutcome(error);
        throw error;
      }
    });
  }

  async captureHold(input: CaptureHoldInput): Promise<CaptureResult> {
    assertChargeAmount(input.amountCents, 1);
    assertIdempotencyKey(input.idempotencyKey);
    return call(async () => {
      try {
        const pi = await this.#stripe.paymentIntents.capture(
          input.paymentIntentId,
          { amount_to_capture: input.amountCents },
          { idempotencyKey: input.idempotencyKey },
        );
        return { status: 'captured', paymentIntentId: pi.id, amountCapturedCents: pi.amount_received };
      } catch (error) {
        if (!isStripeError(error)) throw error;
        if (error.code === 'charge_expired_for_capture')
          return { status: 'expired', paymentIntentId: input.paymentIntentId };
        const state = unexpectedState(error);
        if (state?.status === 'canceled') return { status: 'expired', paymentIntentId: input.paymentIntentId };
        if (state?.status === 'succeeded') return alreadyCaptured(input.paymentIntentId, state.amountReceived);
        throw error;
      }
    });
  }

  async releaseHold(input: ReleaseHoldInput): Promise<ReleaseResult> {
    assertIdempotencyKey(input.idempotencyKey);
    return call(async () => {
      try {
        await this.#stripe.paymentIntents.cancel(input.paymentIntentId, {}, { idempotencyKey: input.idempotencyKey });
        return { status: 'released', paymentIntentId: input.paymentIntentId };
      } catch (error) {
        if (!isStripeError(error)) throw error;
        const state = unexpectedState(error);
        // Canceled already (by us, or because the hold lapsed): the money is free, which is what release means.
        if (state?.status === 'canceled') return { status: 'released', paymentIntentId: input.paymentIntentId };
        if (state?.status === 'succeeded') return alreadyCaptured(input.paymentIntentId, state.amountReceived);
        throw error;
      }
    });
  }

  async refundPayment(input: RefundInput): Promise<RefundResult> {
    assertChargeAmount(input.amountCents, 1);
    assertIdempotencyKey(input.idempotencyKey);
    return call(async () => {
      try {
        const refund = await this.#stripe.refunds.create(
          { payment_intent: input.paymentIntentId, amount: input.amountCents, metadata: { ...input.metadata } },
          { idempotencyKey: input.idempotencyKey },
        );
        if (refund.status === 'failed' || refund.status === 'canceled') {
          return { status: 'failed', refundId: refund.id, reason: refund.failure_reason ?? refund.status };
        }
        return { status: 'refunded', refundId: refund.id, amountCents: refund.amount };
      } catch (error) {
        // Refunded already (a retry after Stripe forgot the key): the money is back, which is what was asked.
        if (isStripeError(error) && error.code === 'charge_already_refunded') {
          return { status: 'refunded', refundId: 'already_refunded', amountCents: input.amountCents };
        }
        throw error;
      }
    });
  }

  async chargeOffSession(input: ChargeOffSessionInput): Promise<ChargeResult> {
    assertChargeAmount(input.amountCents);
    assertIdempotencyKey(input.idempotencyKey);
    return call(async () => {
      try {
        const pi = await this.#stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: CURRENCY,
            customer: input.customerId,
            payment_method: input.paymentMethodId,
            allowed_payment_method_types: ['card'],
            capture_method: 'automatic',
            confirm: true,
            off_session: true,
            metadata: { ...input.metadata },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return chargeResultOf(pi);
      } catch (error) {
        if (isStripeError(error) && error.type === 'StripeCardError') return cardErrorOutcome(error);
        throw error;
      }
    });
  }

  async retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntentSnapshot> {
    return call(async () =>
      toSnapshot(await this.#stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] })),
    );
  }

  parseWebhook(rawBody: string | Uint8Array, signatureHeader: string | null | undefined): PaymentWebhookEvent {
    if (!this.#webhookSecret) throw new PaymentGatewayError('configuration', 'STRIPE_WEBHOOK_SECRET is not set.');
    if (!signatureHeader) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = this.#stripe.webhooks.constructEvent(
        rawBody,
        signatureHeader,
        this.#webhookSecret,
        this.#tolerance,
        undefined,
        this.#clock?.now().getTime(),
      );
    } catch (error) {
      throw new WebhookSignatureError(
        isStripeError(error) ? `Webhook signature refused: ${error.message}` : 'The webhook body is not valid JSON.',
      );
    }
    return normaliseWebhookEvent(event);
  }
}

// Every SDK failure leaves through toPaymentError, so no Stripe error object reaches a caller.
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toPaymentError(error);
  }
}

// `payment_intent_unexpected_state` carries the PaymentIntent as it stands: the way to tell "already done" apart.
function unexpectedState(error: {
  code?: string | undefined;
  payment_intent?: { status: string };
}): { status: string; amountReceived: number } | null {
  if (error.code !== 'payment_intent_unexpected_state' || !error.payment_intent) return null;
  const pi = error.payment_intent as { status: string; amount_received?: number };
  return { status: pi.status, amountReceived: pi.amount_received ?? 0 };
}

/** A hold Stripe reports as already captured: capturing again or releasing it must say so, not fail. */
function alreadyCaptured(paymentIntentId: string, amountCapturedCents: number) {
  return { status: 'already_captured' as const, paymentIntentId, amountCapturedCents };
}
