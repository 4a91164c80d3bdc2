import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTHENTICATION_FAILED, cardSetupOutcome } from './card-setup-outcome.ts';
import { PROVIDER_FALLBACK, SAVE_FAILED } from './components/payment-messages.ts';

describe('the card forms’ outcome (§8 payment form)', () => {
  it('shows the provider’s message, the fallback without one, and the spec message for a failed authentication', () => {
    expect(cardSetupOutcome({ error: { message: 'Your card was declined.', code: 'card_declined' } })).toEqual({
      kind: 'failed',
      message: 'Your card was declined.',
      detail: null,
    });
    expect(cardSetupOutcome({ error: { message: '  ' } })).toEqual({
      kind: 'failed',
      message: PROVIDER_FALLBACK,
      detail: null,
    });
    expect(
      cardSetupOutcome({ error: { code: AUTHENTICATION_FAILED, message: 'We are unable to authenticate.' } }),
    ).toEqual({
      kind: 'failed',
      message: SAVE_FAILED,
      detail: 'We are unable to authenticate.',
    });
    expect(cardSetupOutcome({ status: 'requires_payment_method', paymentMethodId: null })).toEqual({
      kind: 'failed',
      message: SAVE_FAILED,
      detail: null,
    });
    expect(cardSetupOutcome({ status: 'succeeded', paymentMethodId: 'pm_1' })).toEqual({
      kind: 'saved',
      paymentMethodId: 'pm_1',
    });
  });

  it('property: a card is used only when the setup succeeded with one; every failure says something', () => {
    const error = fc.record({
      message: fc.option(fc.string(), { nil: undefined }),
      code: fc.option(fc.oneof(fc.constant(AUTHENTICATION_FAILED), fc.string()), { nil: undefined }),
    });
    const answer = fc.record({
      status: fc.oneof(
        fc.constantFrom('succeeded', 'requires_action', 'requires_payment_method', 'canceled'),
        fc.string(),
      ),
      paymentMethodId: fc.option(fc.string(), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.oneof(
          error.map((e) => ({ error: e })),
          answer,
        ),
        (result) => {
          const outcome = cardSetupOutcome(result);
          const saved = !('error' in result) && result.status === 'succeeded' && !!result.paymentMethodId;
          expect(outcome.kind === 'saved').toBe(saved);
          if (outcome.kind === 'saved')
            expect(outcome.paymentMethodId).toBe((result as { paymentMethodId: string }).paymentMethodId);
          else expect(outcome.message.trim()).not.toBe('');
          if ('error' in result && result.error.code !== AUTHENTICATION_FAILED && result.error.message?.trim()) {
            expect(outcome).toEqual({ kind: 'failed', message: result.error.message.trim(), detail: null });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
