import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
// The pure entry does not inject Stripe.js on import: only users who reach a staked goal's card step load it.
import { loadStripe } from '@stripe/stripe-js/pure';
import type { Stripe } from '@stripe/stripe-js';
import { useState } from 'react';
import { type CardSetupOutcome, cardSetupOutcome } from '../card-setup-outcome.ts';
import { UNEXPECTED } from './payment-messages.ts';

const stripes = new Map<string, Promise<Stripe | null>>();
/** One Stripe.js instance per key (Stripe asks that loadStripe not run on every render). */
const stripeFor = (key: string) => {
  let pending = stripes.get(key);
  if (!pending) {
    pending = loadStripe(key);
    stripes.set(key, pending);
  }
  return pending;
};

interface FormProps {
  readonly clientSecret: string;
  readonly onSaved: (paymentMethodId: string) => void;
}

function CardForm({ clientSecret, onSaved }: FormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [failure, setFailure] = useState<Extract<CardSetupOutcome, { kind: 'failed' }> | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const card = elements?.getElement(CardElement);
    // §5: the card form needs the payment provider to be ready.
    if (!stripe || !card) return;
    setBusy(true);
    setFailure(null);
    try {
      // Stripe.js runs the bank's authentication itself when the card asks for it.
      const result = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } });
      const method = result.setupIntent?.payment_method;
      const outcome = cardSetupOutcome(
        result.error
          ? { error: { message: result.error.message, code: result.error.code } }
          : {
              status: result.setupIntent.status,
              paymentMethodId: typeof method === 'string' ? method : (method?.id ?? null),
            },
      );
      if (outcome.kind === 'saved') onSaved(outcome.paymentMethodId);
      else setFailure(outcome);
    } catch {
      setFailure({ kind: 'failed', message: UNEXPECTED, detail: null });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="wizard-step">
      <div className="card-element">
        <CardElement options={{ hidePostalCode: true }} />
      </div>
      {failure ? (
        <div className="field-error" role="alert">
          <p>{failure.message}</p>
          {failure.detail ? <p className="small">{failure.detail}</p> : null}
        </div>
      ) : null}
      <button type="button" className="button primary block" disabled={!stripe || busy} onClick={save}>
        {busy ? 'Saving…' : 'Save Card'}
      </button>
    </div>
  );
}

/** The Stripe Elements card form (§2 step 4): the card is confirmed against the setup intent's client secret. */
export default function StripeCardForm({ publishableKey, ...props }: FormProps & { readonly publishableKey: string }) {
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret: props.clientSecret }}>
      <CardForm {...props} />
    </Elements>
  );
}
