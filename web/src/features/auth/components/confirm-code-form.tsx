import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/toast.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { takeReturnPath } from '../../../lib/return-path.ts';

/**
 * The confirmation e-mail carries a link and a 6-digit code (app-server/auth/mail-templates.ts). The code confirms
 * the account from this screen (useful when the mail is read on another device than the one signing up) and signs
 * the user in.
 */
export function ConfirmCodeForm({ email }: { readonly email: string }) {
  const { confirmSignUp } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError('Enter the 6-digit code from the email');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await confirmSignUp(email, digits);
      toast.clearErrors();
      navigate(takeReturnPath(window.location.origin, Date.now()), { replace: true });
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="auth-form confirm-code" onSubmit={submit} noValidate>
      <label>
        Confirmation code
        <input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={error !== null}
        />
        {error ? (
          <span className="field-error" role="alert">
            {error}
          </span>
        ) : null}
      </label>
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Confirming…' : 'Confirm Email'}
      </button>
    </form>
  );
}
