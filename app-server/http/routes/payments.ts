import { Hono } from 'hono';
import { sql } from 'kysely';
import { FINAL_STAKE_STATUSES } from '../../../domain/stake/state.ts';
import {
  LOCAL_WEBHOOK_SECRET,
  localSecretTrusted,
  PAYMENTS_NOT_CONFIGURED_MESSAGE,
} from '../../adapters/payments/create-payment-gateway.ts';
import { signedWith } from '../../adapters/payments/local/webhook-signature.ts';
import { isPaymentError, WebhookSignatureError } from '../../adapters/payments/payment-errors.ts';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';
import { requireUser } from '../middleware/require-user.ts';
import { applyPaymentWebhook } from '../../commands/stakes/apply-webhook.ts';
import { ensureCustomerId, findCustomerId, ownsCard } from '../../commands/stakes/payment-customer.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { keyedRequest, pathId, readJson } from '../request.ts';

const CARD_NOT_FOUND = 'Payment method not found';

/** The gateway, or the spec's answer when none is configured (§8 "Card provider key missing"). */
function gatewayOr503(deps: AppDeps): PaymentGateway {
  if (!deps.payments) throw new HttpError(503, PAYMENTS_NOT_CONFIGURED_MESSAGE);
  return deps.payments;
}

/**
 * Saved cards and the provider's webhooks (§7 `/api/payment/*`). A card form starts with a SetupIntent for
 * off-session use on the user's own customer; the webhook is verified on the raw body before anything is parsed.
 */
export function paymentsRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const stripe = !!deps.payments && !!deps.config.STRIPE_SECRET_KEY;
  const gateway = deps.payments ? (stripe ? ('stripe' as const) : ('local' as const)) : null;
  // GET /api/payment/config is public: the card form asks whether to load Stripe.js or offer the local gateway's
  // test cards. The publishable key is meant for browsers; nothing secret is answered.
  const config = { publishableKey: stripe ? (deps.config.STRIPE_PUBLISHABLE_KEY ?? null) : null, gateway };
  // The local gateway's development secret is public: outside development with the local gateway, a signature made
  // with it is refused before anything else (even where some gateway was handed that secret).
  const refuseLocalSecret = !localSecretTrusted(deps.config, deps.payments);
  return new Hono<AppEnv>()
    .get('/api/payment/config', (c) => c.json(config))
    .post('/api/payment/setup-intent', guard, async (c) => {
      const gateway = gatewayOr503(deps);
      const keyed = await keyedRequest(deps, c, await readJson(c));
      const customerId = await ensureCustomerId(db, gateway, c.var.userId, deps.clock.now());
      // A provider call is no database write: with an Idempotency-Key it takes the key's effect key, and a retry gets
      // the same SetupIntent back from the provider (its own idempotency; its client secret is not ours to store).
      const effectKey = keyed.effectKey('setup-intent');
      const idempotencyKey = effectKey ? `setup-intent-${effectKey}` : undefined;
      const { clientSecret, setupIntentId } = await gateway.createSetupIntent({
        customerId,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      return c.json({ clientSecret, setupIntentId });
    })
    .get('/api/payment/payment-methods', guard, async (c) => {
      const gateway = gatewayOr503(deps);
      const customerId = await findCustomerId(db, c.var.userId);
      const cards = customerId ? await gateway.listPaymentMethods({ customerId }) : [];
      return c.json({ success: true as const, paymentMethods: cards });
    })
    .delete('/api/payment/payment-methods/:id', guard, async (c) => {
      const gateway = gatewayOr503(deps);
      const id = pathId(c);
      const customerId = await findCustomerId(db, c.var.userId);
      if (!customerId || !(await ownsCard(db, gateway, c.var.userId, id))) throw new HttpError(404, CARD_NOT_FOUND);
      // A stake still open would lose the card it may have to be charged on.
      const { rows } = await sql<{ id: string }>`
        SELECT id FROM stakes WHERE user_id = ${c.var.userId} AND state->'terms'->>'paymentMethodId' = ${id}
          AND stage NOT IN (${sql.join([...FINAL_STAKE_STATUSES])}) LIMIT 1`.execute(db);
      if (rows.length > 0) throw new HttpError(409, 'This card secures a stake that is not settled yet.');
      try {
        await gateway.detachPaymentMethod({ customerId, paymentMethodId: id });
      } catch (error) {
        if (isPaymentError(error, 'not_found', 'not_owned')) throw new HttpError(404, CARD_NOT_FOUND);
        throw error;
      }
      return c.json({ success: true as const, data: { id, deleted: true } });
    })
    .post('/api/payment/webhook', async (c) => {
      const raw = await c.req.text();
      const signature = c.req.header('stripe-signature');
      if (refuseLocalSecret && signedWith(raw, signature, LOCAL_WEBHOOK_SECRET)) {
        deps.logger.warn({ requestId: c.var.requestId }, 'payment webhook signed with the public development secret');
        throw new HttpError(400, 'Invalid webhook signature');
      }
      const gateway = gatewayOr503(deps);
      let event: ReturnType<PaymentGateway['parseWebhook']>;
      try {
        event = gateway.parseWebhook(raw, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new HttpError(400, 'Invalid webhook signature');
        if (isPaymentError(error, 'invalid_request') || error instanceof SyntaxError) {
          throw new HttpError(400, 'Invalid webhook body');
        }
        throw error;
      }
      const result = await applyPaymentWebhook(event, { db, store: deps.store, gateway, now: deps.clock.now() });
      if (result.fresh && result.outcome !== 'applied' && result.outcome !== 'no_change') {
        // Answered 2xx (nothing to retry) and kept in payment_webhook_events with its outcome.
        const unknown = result.outcome === 'unknown_payment_intent' || result.outcome === 'unknown_stake';
        deps.logger[unknown ? 'warn' : 'info'](
          { eventId: event.id, type: event.type, paymentIntentId: event.paymentIntentId, outcome: result.outcome },
          'payment webhook names nothing of ours; recorded, nothing changed',
        );
      }
      return c.json({ received: true, duplicate: !result.fresh });
    });
}
