import { useState } from 'react';
import { SAVE_FAILED } from './payment-messages.ts';

// Stripe's test cards the local payment gateway accepts as payment methods (app-server/adapters/payments/local).
const TEST_CARD_TOKENS: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '378282246310005': 'pm_card_amex',
};

/**
 * The card form for the local gateway (development, tests): a Stripe test card number is exchanged for its test
 * payment method, which the local gateway accepts; any other number cannot be saved.
 */
export function TestCardForm({ onSaved }: { readonly onSaved: (paymentMethodId: string) => void }) {
  const [card, setCard] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    const token = TEST_CARD_TOKENS[card.replaceAll(/\s/g, '')];
    if (!token) {
      setError(SAVE_FAILED);
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
          onChange={(e) => setCard(e.target.value)}
        />
      </label>
      <p className="muted small">Test mode: use 4242 4242 4242 4242.</p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="button" className="button primary block" onClick={save}>
        Save Card
      </button>
    </div>
  );
}
