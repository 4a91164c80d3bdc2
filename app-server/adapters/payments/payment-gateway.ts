/*
 * The payments port: what the stake process manager and the payment routes need from a card processor, and nothing
 * more. Two adapters implement it: Stripe (stripe/) and a local gateway with the same semantics kept in the
 * database (local/) for development, demo mode and tests.
 *
 * Conventions every implementation keeps:
 * - Amounts are integer cents (USD).
 * - Instants are ISO-8601 UTC strings, so results can be stored and replayed as JSON unchanged.
 * - Every call that changes state at the processor takes a caller-supplied `idempotencyKey`: the same key with the
 *   same parameters replays the first answer (even a failure); the same key with other parameters fails with
 *   `idempotency_mismatch`. Keys may be forgotten after 24 hours: after that, re-fetch the PaymentIntent first.
 * - Business outcomes (a decline, an expired hold) are results, not exceptions. Exceptions are PaymentGatewayError
 *   (payment-errors.ts) with a `code` that says whether retrying with the same key is safe.
 */

/** Free-form labels stored on a PaymentIntent (Stripe allows 50 keys, values up to 500 characters). */
export type PaymentMetadata = Readonly<Record<string, string>>;

/** A saved card, as the card list shows it. */
export type SavedCard = {
  readonly id: string;
  /** Lower-case network name as Stripe spells it: visa, mastercard, amex, discover… */
  readonly brand: string;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
};

/** Where the card form goes next: the browser confirms the SetupIntent with this secret. */
export type SetupIntentCreated = { readonly setupIntentId: string; readonly clientSecret: string };

export type EnsureCustomerInput = { readonly userId: string; readonly email: string };

export type PlaceHoldInput = {
  readonly customerId: string;
  readonly paymentMethodId: string;
  readonly amountCents: number;
  readonly idempotencyKey: string;
  readonly metadata: PaymentMetadata;
  /**
   * True when the runner is in the app while the hold is placed (a customer-initiated authorization: 7 days on every
   * network, and the card may ask for 3-D Secure). Default false: a merchant-initiated, off-session hold, which Visa
   * keeps for only about 4 days 18 hours.
   */
  readonly customerPresent?: boolean;
};

/** The answer to placeHold. `captureBefore` is the processor's deadline for capturing the hold. */
export type HoldResult =
  | {
      readonly status: 'held';
      readonly paymentIntentId: string;
      readonly amountCents: number;
      readonly captureBefore: string;
    }
  | {
      readonly status: 'declined';
      readonly paymentIntentId: string | null;
      /** The issuer's reason (`insufficient_funds`, `generic_decline`…) or the error code when none was given. */
      readonly declineCode: string;
      readonly message: string;
    }
  | AuthenticationRequired;

/** The card issuer wants the runner to authenticate (3-D Secure): only the runner, in the app, can continue. */
export type AuthenticationRequired = {
  readonly status: 'authentication_required';
  readonly paymentIntentId: string;
  /** Lets the web app run the authentication with the card form (Stripe.js `handleNextAction`). */
  readonly clientSecret: string | null;
};

export type CaptureHoldInput = {
  readonly paymentIntentId: string;
  /** At most the held amount; the rest of the hold is released by the capture. */
  readonly amountCents: number;
  readonly idempotencyKey: string;
};

/**
 * The answer to captureHold. `expired`: the hold lapsed (`charge_expired_for_capture`) or the PaymentIntent was
 * canceled, so nothing was taken and a missed goal must be charged off-session instead.
 */
export type CaptureResult =
  | { readonly status: 'captured'; readonly paymentIntentId: string; readonly amountCapturedCents: number }
  | { readonly status: 'already_captured'; readonly paymentIntentId: string; readonly amountCapturedCents: number }
  | { readonly status: 'expired'; readonly paymentIntentId: string };

export type ReleaseHoldInput = { readonly paymentIntentId: string; readonly idempotencyKey: string };

/** The answer to releaseHold: a hold already canceled (released or lapsed) counts as released. */
export type ReleaseResult =
  | { readonly status: 'released'; readonly paymentIntentId: string }
  | { readonly status: 'already_captured'; readonly paymentIntentId: string; readonly amountCapturedCents: number };

export type ChargeOffSessionInput = {
  readonly customerId: string;
  readonly paymentMethodId: string;
  readonly amountCents: number;
  readonly idempotencyKey: string;
  readonly metadata: PaymentMetadata;
};

