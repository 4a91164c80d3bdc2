import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/database.ts';
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
  RefundInput,
  RefundResult,
  ReleaseHoldInput,
  ReleaseResult,
  SavedCard,
  SetupIntentCreated,
} from '../payment-gateway.ts';
import { normaliseWebhookEvent } from '../webhook-event.ts';
import { GroupedStatements } from '../../../db/grouped-statements.ts';
import { type CardRequest, claimAndWriteMany, type PaymentClaim, readUsableCards } from './claimed-payment.ts';
import { hashRequest, type LocalDb, type LocalTx, runIdempotent } from './idempotency.ts';
import { type HoldMove, type HoldMoveAnswer, moveHolds } from './moved-payment.ts';
import {
  eventRow,
  expireIfLapsed,
  loadPaymentIntent,
  newId,
  type PaymentIntentRow,
  recordEvent,
  savePaymentIntent,
  toSnapshot,
} from './payment-intent-rows.ts';
import { type PaymentInput, type PaymentPlan, planCharge, planHold, type ResolvedCard } from './payment-plan.ts';
import type { CardBehaviour, LocalPaymentTables } from './tables.ts';
import { authenticateSetup, confirmSetup, findSetupIntentBySecret, type LocalSetupIntent } from './setup-intents.ts';
import { findTestCard } from './test-cards.ts';
import { signWebhook, verifyWebhook } from './webhook-signature.ts';

export type LocalGatewayOptions = {
  readonly db: Db;
  readonly clock: Clock;
  /** Secret that signs the local gateway's webhook events (any string; `whsec_…` by convention). */
  readonly webhookSecret: string;
  readonly webhookToleranceSeconds?: number;
  /**
   * False sends every hold and charge through runIdempotent's transaction (nine statements) instead of the two of
   * claimed-payment.ts, and every capture and release through it (seven) instead of moved-payment.ts's two: the
   * reference the twin tests compare the short way with. Default true.
   */
  readonly paymentsInTwoStatements?: boolean;
  /** How many lapsed holds one step of the sweep lets go (default 1,000; tests use small chunks). */
  readonly sweepChunk?: number;
};

/** A webhook event ready to POST to our own endpoint: the raw body and its signature, signed at delivery time. */
export type LocalWebhookDelivery = {
  readonly sequence: number;
  readonly eventId: string;
  readonly type: string;
  readonly body: string;
  readonly signatureHeader: string;
};

/** How many lapsed holds one step of the sweep lets go. */
const SWEEP_CHUNK = 1000;

const deadlineOf = (row: PaymentIntentRow): number => row.capture_before?.getTime() ?? 0;

/**
 * The payments port without a processor, for development, demo mode and tests. State lives in the database
 * (migrations.ts) and follows Stripe's rules: manual-capture holds that lapse at `capture_before` (7 days, or
 * 4 days 18 hours for an off-session Visa hold; see hold-windows.ts), Stripe's test cards (test-cards.ts),
 * idempotency keys that replay the first answer and refuse other parameters, and signed webhook events recorded for
 * delivery (in order, or duplicated and shuffled by a test).
 */
export class LocalPaymentGateway implements PaymentGateway {
  readonly kind = 'local' as const;
  /** A page of actions in few statements: its calls are grouped (GroupedStatements), the more at once the fewer. */
  readonly callsAtOnce = 64;
  readonly #db: LocalDb;
  readonly #clock: Clock;
  readonly #webhookSecret: string;
  readonly #tolerance: number;
  readonly #twoStatements: boolean;
  readonly #sweepChunk: number;
  /** Holds and charges made side by side (a stake tick's lanes) share their two statements (claimed-payment.ts). */
  readonly #cardReads: GroupedStatements<CardRequest, ResolvedCard | null>;
  readonly #claims: GroupedStatements<PaymentClaim, ClaimOutcome>;
  /** Captures and releases made side by side share one transaction of two statements (moved-payment.ts). */
  readonly #moves: GroupedStatements<HoldMove, HoldMoveAnswer | null>;

  constructor(options: LocalGatewayOptions) {
    this.#db = options.db.withTables<LocalPaymentTables>() as unknown as LocalDb;
    this.#clock = options.clock;
    this.#webhookSecret = options.webhookSecret;
    this.#tolerance = options.webhookToleranceSeconds ?? 300;
    this.#twoStatements = options.paymentsInTwoStatements ?? true;
    this.#sweepChunk = options.sweepChunk ?? SWEEP_CHUNK;
    this.#cardReads = new GroupedStatements((inputs) => readUsableCards(this.#db, inputs));
    this.#claims = new GroupedStatements((claims) => claimEach(this.#db, claims));
    this.#moves = new GroupedStatements((moves) => moveEach(this.#db, moves));
  }

