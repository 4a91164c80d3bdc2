import { Link, useNavigate } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { setDemoMode } from '../../../lib/demo-mode.ts';
import { hasStoredSession } from '../../../lib/stored-session.ts';

const FEATURES = [
  { title: 'Set Goals', text: 'Pick a weekly distance or number of runs. Weeks run Monday to Sunday.', icon: 'target' },
  { title: 'Add Stakes', text: 'Put $5–$100 on the line. Hit your goal and the hold is released.', icon: 'dollar' },
  {
    title: 'Join Groups',
    text: 'Run with friends: shared feed, reactions, leaderboards and team challenges.',
    icon: 'users',
  },
  {
    title: 'Earn Badges',
    text: 'Streaks, XP, 50 levels in 10 tiers, and badges for the runs that matter.',
    icon: 'medal',
  },
] as const;

const STEPS = [
  'Create your free account and set this week’s goal.',
  'Choose a stake — or keep it free — and pick a charity.',
  'Log runs with built-in GPS or sync from Strava.',
  'Hit your goal: the hold is released. Miss it: your stake goes to charity.',
] as const;

/**
 * The public landing page (§2): hero, features, how it works, charity, connected services, footer. A signed-in
 * visitor gets a way into the app in place of the sign-up and sign-in calls.
 */
export function LandingPage() {
  const navigate = useNavigate();
  // The stored session, not the auth client: the landing page loads without it (main.tsx).
  const session = hasStoredSession();
  const tryDemo = () => {
    setDemoMode(true);
    navigate('/app');
  };
  return (
    <div className="landing">
      <header className="landing-nav">
        <span className="brand">StrideStake</span>
        {session ? (
          <Link to="/app" className="button primary small">
            Open App
          </Link>
        ) : (
          <Link to="/login" className="button ghost small">
            Sign In
          </Link>
        )}
      </header>

      <main>
        <section className="hero">
          <p className="eyebrow">Running accountability</p>
          <h1>Run your weekly goal. Put money on it.</h1>
          <p className="lead">
            Set a weekly running goal, optionally stake $5–$100, and let your friends cheer you on. Miss it, and 80% of
            your stake goes to a charity you choose.
          </p>
          <div className="cta-row">
            {session ? (
              <Link to="/app" className="button primary large">
                Go to Your Dashboard
              </Link>
            ) : (
              <>
                <Link to="/signup" className="button primary large">
                  Get Started Free
                </Link>
                <button type="button" className="button ghost large" onClick={tryDemo}>
                  Try the Demo
                </button>
              </>
            )}
          </div>
        </section>

        <section className="landing-section">
          <h2>Everything you need to keep running</h2>
          <div className="feature-grid">
            {FEATURES.map((f) => (
              <article key={f.title} className="card feature">
                <span className="feature-icon">
                  <Icon name={f.icon} size={22} />
                </span>
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </article>
            ))}
          </div>
        </section>

        <section className="landing-section">
          <h2>How it works</h2>
          <ol className="steps">
            {STEPS.map((step, i) => (
              <li key={step}>
                <span className="step-number">{i + 1}</span>
                <span>{step}</span>
              </li>
            ))}
          </ol>
        </section>

        <section className="landing-section card charity-callout">
          <h2>Every missed week does some good</h2>
          <p>
            A captured stake goes 80% to your chosen charity and 20% to StrideStake as a service fee. Without a charity,
            it all goes to StrideStake — so pick one.
          </p>
        </section>

        <section className="landing-section">
          <h2>Bring your runs with you</h2>
          <p className="muted">
            Connect Strava to sync runs automatically, or track with built-in GPS. Import the FIT files Garmin, Coros
            and Polar watches write; the StrideStake app for Android and iPhone reads Health Connect and Apple Health.
          </p>
        </section>

        <section className="hero final-cta">
          <h2>Ready for your best week?</h2>
          <Link to="/signup" className="button primary large">
            Create Free Account
          </Link>
        </section>
      </main>

      <footer className="landing-footer">
        <nav>
          <Link to="/signup">Sign Up</Link>
          <Link to="/login">Sign In</Link>
          <Link to="/terms">Terms</Link>
          <Link to="/privacy">Privacy</Link>
          <Link to="/data-deletion">Data Deletion</Link>
        </nav>
        <p className="muted small">
          Support: <a href="mailto:support@stridestake.app">support@stridestake.app</a> · Legal:{' '}
          <a href="mailto:legal@stridestake.app">legal@stridestake.app</a>
        </p>
      </footer>
    </div>
  );
}
