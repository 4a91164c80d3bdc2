import { describe, expect, it } from 'vitest';
import {
  createPaymentGateway,
  localGatewayEnabled,
} from '../../app-server/adapters/payments/create-payment-gateway.ts';
import { ManualClock } from '../../app-server/clock.ts';
import { ConfigError, loadConfig } from '../../app-server/config.ts';
import type { Db } from '../../app-server/db/database.ts';

// The gateways touch the database only when called; constructing one needs just `withTables`.
const db = { withTables: () => db } as unknown as Db;
const deps = { db, clock: new ManualClock('2026-11-23T05:00:00Z') };
const production = { NODE_ENV: 'production', AUTH_ENCRYPTION_KEY: 'x'.repeat(32) };

describe('payment configuration and gateway factory', () => {
  it('uses the local gateway by default outside production, and nothing in production', () => {
    expect(createPaymentGateway(loadConfig({}), deps)?.kind).toBe('local');
    expect(createPaymentGateway(loadConfig({ NODE_ENV: 'test' }), deps)?.kind).toBe('local');
    expect(localGatewayEnabled(loadConfig(production))).toBe(false);
    expect(createPaymentGateway(loadConfig(production), deps)).toBeNull();
  });

  it('follows PAYMENTS_LOCAL_GATEWAY outside production, and refuses to start with it in production', () => {
    expect(createPaymentGateway(loadConfig({ PAYMENTS_LOCAL_GATEWAY: 'false' }), deps)).toBeNull();
    expect(createPaymentGateway(loadConfig({ PAYMENTS_LOCAL_GATEWAY: 'true' }), deps)?.kind).toBe('local');
    expect(() => loadConfig({ ...production, PAYMENTS_LOCAL_GATEWAY: 'true' })).toThrow(
      /PAYMENTS_LOCAL_GATEWAY: the local payment gateway cannot run in production/,
    );
    // Even a configuration that skipped loadConfig's check never gets the local gateway in production.
    const forced = { ...loadConfig(production), PAYMENTS_LOCAL_GATEWAY: true };
    expect(localGatewayEnabled(forced)).toBe(false);
    expect(createPaymentGateway(forced, deps)).toBeNull();
  });

  it('prefers Stripe when a secret key is set', () => {
    const config = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' });
    expect(createPaymentGateway(config, deps)?.kind).toBe('stripe');
    const live = loadConfig({ ...production, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' });
    expect(createPaymentGateway(live, deps)?.kind).toBe('stripe');
  });

  it('refuses malformed keys, and a production Stripe key without a webhook secret', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENTS_LOCAL_GATEWAY: 'maybe' })).toThrow(ConfigError);
    const config = loadConfig({ ...production, STRIPE_SECRET_KEY: 'sk_live_abc' });
    expect(() => createPaymentGateway(config, deps)).toThrow(ConfigError);
  });
});
