import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { SignupForm } from '../../features/auth/components/signup-form.tsx';
import { LandingPage } from '../../features/landing/components/landing-page.tsx';

function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <Link to="/" className="brand">
        StrideStake
      </Link>
      <section className="card auth-card">
        <h1>{title}</h1>
        <p className="muted">{subtitle}</p>
        {children}
      </section>
    </main>
  );
}

/** /login (§2). */
export function LoginRoute() {
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to keep your streak alive.">
      <LoginForm />
    </AuthCard>
  );
}

/** /signup (§2). */
export function SignupRoute() {
  return (
    <AuthCard title="Create your account" subtitle="Set your first weekly goal in a minute.">
      <SignupForm />
    </AuthCard>
  );
}

/** / on the web: the landing page (§2). */
export function LandingRoute() {
  return <LandingPage />;
}
