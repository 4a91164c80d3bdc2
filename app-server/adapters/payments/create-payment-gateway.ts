import type { Clock } from '../../clock.ts';
import { type Config, ConfigError } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { LocalPaymentGateway } from './local/local-gateway.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { StripeGateway } from './stripe/stripe-gateway.ts';

/** The message routes answer when no gateway is configured (spec §8, "Card provider key missing"). */
export const PAYMENTS_NOT_CONFIGURED_MESSAGE = 'Stripe is not configured. Please contact support.';

// The local gateway's events are signed even in development, so the webhook route is exercised the same way.
const LOCAL_WEBHOOK_SECRET = 'whsec_local_development_only';

export type PaymentGatewayConfig = Pick<
  Config,
  'NODE_ENV' | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'PAYMENTS_LOCAL_GATEWAY'
>;

export type PaymentGatewayDeps = { readonly db: Db; readonly clock: Clock };

/**
 * Whether the local gateway stands in when Stripe is not configured: never in production (it saves test cards and
 * takes no money; loadConfig refuses PAYMENTS_LOCAL_GATEWAY=true there), elsewhere unless turned off.
 */
export function localGatewayEnabled(config: PaymentGatewayConfig): boolean {
  return config.NODE_ENV !== 'production' && (config.PAYMENTS_LOCAL_GATEWAY ?? true);
}

/**
 * The payment gateway for this configuration: Stripe when a secret key is set, else the local gateway when enabled,
 * else null (payment routes then answer PAYMENTS_NOT_CONFIGURED_MESSAGE). Throws ConfigError for a production Stripe
 * key without a webhook secret.
 */
export function createPaymentGateway(config: PaymentGatewayConfig, deps: PaymentGatewayDeps): PaymentGateway | null {
  if (config.STRIPE_SECRET_KEY) {
    // Without verified webhooks a lapsed or disputed hold goes unnoticed until the next re-fetch: refuse to start.
    if (config.NODE_ENV === 'production' && !config.STRIPE_WEBHOOK_SECRET) {
      throw new ConfigError(['STRIPE_WEBHOOK_SECRET: required in production when STRIPE_SECRET_KEY is set']);
    }
    return new StripeGateway({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      clock: deps.clock,
    });
  }
  if (localGatewayEnabled(config)) {
    return new LocalPaymentGateway({
      db: deps.db,
      clock: deps.clock,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? LOCAL_WEBHOOK_SECRET,
    });
  }
  return null;
}
