import type { ColumnType, Generated } from 'kysely';

/*
 * Row types of the local gateway's tables (kysely). Timestamps are written and read as Date by both engines; JSON
 * columns are written as strings and read back parsed.
 */
type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null, Date | null>;
type Json<T> = ColumnType<T, string, string>;

/** One processor customer per user. */
export type LocalCustomerRow = { id: string; user_id: string; email: string; created_at: Timestamp };

/** Why the last attempt to save a card failed (Stripe's `last_setup_error`). */
export type LocalSetupError = { code: string; declineCode: string | null; message: string };

/**
 * A card form in progress, with Stripe's SetupIntent statuses: `requires_action` while the card's issuer waits for
 * the cardholder to authenticate (the card number waits in `pending_card`); `succeeded` once the card is saved as
 * `payment_method_id`; back to `requires_payment_method` with `last_setup_error` when the card was refused.
 */
export type LocalSetupIntentRow = {
  id: string;
  customer_id: string;
  client_secret: string;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded';
  payment_method_id: string | null;
  pending_card: string | null;
  last_setup_error: ColumnType<LocalSetupError | null, string | null, string | null>;
  created_at: Timestamp;
};

/** How a test card answers a payment: see test-cards.ts. */
export type CardBehaviour = 'succeeds' | 'generic_decline' | 'insufficient_funds' | 'authentication_required';

/** A saved card; `customer_id` null once detached. */
export type LocalPaymentMethodRow = {
  id: string;
  customer_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: CardBehaviour;
  created_at: Timestamp;
};

/** A PaymentIntent, with the fields Stripe has that the port reads. */
export type LocalPaymentIntentRow = {
  id: string;
  customer_id: string;
  payment_method_id: string;
  amount: number;
  amount_capturable: number;
  amount_received: number;
  capture_method: 'manual' | 'automatic';
  status: 'requires_payment_method' | 'requires_action' | 'requires_capture' | 'canceled' | 'succeeded';
  client_secret: string;
  capture_before: NullableTimestamp;
  last_error_code: string | null;
  cancellation_reason: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** The first answer given for an idempotency key, replayed for the same key and parameters. */
export type LocalIdempotencyRow = {
  key: string;
  request_hash: string;
  /** `{ ok: true, value }` or `{ ok: false, error: { code, message } }`; null while the first call runs. */
  response: Json<unknown> | null;
  created_at: Timestamp;
};

/** A webhook event as it would be delivered: the exact JSON body that is signed on delivery. */
export type LocalEventRow = {
  sequence: Generated<number>;
  id: string;
  type: string;
  payment_intent_id: string | null;
  body: string;
  created_at: Timestamp;
};

/** Money given back from a PaymentIntent that took it (a refund; never more than was taken). */
export type LocalRefundRow = {
  id: string;
  payment_intent_id: string;
  amount: number;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
};

/** Every table of the local gateway, for `db.withTables<LocalPaymentTables>()`. */
export type LocalPaymentTables = {
  payments_local_customers: LocalCustomerRow;
  payments_local_setup_intents: LocalSetupIntentRow;
  payments_local_payment_methods: LocalPaymentMethodRow;
  payments_local_payment_intents: LocalPaymentIntentRow;
  payments_local_idempotency: LocalIdempotencyRow;
  payments_local_events: LocalEventRow;
  payments_local_refunds: LocalRefundRow;
};
