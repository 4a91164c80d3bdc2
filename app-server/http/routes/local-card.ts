import { Hono } from 'hono';
import { z } from 'zod';
import {
  CARD_FIELD_MESSAGES,
  cardNumberDigits,
  earliestMonthOnEarth,
  firstCardFieldProblem,
} from '../../../domain/validation/card-fields.ts';
import type { LocalPaymentGateway } from '../../adapters/payments/local/local-gateway.ts';
import type { LocalSetupIntent } from '../../adapters/payments/local/setup-intents.ts';
import { isPaymentError } from '../../adapters/payments/payment-errors.ts';
import { requireUser } from '../middleware/require-user.ts';
import { findCustomerId } from '../../commands/stakes/payment-customer.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { parseRequest, readJson } from '../request.ts';

const SETUP_NOT_FOUND = 'No such SetupIntent';

/** A typed card field: any string of bounded length; what it must look like is card-fields.ts's to say. */
const typedField = (missing: string, invalid: string) => z.string({ error: missing }).max(64, invalid);

/**
 * POST /api/payment/local/setup-intent/confirm: the client secret of POST /api/payment/setup-intent and the card
 * form's four fields as typed (number, expiry 'MM / YY', CVC, postcode), checked as the form checks them.
 */
export const localConfirmSetupSchema = z.object({
  client_secret: z.string({ error: 'client_secret is required' }).min(1, 'client_secret is required').max(200),
  card_number: typedField(CARD_FIELD_MESSAGES.numberIncomplete, CARD_FIELD_MESSAGES.numberInvalid),
  expiry: typedField(CARD_FIELD_MESSAGES.expiryIncomplete, CARD_FIELD_MESSAGES.expiryInvalid),
  cvc: typedField(CARD_FIELD_MESSAGES.cvcIncomplete, CARD_FIELD_MESSAGES.cvcInvalid),
  postal_code: typedField(CARD_FIELD_MESSAGES.postcodeIncomplete, CARD_FIELD_MESSAGES.postcodeInvalid),
});

/** POST /api/payment/local/setup-intent/authenticate: the cardholder's answer on the authentication page. */
export const localAuthenticateSetupSchema = z.object({
  client_secret: z.string({ error: 'client_secret is required' }).min(1, 'client_secret is required').max(200),
  outcome: z.enum(['approve', 'fail'], { error: 'outcome must be approve or fail' }),
});

/** The SetupIntent as Stripe.js hands it to the card form; `next_action` when the issuer wants authentication. */
function setupIntentJson(setup: LocalSetupIntent) {
  return {
    setupIntent: {
      id: setup.id,
      status: setup.status,
      payment_method: setup.paymentMethodId,
      next_action: setup.status === 'requires_action' ? { type: 'local_authentication' as const } : null,
    },
  };
}

/**
 * The local gateway's stand-in for Stripe.js (development, demo and tests; mounted only when the local gateway is the
 * configured one, which it never is in production). The web app's card form confirms the SetupIntent it created with
 * POST /api/payment/setup-intent here, as it would with Stripe's `confirmCardSetup`: a saved card answers 200 with
 * the payment method; a refused one answers 402 with Stripe's message, code and decline code, exactly like a Stripe
 * card error; a card that needs 3-D Secure answers `requires_action`, and the local authentication page answers
 * approve or fail. A SetupIntent belongs to the signed-in user's customer, or reads as absent (404).
 */
export function localCardRoutes(deps: AppDeps, gateway: LocalPaymentGateway) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;

  /** The user's own SetupIntent for this client secret, else 404 (someone else's secret never confirms). */
  const ownSetupIntent = async (userId: string, clientSecret: string) => {
    const [setup, customerId] = await Promise.all([gateway.findSetupIntent(clientSecret), findCustomerId(db, userId)]);
    if (!setup || setup.customerId !== customerId) throw new HttpError(404, SETUP_NOT_FOUND);
    return setup;
  };

  /** Card errors answer 402 like Stripe's; the SetupIntent stays usable for another card. */
  const answer = (setup: LocalSetupIntent) => {
    if (setup.status === 'requires_payment_method' && setup.lastSetupError) {
      const { message, code, declineCode } = setup.lastSetupError;
      throw new HttpError(402, message, { code, decline_code: declineCode });
    }
    return setupIntentJson(setup);
  };

  return new Hono<AppEnv>()
    .post('/api/payment/local/setup-intent/confirm', guard, async (c) => {
      const body = parseRequest(localConfirmSetupSchema, await readJson(c));
      // The form's own checks, again: a request that skips the form is refused with the sentence the form shows.
      // The month is UTC−12's, so a card a device anywhere rightly accepted on its expiry month's last day passes.
      const fields = { number: body.card_number, expiry: body.expiry, cvc: body.cvc, postcode: body.postal_code };
      const problem = firstCardFieldProblem(fields, earliestMonthOnEarth(deps.clock.now().getTime()));
      if (problem) throw new HttpError(400, problem);
      const setup = await ownSetupIntent(c.var.userId, body.client_secret);
      return c.json(
        answer(await gateway.confirmSetupIntent({ setupIntentId: setup.id, card: cardNumberDigits(body.card_number) })),
      );
    })
    .post('/api/payment/local/setup-intent/authenticate', guard, async (c) => {
      const body = parseRequest(localAuthenticateSetupSchema, await readJson(c));
      const setup = await ownSetupIntent(c.var.userId, body.client_secret);
      try {
        const approve = body.outcome === 'approve';
        return c.json(answer(await gateway.authenticateSetupIntent({ setupIntentId: setup.id, approve })));
      } catch (error) {
        if (isPaymentError(error, 'invalid_request')) throw new HttpError(409, error.message);
        throw error;
      }
    });
}
