import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useToast } from '../../../components/toast.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { authFailureMessage, isEmailNotConfirmed } from '../lib/auth-messages.ts';
import { ConfirmCodeForm } from './confirm-code-form.tsx';
import { takeReturnPath } from '../../../lib/return-path.ts';

/**
 * Email and password sign-in (§2 /login); a failure shows the §8 toast. An account not confirmed yet gets a way on:
 * the confirmation mail again, and the entry for its code. A forgotten password goes to /forgot-password.
 */
export function LoginForm() {
  const { signIn, resendConfirmation } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const [resend, setResend] = useState<{ busy: boolean; note: string | null; error: string | null }>({
    busy: false,
    note: null,
    error: null,
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await signIn(email.trim(), password);
      toast.clearErrors();
      navigate(takeReturnPath(window.location.origin, Date.now()), { replace: true });
    } catch (error) {
      setUnconfirmed(isEmailNotConfirmed(error) ? email.trim() : null);
      const message = authFailureMessage(error, 'Please check your credentials and try again.');
      toast.show({ tone: 'error', title: 'Sign in failed', description: message });
    } finally {
      setBusy(false);
    }
  };

  const sendAgain = async (address: string) => {
    setResend({ busy: true, note: null, error: null });
    try {
      await resendConfirmation(address);
      setResend({ busy: false, note: `We sent a new confirmation email to ${address}.`, error: null });
    } catch (error) {
      setResend({ busy: false, note: null, error: authFailureMessage(error) });
    }
  };

  return (
    <>
      <form className="auth-form" onSubmit={submit}>
        <label>
          Email
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <p className="field-hint">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
        <button type="submit" className="button primary block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign In'}
        </button>
        <p className="muted center">
          Don’t have an account? <Link to="/signup">Sign up</Link>
        </p>
      </form>
      {unconfirmed ? (
        <section className="card confirm-panel" aria-label="Confirm your email">
          <p>
            Your email <strong>{unconfirmed}</strong> is not confirmed yet. Enter the code from the confirmation email,
            or ask for a new one.
          </p>
          <ConfirmCodeForm email={unconfirmed} />
          <button
            type="button"
            className="button secondary block"
            disabled={resend.busy}
            onClick={() => void sendAgain(unconfirmed)}
          >
            {resend.busy ? 'Sending…' : 'Resend confirmation email'}
          </button>
          {resend.note ? (
            <p className="muted small" role="status">
              {resend.note}
            </p>
          ) : null}
          {resend.error ? (
            <p className="field-error" role="alert">
              {resend.error}
            </p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
