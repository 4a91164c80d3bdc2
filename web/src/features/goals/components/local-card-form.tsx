import { useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import {
  type CardField,
  type CardFields,
  cardFieldProblems,
  formatCardNumberInput,
  formatExpiryInput,
  type YearMonth,
} from '../../../../../domain/validation/card-fields.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { authenticateLocalCard, confirmLocalCard, type LocalSetupIntent } from '../api/confirm-local-card.ts';
import { type CardSetupOutcome, type CardSetupResult, cardSetupOutcome } from '../card-setup-outcome.ts';
import { CardFieldInput } from './card-field-input.tsx';
import { LocalAuthentication } from './local-authentication.tsx';
import { UNEXPECTED } from './payment-messages.ts';

const EMPTY: CardFields = { number: '', expiry: '', cvc: '', postcode: '' };

/** The current month on this device: a card is good through the last day of its expiry month. */
function thisMonth(): YearMonth {
  const today = Temporal.Now.plainDateISO();
  return { year: today.year, month: today.month };
}

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
 * The card form when no Stripe publishable key is configured (development, demo, tests): number, expiry, CVC and
 * postcode, as Stripe's form asks for them, each checked on this device with Stripe's sentence under the field
 * (domain/validation/card-fields.ts, which the server applies too). The card confirms the same setup intent against
 * the local gateway, which answers as Stripe's test mode does (declines, authentication), so the wizard only ever
 * goes on with a card that is saved to the user's customer. The test card is named in a hint, never prefilled or
 * used as a placeholder: an empty field must look empty.
 */
export function LocalCardForm({
  clientSecret,
  onSaved,
}: {
  readonly clientSecret: string;
  readonly onSaved: (paymentMethodId: string) => void;
}) {
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [touched, setTouched] = useState<ReadonlySet<CardField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
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
  const problems = cardFieldProblems(fields, thisMonth());
  const shown = (field: CardField) => (submitted || touched.has(field) ? (problems[field] ?? null) : null);
  const edit = (field: CardField, format: (typed: string) => string = (typed) => typed) => ({
    value: fields[field],
    problem: shown(field),
    onChange: (typed: string) => setFields((now) => ({ ...now, [field]: format(typed) })),
    // An empty field left behind is not yet a mistake; Save Card names it.
    onBlur: () => fields[field].trim() !== '' && setTouched((now) => new Set(now).add(field)),
  });
  const save = () => {
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    void run(() => confirmLocalCard(clientSecret, fields));
  };
  return (
    <form
      className="wizard-step local-card-form"
      aria-label="Card details"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <CardFieldInput
        id="local-card-number"
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        {...edit('number', formatCardNumberInput)}
      />
      <div className="card-field-row">
        <CardFieldInput
          id="local-card-expiry"
          label="Expiry"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          {...edit('expiry', formatExpiryInput)}
        />
        <CardFieldInput
          id="local-card-cvc"
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="CVC"
          maxLength={4}
          {...edit('cvc')}
        />
      </div>
      <CardFieldInput
        id="local-card-postcode"
        label="Postcode"
        autoComplete="postal-code"
        placeholder="Postcode"
        maxLength={16}
        {...edit('postcode')}
      />
      <p className="muted small card-test-hint">
        Test mode, no real card: use the test card <span className="nowrap">4242 4242 4242 4242</span> with any future
        expiry, any 3-digit CVC and any postcode.
      </p>
      {failure ? (
        <div className="field-error" role="alert">
          <p>{failure.message}</p>
          {failure.detail ? <p className="small">{failure.detail}</p> : null}
        </div>
      ) : null}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Saving…' : 'Save Card'}
      </button>
    </form>
  );
}
