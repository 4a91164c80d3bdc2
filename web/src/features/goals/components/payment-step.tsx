import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage } from '../../../lib/api-error.ts';
import { createSetupIntent, PAYMENT_INIT_FAILED } from '../api/create-setup-intent.ts';
import { usePaymentConfig } from '../api/get-payment-config.ts';
import { cardLabel, type SavedCard, useSavedCards } from '../api/get-saved-cards.ts';
import { LocalCardForm } from './local-card-form.tsx';
import { STRIPE_NOT_CONFIGURED } from './payment-messages.ts';

// Stripe.js and its React bindings load only when a staked goal reaches this step.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx'));

/**
 * Step 4 (staked goals only): a saved card is offered first (with "Use another card"); otherwise the card form, which
 * saves a new card through a setup intent.
 */
export function PaymentStep({ onSaved }: { readonly onSaved: (paymentMethodId: string) => void }) {
  const saved = useSavedCards();
  const [adding, setAdding] = useState(false);
  if (saved.isPending) return <Spinner />;
  // A list that failed to load only means the runner types a card in (§8: load failures are only logged).
  const cards = saved.data ?? [];
  if (cards.length > 0 && !adding) {
    return <SavedCardChoice cards={cards} onUse={onSaved} onAnother={() => setAdding(true)} />;
  }
  return <NewCardForm onSaved={onSaved} />;
}

function SavedCardChoice({
  cards,
  onUse,
  onAnother,
}: {
  readonly cards: readonly SavedCard[];
  readonly onUse: (paymentMethodId: string) => void;
  readonly onAnother: () => void;
}) {
  return (
    <div className="wizard-step">
      <p className="muted">Put the stake on a card you saved:</p>
      <fieldset className="charity-list">
        <legend className="visually-hidden">Saved cards</legend>
        {cards.map((card) => (
          <button key={card.id} type="button" className="choice" onClick={() => onUse(card.id)}>
            <strong>Use {cardLabel(card)}</strong>
            <span className="muted small">
              Expires {String(card.expMonth).padStart(2, '0')}/{String(card.expYear).slice(-2)}
            </span>
          </button>
        ))}
      </fieldset>
      <button type="button" className="button ghost block" onClick={onAnother}>
        Use another card
      </button>
    </div>
  );
}

/**
 * The card form: it starts a setup intent (§8: no client secret → 'Failed to initialize payment. Please try again.'),
 * then shows Stripe Elements when the server has a publishable key, or the local gateway's card form. Either one
 * confirms that setup intent, so the card is saved to the runner's customer before the wizard goes on.
 */
function NewCardForm({ onSaved }: { readonly onSaved: (paymentMethodId: string) => void }) {
  const config = usePaymentConfig();
  const client = useQueryClient();
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
  if (!clientSecret || config.isPending) return <Spinner />;
  const cardSaved = (paymentMethodId: string) => {
    void client.invalidateQueries({ queryKey: ['payment-methods'] });
    onSaved(paymentMethodId);
  };
  // A server without the config route (older API) is treated as the local gateway.
  const key = config.data?.publishableKey ?? null;
  if (!key) return <LocalCardForm clientSecret={clientSecret} onSaved={cardSaved} />;
  return (
    <Suspense fallback={<Spinner />}>
      <StripeCardForm publishableKey={key} clientSecret={clientSecret} onSaved={cardSaved} />
    </Suspense>
  );
}
