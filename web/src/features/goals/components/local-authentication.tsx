/**
 * The local gateway's stand-in for the bank's 3-D Secure page that Stripe.js opens for a card like 4000 0025 0000
 * 3155: the cardholder completes or fails the authentication, and the card is saved only if completed.
 */
export function LocalAuthentication({
  busy,
  onAnswer,
}: {
  readonly busy: boolean;
  readonly onAnswer: (approve: boolean) => void;
}) {
  return (
    <section className="wizard-step local-authentication" aria-label="Card authentication">
      <h3>Confirm it’s you</h3>
      <p className="muted">
        Your bank asks you to authenticate this card before it can be saved (test mode: this stands in for your bank’s
        3-D Secure page).
      </p>
      <button type="button" className="button primary block" disabled={busy} onClick={() => onAnswer(true)}>
        Complete authentication
      </button>
      <button type="button" className="button ghost block" disabled={busy} onClick={() => onAnswer(false)}>
        Fail authentication
      </button>
    </section>
  );
}