/** The answer to chargeOffSession (an immediate, automatically captured payment on the saved card). */
export type ChargeResult =
  | { readonly status: 'succeeded'; readonly paymentIntentId: string; readonly amountCents: number }
  | {
      readonly status: 'declined';
      readonly paymentIntentId: string | null;
      readonly declineCode: string;
      readonly message: string;
    }
  | AuthenticationRequired;

export type RefundInput = {
  readonly paymentIntentId: string;
  /** At most what was taken and not yet refunded. */
  readonly amountCents: number;
  readonly idempotencyKey: string;
  readonly metadata: PaymentMetadata;
};

/**
 * The answer to refundPayment. `refunded`: the processor accepted the refund (Stripe's `succeeded` or `pending`: card
 * refunds settle in days, and the processor owns them from here); `failed`: it refused (Stripe's `failed`/`canceled`).
 */
export type RefundResult =
  | { readonly status: 'refunded'; readonly refundId: string; readonly amountCents: number }
  | { readonly status: 'failed'; readonly refundId: string | null; readonly reason: string };

/** Stripe's PaymentIntent statuses. */
export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

/** A PaymentIntent as it stands at the processor now (the source of truth after 24 hours or on a webhook). */
export type PaymentIntentSnapshot = {
  readonly id: string;
  readonly status: PaymentIntentStatus;
  readonly amountCents: number;
  /** What a capture may still take (0 unless status is requires_capture). */
  readonly amountCapturableCents: number;
  readonly amountCapturedCents: number;
  /** The hold's deadline, when the PaymentIntent is or was a manual-capture hold with a charge. */
  readonly captureBefore: string | null;
  readonly customerId: string | null;
  readonly metadata: PaymentMetadata;
};

/** A verified webhook event, reduced to what a handler needs to re-fetch the object and deduplicate by `id`. */
export type PaymentWebhookEvent = {
  readonly id: string;
  /** Stripe's event type, e.g. `payment_intent.succeeded`, `payment_intent.canceled`. */
  readonly type: string;
  readonly paymentIntentId: string | null;
  readonly createdAt: string;
};

/** The payments port. */
export interface PaymentGateway {
  /** Which adapter this is (logs, health checks). */
  readonly kind: 'stripe' | 'local';
  /**
   * How many calls the stake worker makes at once. Stripe's rate limits bound the Stripe adapter (100 operations a
   * second in live mode, 25 in a sandbox, 25 a second per endpoint: docs.stripe.com/rate-limits; a 429 is the
   * provider's trouble, retried with the same key); the local gateway shares its statements between calls made side by
   * side, so more at once means fewer statements, not more load.
   */
  readonly callsAtOnce: number;
  /** The processor's customer for a user, created on first use; the same user always gets the same customer. */
  ensureCustomer(input: EnsureCustomerInput): Promise<{ readonly customerId: string }>;
  /** Starts saving a card for later off-session use (SetupIntent, usage off_session). */
  createSetupIntent(input: {
    readonly customerId: string;
    readonly idempotencyKey?: string;
  }): Promise<SetupIntentCreated>;
  /** The customer's saved cards. */
  listPaymentMethods(input: { readonly customerId: string }): Promise<readonly SavedCard[]>;
  /** Removes a saved card; fails with `not_owned` when the card is not this customer's. */
  detachPaymentMethod(input: { readonly customerId: string; readonly paymentMethodId: string }): Promise<void>;
  /** Authorizes `amountCents` on the saved card without taking it (manual capture). */
  placeHold(input: PlaceHoldInput): Promise<HoldResult>;
  /** Takes up to the held amount. */
  captureHold(input: CaptureHoldInput): Promise<CaptureResult>;
  /** Cancels the hold so the runner's bank frees the money. */
  releaseHold(input: ReleaseHoldInput): Promise<ReleaseResult>;
  /** Charges the saved card now, without the runner (a missed goal whose hold lapsed). */
  chargeOffSession(input: ChargeOffSessionInput): Promise<ChargeResult>;
  /** Gives back money that was taken (a captured hold or a charge) to the card it came from. */
  refundPayment(input: RefundInput): Promise<RefundResult>;
  /** The PaymentIntent as the processor has it now. */
  retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntentSnapshot>;
  /** Verifies a webhook's signature over the raw body; throws WebhookSignatureError when it does not match. */
  parseWebhook(rawBody: string | Uint8Array, signatureHeader: string | null | undefined): PaymentWebhookEvent;
}
