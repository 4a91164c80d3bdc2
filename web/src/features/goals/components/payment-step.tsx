import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/api-error.ts';
import { PAYMENT_INIT_FAILED, createSetupIntent } from '../api/create-setup-intent.ts';

// Stripe's test cards the local payment gateway accepts as payment methods (app-server/adapters/payments/local).
const TEST_CARD_TOKENS: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '378282246310005': 'pm_card_amex',
};

/**
 * Step 4 (staked goals only): the card form. It starts a setup intent (§8: no client secret → 'Failed to initialize
 * payment. Please try again.'). Without the Stripe.js card element in this build, a Stripe test card number is
 * exchanged for its test payment method, which the local gateway accepts.
 */
export function PaymentStep({ onSaved }: { readonly onSaved: (paymentMethodId: string) => void }) {
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [card, setCard] = useState('');

  useEffect(() => {
    let live = true;
    createSetupIntent()
      .then(() => live && setReady(true))
      .catch((e: unknown) => live && setError(errorMessage(e, PAYMENT_INIT_FAILED)));
    return () => {
      live = false;
    };
  }, []);

  const save = () => {
    const token = TEST_CARD_TOKENS[card.replaceAll(/\s/g, '')];
    if (!token) {
      setError('Failed to save payment method');
      return;
    }
    setError(null);
    onSaved(token);
  };

  return (
    <div className="wizard-step">
      <label>
        Card number
        <input
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          value={card}
          disabled={!ready}
          onChange={(e) => setCard(e.target.value)}
        />
      </label>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="button" className="button primary block" disabled={!ready} onClick={save}>
        Save Card
      </button>
    </div>
  );
}
