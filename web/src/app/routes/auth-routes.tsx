import { type ReactNode, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { Spinner } from '../../components/spinner.tsx';
import { ForgotPasswordForm, ResetPasswordForm } from '../../features/auth/components/password-reset-forms.tsx';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { SignedOutNotice } from '../../features/auth/components/signed-out-notice.tsx';
import { SignupForm } from '../../features/auth/components/signup-form.tsx';
import { LandingPage } from '../../features/landing/components/landing-page.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { platform } from '../../lib/platform/index.ts';

function AuthCard({
  title,
  subtitle,
  tab,
  children,
}: {
  title: string;
  subtitle: string;
  tab: string;
  children: ReactNode;
}) {
  useDocumentTitle(tab);
  return (
    <main className="auth-page">
      <Link to="/" className="brand">
        StrideStake
      </Link>
      <section className="card auth-card">
        <h1>{title}</h1>
        <p className="muted">{subtitle}</p>
        <SignedOutNotice />
        {children}
      </section>
    </main>
  );
}

/** /login (§2). */
export function LoginRoute() {
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to keep your streak alive." tab="Sign In">
      <LoginForm />
    </AuthCard>
  );
}

/** /signup (§2); once the form is sent, the page's heading is the Check Your Email panel's. */
export function SignupRoute() {
  const [sent, setSent] = useState(false);
  return (
    <AuthCard
      title={sent ? 'Check Your Email' : 'Create your account'}
      subtitle={sent ? 'One step left: confirm your email address.' : 'Set your first weekly goal in a minute.'}
      tab="Sign Up"
    >
      <SignupForm onSentChange={setSent} />
    </AuthCard>
  );
}

/** /forgot-password: the address to mail a recovery link to, then "check your email". */
export function ForgotPasswordRoute() {
  return (
    <AuthCard title="Reset your password" subtitle="We’ll email you a link to set a new one." tab="Reset Password">
      <ForgotPasswordForm />
    </AuthCard>
  );
}

/** /reset-password: where the mailed recovery link lands, signed in with a recovery session. */
export function ResetPasswordRoute() {
  return (
    <AuthCard title="Set a new password" subtitle="Choose a new password for your account." tab="Set a New Password">
      <ResetPasswordForm />
    </AuthCard>
  );
}

/**
 * `/` (§2): the landing page on the web, under the sentence saying why the runner was signed out if it was not
 * their doing; in the native app, /app when signed in, else /login (which shows that sentence).
 */
export function LandingRoute() {
  useDocumentTitle('Weekly running goals with money on the line');
  return platform().shell.hasLanding ? (
    <>
      <SignedOutNotice />
      <LandingPage />
    </>
  ) : (
    <ShellHome />
  );
}

function ShellHome() {
  const { session, loading } = useAuth();
  if (loading) return <Spinner />;
  return <Navigate to={session ? '/app' : '/login'} replace />;
}
