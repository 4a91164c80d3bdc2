import { isAuthWeakPasswordError } from '@supabase/auth-js';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '../../../../../domain/validation/auth.ts';
import { useToast } from '../../../components/toast.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { authFailureMessage } from '../lib/auth-messages.ts';
import { ConfirmCodeForm } from './confirm-code-form.tsx';

/**
 * Sign-up (§2 /signup): the form, then the Check Your Email panel, which can go back to the form; `onSentChange`
 * tells the page which of the two shows (its heading follows).
 */
export function SignupForm({ onSentChange }: { readonly onSentChange?: (sent: boolean) => void } = {}) {
  const { signUp } = useAuth();
  const toast = useToast();
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSentState] = useState(false);
  const setSent = (value: boolean) => {
    setSentState(value);
    onSentChange?.(value);
  };
  const [passwordError, setPasswordError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The server derives a name when a client sends none; this form asks for one (§5), spaces alone are not one.
    if (displayName.trim() === '') {
      toast.show({ tone: 'error', title: 'Sign up failed', description: 'Display name is required' });
      return;
    }
    if ([...password].length < MIN_PASSWORD_LENGTH) {
      setPasswordError(PASSWORD_TOO_SHORT);
      toast.show({ tone: 'error', title: 'Password too short', description: PASSWORD_TOO_SHORT });
      return;
    }
    setPasswordError(null);
    setBusy(true);
    try {
      await signUp({ displayName: displayName.trim(), email: email.trim(), password });
      toast.clearErrors();
      setSent(true);
    } catch (error) {
      const message = authFailureMessage(error);
      // Other password rules (spaces only, a common password) are the server's: its message shows under the field.
      if (isAuthWeakPasswordError(error)) setPasswordError(message);
      toast.show({ tone: 'error', title: 'Sign up failed', description: message });
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      // The page's heading reads Check Your Email while this panel shows.
      <section className="card confirm-panel" aria-label="Check Your Email">
        <p>
          We sent a confirmation link to <strong>{email.trim()}</strong>.
        </p>
        <ol className="next-steps">
          <li>Open the email from StrideStake.</li>
          <li>Click the confirmation link, or enter the code from the email below.</li>
          <li>Set your first weekly goal.</li>
        </ol>
        <ConfirmCodeForm email={email.trim()} />
        <Link to="/login" className="button secondary block">
          Go to Sign In
        </Link>
        <button type="button" className="button ghost block" onClick={() => setSent(false)}>
          Try a Different Email
        </button>
      </section>
    );
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate={false}>
      <label>
        Display name
        <input required autoComplete="nickname" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
      </label>
      <label>
        Email
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={passwordError !== null}
        />
        <span className={passwordError ? 'field-error' : 'field-hint'}>
          {passwordError ?? `At least ${MIN_PASSWORD_LENGTH} characters`}
        </span>
      </label>
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Creating account…' : 'Create Account'}
      </button>
      <p className="muted center">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </form>
  );
}
