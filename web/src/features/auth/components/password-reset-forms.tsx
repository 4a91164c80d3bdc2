import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '../../../../../domain/validation/auth.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { authFailureMessage } from '../lib/auth-messages.ts';
import { takeReturnPath } from '../../../lib/return-path.ts';

/**
 * /forgot-password: the address to mail a recovery link to (POST /auth/v1/recover), then "check your email". The
 * answer is the same whether or not the address has an account (docs/auth.md "No enumeration").
 */
export function ForgotPasswordForm() {
  const { requestPasswordReset } = useAuth();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (failure) {
      setError(authFailureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <section className="card confirm-panel" aria-label="Check your email">
        <h2>Check your email</h2>
        <p>
          If an account uses <strong>{sentTo}</strong>, we sent it a link to set a new password.
        </p>
        <Link to="/login" className="button secondary block">
          Back to Sign In
        </Link>
      </section>
    );
  }

  return (
    <form className="auth-form" onSubmit={submit}>
      <label>
        Email
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Sending…' : 'Send Reset Link'}
      </button>
      <p className="muted center">
        Remembered it? <Link to="/login">Sign in</Link>
      </p>
    </form>
  );
}

/**
 * /reset-password: the mailed recovery link lands here with a recovery session (the auth client takes it from the
 * URL); the new password is set with PUT /auth/v1/user, and the runner goes on to the dashboard, signed in.
 */
export function ResetPasswordForm() {
  const { session, loading, setNewPassword } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (loading) return <Spinner />;
  if (!session) {
    return (
      <div className="auth-form">
        <p role="alert">This reset link has expired or was already used. Ask for a new one.</p>
        <Link to="/forgot-password" className="button primary block">
          Send a New Link
        </Link>
      </div>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if ([...password].length < MIN_PASSWORD_LENGTH) {
      setError(PASSWORD_TOO_SHORT);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await setNewPassword(password);
      toast.clearErrors();
      toast.show({ tone: 'success', title: 'Password updated', description: 'You are signed in.' });
      navigate(takeReturnPath(window.location.origin, Date.now()), { replace: true });
    } catch (failure) {
      setError(authFailureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <label>
        New password
        <input
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={error !== null}
        />
        <span className={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined}>
          {error ?? `At least ${MIN_PASSWORD_LENGTH} characters`}
        </span>
      </label>
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Saving…' : 'Set New Password'}
      </button>
    </form>
  );
}
