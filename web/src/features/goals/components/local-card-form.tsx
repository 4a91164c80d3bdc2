import { useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { authenticateLocalCard, confirmLocalCard, type LocalSetupIntent } from '../api/confirm-local-card.ts';
import { type CardSetupOutcome, type CardSetupResult, cardSetupOutcome } from '../card-setup-outcome.ts';
import { LocalAuthentication } from './local-authentication.tsx';
import { UNEXPECTED } from './payment-messages.ts';

/** A call to the local gateway, read the way Stripe.js reads its answers: a SetupIntent, or the provider's error. */
async function asSetupResult(call: () => Promise<LocalSetupIntent>): Promise<CardSetupResult | LocalSetupIntent> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) return { error: { message: error.message, code: error.code } };
    return { error: { message: UNEXPECTED } };
  }
}

/**
 * The card form when no Stripe publishable key is configured (development, demo, tests): the card number confirms the
 * same setup intent against the local gateway, which answers as Stripe's test mode does (declines, authentication),
 * so the wizard only ever goes on with a card that is saved to the user's customer.
 */
export function LocalCardForm({
  clientSecret,
  onSaved,
}: {
  readonly clientSecret: string;
  readonly onSaved: (paymentMethodId: string) => void;
}) {
  const [card, setCard] = useState('');
  const [busy, setBusy] = useState(false);
  const [authenticating, setAuthenticating] = useState(false);
  const [failure, setFailure] = useState<Extract<CardSetupOutcome, { kind: 'failed' }> | null>(null);

  const settle = (answer: CardSetupResult | LocalSetupIntent) => {
    if ('id' in answer && answer.status === 'requires_action') {
      setAuthenticating(true);
      return;
    }
    setAuthenticating(false);
    const outcome = cardSetupOutcome(
      'id' in answer ? { status: answer.status, paymentMethodId: answer.payment_method } : answer,
    );
    if (outcome.kind === 'saved') onSaved(outcome.paymentMethodId);
    else setFailure(outcome);
  };
  const run = async (call: () => Promise<LocalSetupIntent>) => {
    setBusy(true);
    setFailure(null);
    try {
      settle(await asSetupResult(call));
    } finally {
      setBusy(false);
    }
  };

  if (authenticating) {
    return (
      <LocalAuthentication
        busy={busy}
        onAnswer={(approve) => run(() => authenticateLocalCard(clientSecret, approve))}
      />
    );
  }
  return (
    <div className="wizard-step">
      <label>
        Card number
        <input
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          value={card}
          onChange={(e) => setCard(e.target.value)}
        />
      </label>
      <p className="muted small">Test mode: use 4242 4242 4242 4242 (Stripe’s test cards work here).</p>
      {failure ? (
        <div className="field-error" role="alert">
          <p>{failure.message}</p>
          {failure.detail ? <p className="small">{failure.detail}</p> : null}
        </div>
      ) : null}
      <button
        type="button"
        className="button primary block"
        disabled={busy || card.trim() === ''}
        onClick={() => run(() => confirmLocalCard(clientSecret, card.trim()))}
      >
        {busy ? 'Saving…' : 'Save Card'}
      </button>
    </div>
  );
}
