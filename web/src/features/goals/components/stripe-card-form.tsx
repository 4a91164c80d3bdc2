import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
// The pure entry does not inject Stripe.js on import: only users who reach a staked goal's card step load it.
import { loadStripe } from '@stripe/stripe-js/pure';
import type { Stripe } from '@stripe/stripe-js';
import { useState } from 'react';
import { PROVIDER_FALLBACK, SAVE_FAILED, UNEXPECTED } from './payment-messages.ts';

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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const card = elements?.getElement(CardElement);
    // §5: the card form needs the payment provider to be ready.
    if (!stripe || !card) return;
    setBusy(true);
    setError(null);
    try {
      const result = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } });
      if (result.error) {
        setError(result.error.message ?? PROVIDER_FALLBACK);
        return;
      }
      const method = result.setupIntent.payment_method;
      const id = typeof method === 'string' ? method : (method?.id ?? null);
      if (result.setupIntent.status !== 'succeeded' || !id) {
        setError(SAVE_FAILED);
        return;
      }
      onSaved(id);
    } catch {
      setError(UNEXPECTED);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="wizard-step">
      <div className="card-element">
        <CardElement options={{ hidePostalCode: true }} />
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
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
