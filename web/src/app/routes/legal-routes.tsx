import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title.ts';

function LegalPage({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main className="page legal">
      <Link to="/" className="muted small">
        ← StrideStake
      </Link>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/** Terms of service (§2). */
export function TermsRoute() {
  return (
    <LegalPage title="Terms of Service">
      <p>You must be at least 18 years old to use StrideStake.</p>
      <p>
        When you add a stake, we place an authorization hold on your card (for example a $5 hold) when the goal’s week
        starts. If you meet your weekly goal, the hold is released. If you miss it, or cancel the goal once its week has
        started, the stake is captured: 80% goes to the charity you chose and 20% is our service fee; without a charity,
        100% is kept as the fee. Canceling a goal before its week starts costs nothing.
      </p>
      <p>Goals run Monday to Sunday. Settlement happens Monday 00:00 Eastern after the week ends.</p>
    </LegalPage>
  );
}

/** Privacy policy (§2). */
export function PrivacyRoute() {
  return (
    <LegalPage title="Privacy Policy">
      <p>We store your account, goals, runs (including GPS tracks) and stakes to run the service.</p>
      <p>Runs synced from Strava are shown only to you. Payment records are retained for about 7 years.</p>
      <p>
        Questions: <a href="mailto:privacy@stridestake.app">privacy@stridestake.app</a>
      </p>
    </LegalPage>
  );
}

/** Data deletion (§2): the e-mail request route. */
export function DataDeletionRoute() {
  return (
    <LegalPage title="Data Deletion">
      <p>
        To delete your account and personal data, email{' '}
        <a href="mailto:privacy@stridestake.app">privacy@stridestake.app</a> from your account’s address.
      </p>
      <p>Deletion requests are processed within 30 days. Payment records are retained for about 7 years.</p>
    </LegalPage>
  );
}
