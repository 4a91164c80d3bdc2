import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error.ts';
import { cardLabel, useSavedCards } from '../api/get-saved-cards.ts';
import { useRemoveSavedCard } from '../api/remove-saved-card.ts';

/**
 * The runner's saved cards (profile), each removable; the server refuses to remove one that secures an open stake and
 * says why. Hidden when there are none.
 */
export function SavedCards() {
  const cards = useSavedCards();
  const remove = useRemoveSavedCard();
  const [error, setError] = useState<string | null>(null);
  const list = cards.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="card" aria-label="Saved cards">
      <h2>Saved Cards</h2>
      <ul className="list">
        {list.map((card) => (
          <li key={card.id} className="list-row stake-row">
            <span>
              <strong>{cardLabel(card)}</strong>
              <span className="muted small">
                Expires {String(card.expMonth).padStart(2, '0')}/{String(card.expYear).slice(-2)}
              </span>
            </span>
            <button
              type="button"
              className="button ghost small danger"
              aria-label={`Remove ${cardLabel(card)}`}
              disabled={remove.isPending}
              onClick={() => {
                setError(null);
                remove.mutate(card.id, { onError: (e) => setError(errorMessage(e, 'Failed to remove card')) });
              }}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