  async ensureCustomer({ userId, email }: EnsureCustomerInput): Promise<{ customerId: string }> {
    // The unique user_id is the idempotency: a second call, even a concurrent one, finds the first customer.
    await this.#db
      .insertInto('payments_local_customers')
      .values({ id: newId('cus'), user_id: userId, email, created_at: this.#clock.now() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const row = await this.#db
      .selectFrom('payments_local_customers')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { customerId: row.id };
  }

  async createSetupIntent(input: { customerId: string; idempotencyKey?: string }): Promise<SetupIntentCreated> {
    const create = async (tx: LocalTx): Promise<SetupIntentCreated> => {
      await requireCustomer(tx, input.customerId);
      const id = newId('seti');
      const clientSecret = `${id}_secret_${newId('s').slice(2)}`;
      await tx
        .insertInto('payments_local_setup_intents')
        .values({
          id,
          customer_id: input.customerId,
          client_secret: clientSecret,
          status: 'requires_payment_method',
          payment_method_id: null,
          created_at: this.#clock.now(),
        })
        .execute();
      return { setupIntentId: id, clientSecret };
    };
    if (!input.idempotencyKey) return this.#db.transaction().execute(create);
    const request = { operation: 'createSetupIntent', customerId: input.customerId };
    return runIdempotent(this.#db, input.idempotencyKey, request, this.#clock.now(), create);
  }

  async listPaymentMethods({ customerId }: { customerId: string }): Promise<SavedCard[]> {
    const rows = await this.#db
      .selectFrom('payments_local_payment_methods')
      .selectAll()
      .where('customer_id', '=', customerId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: r.id, brand: r.brand, last4: r.last4, expMonth: r.exp_month, expYear: r.exp_year }));
  }

  async detachPaymentMethod({
    customerId,
    paymentMethodId,
  }: {
    customerId: string;
    paymentMethodId: string;
  }): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      const pm = await tx
        .selectFrom('payments_local_payment_methods')
        .select('customer_id')
        .where('id', '=', paymentMethodId)
        .forUpdate()
        .executeTakeFirst();
      if (!pm) throw new PaymentGatewayError('not_found', `No such PaymentMethod: '${paymentMethodId}'`);
      if (pm.customer_id !== customerId) {
        throw new PaymentGatewayError('not_owned', 'This card is not saved for this customer.');
      }
      await tx
        .updateTable('payments_local_payment_methods')
        .set({ customer_id: null })
        .where('id', '=', paymentMethodId)
        .execute();
    });
  }

  async placeHold(input: PlaceHoldInput): Promise<HoldResult> {
    assertChargeAmount(input.amountCents);
    assertIdempotencyKey(input.idempotencyKey);
    const customerPresent = input.customerPresent ?? false;
    const request = { operation: 'placeHold', ...paymentRequest(input), customerPresent };
    return this.#createPaymentIntent(input, request, (card, now) => planHold(input, card, customerPresent, now));
  }

  async captureHold(input: CaptureHoldInput): Promise<CaptureResult> {
    assertChargeAmount(input.amountCents, 1);
    assertIdempotencyKey(input.idempotencyKey);
    const request = {
      operation: 'captureHold',
      paymentIntentId: input.paymentIntentId,
      amountCents: input.amountCents,
    };
    const now = this.#clock.now();
    if (this.#twoStatements) {
      const { paymentIntentId, amountCents, idempotencyKey: key } = input;
      const requestHash = hashRequest(request);
      const moved = await this.#moves.ask({ kind: 'capture', key, requestHash, now, paymentIntentId, amountCents });
      if (moved?.status === 'captured') return moved;
    }
    return runIdempotent(this.#db, input.idempotencyKey, request, now, async (tx): Promise<CaptureResult> => {
      const pi = await expireIfLapsed(tx, await loadPaymentIntent(tx, input.paymentIntentId), now);
      switch (pi.status) {
        case 'canceled':
          return { status: 'expired', paymentIntentId: pi.id };
        case 'succeeded':
          return { status: 'already_captured', paymentIntentId: pi.id, amountCapturedCents: pi.amount_received };
        case 'requires_capture':
          break;
        default:
          throw new PaymentGatewayError('invalid_request', `This PaymentIntent's status is ${pi.status}.`, {
            providerCode: 'payment_intent_unexpected_state',
          });
      }
      if (input.amountCents > pi.amount_capturable) {
        throw new PaymentGatewayError(
          'invalid_request',
          `amount_to_capture ${input.amountCents} is more than the ${pi.amount_capturable} held.`,
        );
      }
      // Capturing part of a hold releases the rest, as at Stripe.
      const captured: PaymentIntentRow = {
        ...pi,
        status: 'succeeded',
        amount_received: input.amountCents,
        amount_capturable: 0,
        updated_at: now,
      };
      await savePaymentIntent(tx, captured);
      await recordEvent(tx, 'payment_intent.succeeded', captured, now);
      return { status: 'captured', paymentIntentId: pi.id, amountCapturedCents: input.amountCents };
    });
  }

  async releaseHold(input: ReleaseHoldInput): Promise<ReleaseResult> {
    assertIdempotencyKey(input.idempotencyKey);
    const request = { operation: 'releaseHold', paymentIntentId: input.paymentIntentId };
    const now = this.#clock.now();
    if (this.#twoStatements) {
      const { paymentIntentId, idempotencyKey: key } = input;
      const requestHash = hashRequest(request);
      const moved = await this.#moves.ask({ kind: 'release', key, requestHash, now, paymentIntentId });
      if (moved?.status === 'released') return moved;
    }
    return runIdempotent(this.#db, input.idempotencyKey, request, now, async (tx): Promise<ReleaseResult> => {
      const pi = await expireIfLapsed(tx, await loadPaymentIntent(tx, input.paymentIntentId), now);
      if (pi.status === 'canceled') return { status: 'released', paymentIntentId: pi.id };
      if (pi.status === 'succeeded') {
        return { status: 'already_captured', paymentIntentId: pi.id, amountCapturedCents: pi.amount_received };
      }
      const canceled: PaymentIntentRow = {
        ...pi,
        status: 'canceled',
        amount_capturable: 0,
        cancellation_reason: 'requested_by_customer',
        updated_at: now,
      };
      await savePaymentIntent(tx, canceled);
      await recordEvent(tx, 'payment_intent.canceled', canceled, now);
      return { status: 'released', paymentIntentId: pi.id };
    });
  }

  async refundPayment(input: RefundInput): Promise<RefundResult> {
    assertChargeAmount(input.amountCents, 1);
    assertIdempotencyKey(input.idempotencyKey);
    const request = {
      operation: 'refundPayment',
      paymentIntentId: input.paymentIntentId,
      amountCents: input.amountCents,
    };
    const now = this.#clock.now();
    return runIdempotent(this.#db, input.idempotencyKey, request, now, async (tx): Promise<RefundResult> => {
      const pi = await loadPaymentIntent(tx, input.paymentIntentId);
      if (pi.status !== 'succeeded') {
        throw new PaymentGatewayError(
          'invalid_request',
          `This PaymentIntent's status is ${pi.status}: nothing to refund.`,
        );
      }
      const earlier = await tx
        .selectFrom('payments_local_refunds')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
        .where('payment_intent_id', '=', pi.id)
        .executeTakeFirstOrThrow();
      if (Number(earlier.total) + input.amountCents > pi.amount_received) {
        // Stripe's answer to refunding more than was taken.
        throw new PaymentGatewayError('invalid_request', 'The refund is more than is left of the charge.', {
          providerCode: 'charge_already_refunded',
        });
      }
      const id = newId('re');
      await tx
        .insertInto('payments_local_refunds')
        .values({
          id,
          payment_intent_id: pi.id,
          amount: input.amountCents,
          metadata: JSON.stringify(input.metadata),
          created_at: now,
        })
        .execute();
      return { status: 'refunded', refundId: id, amountCents: input.amountCents };
    });
  }

  async chargeOffSession(input: ChargeOffSessionInput): Promise<ChargeResult> {
    assertChargeAmount(input.amountCents);
    assertIdempotencyKey(input.idempotencyKey);
    const request = { operation: 'chargeOffSession', ...paymentRequest(input) };
    return this.#createPaymentIntent(input, request, (card, now) => planCharge(input, card, now));
  }

  async retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntentSnapshot> {
    const now = this.#clock.now();
    return this.#db
      .transaction()
      .execute(async (tx) => toSnapshot(await expireIfLapsed(tx, await loadPaymentIntent(tx, paymentIntentId), now)));
  }

  parseWebhook(rawBody: string | Uint8Array, signatureHeader: string | null | undefined): PaymentWebhookEvent {
    const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    if (!signatureHeader) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
    verifyWebhook(body, signatureHeader, this.#webhookSecret, this.#clock.now(), this.#tolerance);
    return normaliseWebhookEvent(JSON.parse(body));
  }

  // ---- Development and test controls (not part of the port) ----

  /**
   * What Stripe.js's `confirmCardSetup` does in the browser: confirms the SetupIntent with a test card (token or
   * number). The card is saved (succeeded), refused (`lastSetupError`), or waits for authentication (requires_action).
   */
  confirmSetupIntent(input: { setupIntentId: string; card: string }): Promise<LocalSetupIntent> {
    return confirmSetup(this.#db, this.#clock.now(), input);
  }

  /** The cardholder approves or fails the issuer's authentication of a SetupIntent in requires_action. */
  authenticateSetupIntent(input: { setupIntentId: string; approve: boolean }): Promise<LocalSetupIntent> {
    return authenticateSetup(this.#db, this.#clock.now(), input);
  }

  /** The SetupIntent of a client secret (what the browser holds), or null. */
  findSetupIntent(clientSecret: string): Promise<LocalSetupIntent | null> {
    return findSetupIntentBySecret(this.#db, clientSecret);
  }

  /** Changes how a saved card answers from now on (the runner's bank blocked it, or it ran out of funds). */
  async setCardBehaviour(paymentMethodId: string, behaviour: CardBehaviour): Promise<void> {
    await this.#db
      .updateTable('payments_local_payment_methods')
      .set({ behaviour })
      .where('id', '=', paymentMethodId)
      .execute();
  }

  /**
   * Lets every hold past its deadline lapse now (each sends `payment_intent.canceled`, dated at its deadline); returns
   * how many this sweep let lapse. A thousand holds at a time, in four statements: one UPDATE cancels them (rechecking
   * each row's status under its lock, as expireIfLapsed does, so a hold that a concurrent call let lapse or captured
   * is left alone) and one INSERT records their events, in the order of their deadlines.
   */
  async sweepExpiredHolds(): Promise<number> {
    const now = this.#clock.now();
    let swept = 0;
    for (;;) {
      const lapsed = await this.#db.transaction().execute(async (tx) => {
        const rows = await tx
          .updateTable('payments_local_payment_intents')
          .set((eb) => ({
            status: 'canceled',
            amount_capturable: 0,
            cancellation_reason: 'automatic',
            updated_at: eb.ref('capture_before') as never,
          }))
          .where('status', '=', 'requires_capture')
          .where('capture_before', '<=', now)
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('payments_local_payment_intents')
              .select('id')
              .where('status', '=', 'requires_capture')
              .where('capture_before', '<=', now)
              .orderBy('capture_before')
              .orderBy('id')
              .limit(this.#sweepChunk),
          )
          .returningAll()
          .execute();
        rows.sort((a, b) => deadlineOf(a) - deadlineOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        if (rows.length > 0) {
          await tx
            .insertInto('payments_local_events')
            .values(rows.map((row) => eventRow('payment_intent.canceled', row, row.capture_before ?? now)))
            .execute();
        }
        return rows.length;
      });
      swept += lapsed;
      if (lapsed < this.#sweepChunk) return swept;
    }
  }

  /** Recorded webhook events after `afterSequence`, in order, each signed now (as a delivery attempt would be). */
  async webhookDeliveries(afterSequence = 0): Promise<LocalWebhookDelivery[]> {
    const rows = await this.#db
      .selectFrom('payments_local_events')
      .selectAll()
      .where('sequence', '>', afterSequence)
      .orderBy('sequence')
      .execute();
    const now = this.#clock.now();
    return rows.map((r) => ({
      sequence: r.sequence,
      eventId: r.id,
      type: r.type,
      body: r.body,
      signatureHeader: signWebhook(r.body, this.#webhookSecret, now),
    }));
  }

  // A hold or a charge: a new PaymentIntent, created and confirmed the way the card behaves (payment-plan.ts). The usual
  // case (a new key, a usable card) takes two statements (claimed-payment.ts); any other goes through runIdempotent,
  // which replays a known key's first answer, or stores the refusal, exactly as before.
  async #createPaymentIntent<A>(
    input: PaymentInput & { readonly idempotencyKey: string },
    request: { operation: string } & Record<string, unknown>,
    planFor: (card: ResolvedCard, now: Date) => PaymentPlan<A>,
  ): Promise<A> {
    const now = this.#clock.now();
    const card = this.#twoStatements ? await this.#cardReads.ask(input) : null;
    if (card !== null) {
      const plan = planFor(card, now);
      const outcome = await this.#claims.ask({
        key: input.idempotencyKey,
        requestHash: hashRequest(request),
        now,
        plan,
      });
      if ('error' in outcome) throw outcome.error;
      if (outcome.claimed) return plan.answer;
    }
    return runIdempotent(this.#db, input.idempotencyKey, request, now, async (tx) => {
      const plan = planFor(await resolveCard(tx, input.customerId, input.paymentMethodId), now);
      await tx
        .insertInto('payments_local_payment_intents')
        .values({ ...plan.row, metadata: JSON.stringify(plan.row.metadata) })
        .execute();
      await tx
        .insertInto('payments_local_events')
        .values(plan.events.map((e) => eventRow(e.type, e.row, now)))
        .execute();
      return plan.answer;
    });
  }
}

