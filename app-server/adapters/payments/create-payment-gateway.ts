import type { Clock } from '../../clock.ts';
import { type Config, ConfigError } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { LocalPaymentGateway } from './local/local-gateway.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { StripeGateway } from './stripe/stripe-gateway.ts';

/** The message routes answer when no gateway is configured (spec §8, "Card provider key missing"). */
export const PAYMENTS_NOT_CONFIGURED_MESSAGE = 'Stripe is not configured. Please contact support.';

/**
 * The local gateway's events are signed even in development, so the webhook route is exercised the same way. This
 * secret is public (it is in the source): a signature made with it proves nothing, so it is accepted only where the
 * local gateway is the configured one and the product is not in production (localSecretTrusted).
 */
export const LOCAL_WEBHOOK_SECRET = 'whsec_local_development_only';

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
 * Whether a webhook signed with the public LOCAL_WEBHOOK_SECRET may be believed: only when the local gateway is the
 * one serving (no Stripe key) and the product is not in production. The webhook route refuses such a signature
 * everywhere else, whichever gateway and secret are in use.
 */
export function localSecretTrusted(config: PaymentGatewayConfig, gateway: PaymentGateway | null): boolean {
  return gateway instanceof LocalPaymentGateway && !config.STRIPE_SECRET_KEY && localGatewayEnabled(config);
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
    // Anyone can sign with the public development secret: Stripe's events must be signed with the endpoint's own.
    if (config.STRIPE_WEBHOOK_SECRET === LOCAL_WEBHOOK_SECRET) {
      throw new ConfigError(['STRIPE_WEBHOOK_SECRET: the local development secret cannot verify Stripe events']);
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
