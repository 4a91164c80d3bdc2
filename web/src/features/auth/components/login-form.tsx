import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useToast } from '../../../components/toast.tsx';
import { useAuth } from '../../../lib/auth.tsx';

/** Email and password sign-in (§2 /login); a failure shows the §8 toast. */
export function LoginForm() {
  const { signIn } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await signIn(email.trim(), password);
      toast.clearErrors();
      navigate('/app', { replace: true });
    } catch (error) {
      const message =
        error instanceof Error && error.message ? error.message : 'Please check your credentials and try again.';
      toast.show({ tone: 'error', title: 'Sign in failed', description: message });
    } finally {
      setBusy(false);
    }
  };

  return (
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
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign In'}
      </button>
      <p className="muted center">
        Don’t have an account? <Link to="/signup">Sign up</Link>
      </p>
    </form>
  );
}