type ClaimOutcome = { readonly claimed: boolean } | { readonly error: unknown };

/**
 * A group of claims in one statement; if it fails, each claim alone, so one call's failure is that call's alone. A key
 * asked for twice at once goes alone too: one statement claims a key once (claimAndWriteMany).
 */
async function claimEach(db: LocalDb, claims: readonly PaymentClaim[]): Promise<ClaimOutcome[]> {
  const unique = new Set(claims.map((c) => c.key)).size === claims.length;
  if (unique) {
    try {
      return (await claimAndWriteMany(db, claims)).map((claimed) => ({ claimed }));
    } catch (error) {
      if (claims.length === 1) return [{ error }];
    }
  }
  const outcomes: ClaimOutcome[] = [];
  for (const claim of claims) {
    try {
      outcomes.push({ claimed: (await claimAndWriteMany(db, [claim]))[0]! });
    } catch (error) {
      outcomes.push({ error });
    }
  }
  return outcomes;
}

/**
 * A group of captures and releases in one transaction (moveHolds). A key or a PaymentIntent named twice at once goes
 * the long way after its first (one transaction moves a hold once); a group that fails sends all of it the long way,
 * where each call fails or succeeds on its own.
 */
async function moveEach(db: LocalDb, moves: readonly HoldMove[]): Promise<(HoldMoveAnswer | null)[]> {
  const keys = new Set<string>();
  const intents = new Set<string>();
  const firsts: number[] = [];
  for (const [n, move] of moves.entries()) {
    if (keys.has(move.key) || intents.has(move.paymentIntentId)) continue;
    keys.add(move.key);
    intents.add(move.paymentIntentId);
    firsts.push(n);
  }
  const answers: (HoldMoveAnswer | null)[] = moves.map(() => null);
  try {
    const moved = await moveHolds(
      db,
      firsts.map((n) => moves[n]!),
    );
    for (const [i, n] of firsts.entries()) answers[n] = moved[i]!;
  } catch {
    // Nothing of the group was written (one transaction): each call goes the long way and answers for itself.
  }
  return answers;
}

