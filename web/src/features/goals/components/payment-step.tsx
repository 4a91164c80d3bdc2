import { lazy, Suspense, useEffect, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage } from '../../../lib/api-error.ts';
import { createSetupIntent, PAYMENT_INIT_FAILED } from '../api/create-setup-intent.ts';
import { usePaymentConfig } from '../api/get-payment-config.ts';
import { STRIPE_NOT_CONFIGURED } from './payment-messages.ts';
import { TestCardForm } from './test-card-form.tsx';

// Stripe.js and its React bindings load only when a staked goal reaches this step.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx'));

/**
 * Step 4 (staked goals only): the card form. It starts a setup intent (§8: no client secret → 'Failed to initialize
 * payment. Please try again.'), then shows Stripe Elements when the server has a publishable key, or the local
 * gateway's test-card form.
 */
export function PaymentStep({ onSaved }: { readonly onSaved: (paymentMethodId: string) => void }) {
  const config = usePaymentConfig();
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    createSetupIntent()
      .then((intent) => live && setClientSecret(intent.clientSecret))
      .catch((e: unknown) => live && setError(errorMessage(e, PAYMENT_INIT_FAILED)));
    return () => {
      live = false;
    };
  }, []);

  const failure =
    error ??
    (config.data && config.data.gateway === 'stripe' && !config.data.publishableKey ? STRIPE_NOT_CONFIGURED : null);
  if (failure) {
    return (
      <p className="field-error" role="alert">
        {failure}
      </p>
    );
  }
  // A server without the config route (older API) is treated as the local gateway.
  if (!clientSecret || config.isPending) return <Spinner />;
  const key = config.data?.publishableKey ?? null;
  if (!key) return <TestCardForm onSaved={onSaved} />;
  return (
    <Suspense fallback={<Spinner />}>
      <StripeCardForm publishableKey={key} clientSecret={clientSecret} onSaved={onSaved} />
    </Suspense>
  );
}