function paymentRequest(input: PaymentInput): Record<string, unknown> {
  return {
    customerId: input.customerId,
    paymentMethodId: input.paymentMethodId,
    amountCents: input.amountCents,
    metadata: input.metadata,
  };
}

async function requireCustomer(tx: LocalTx, customerId: string): Promise<void> {
  const found = await tx
    .selectFrom('payments_local_customers')
    .select('id')
    .where('id', '=', customerId)
    .executeTakeFirst();
  if (!found) throw new PaymentGatewayError('not_found', `No such customer: '${customerId}'`);
}

// A saved card must be this customer's; a Stripe test token (pm_card_visa…) may be used directly, as at Stripe.
async function resolveCard(tx: LocalTx, customerId: string, paymentMethodId: string): Promise<ResolvedCard> {
  await requireCustomer(tx, customerId);
  const saved = await tx
    .selectFrom('payments_local_payment_methods')
    .select(['customer_id', 'brand', 'behaviour'])
    .where('id', '=', paymentMethodId)
    .executeTakeFirst();
  if (saved) {
    if (saved.customer_id !== customerId) {
      throw new PaymentGatewayError('invalid_request', 'The PaymentMethod is not attached to this customer.');
    }
    return saved;
  }
  const token = paymentMethodId.startsWith('pm_card_') ? findTestCard(paymentMethodId) : null;
  if (!token) throw new PaymentGatewayError('not_found', `No such PaymentMethod: '${paymentMethodId}'`);
  return token;
}
