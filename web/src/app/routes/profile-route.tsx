import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_TIME_ZONE } from '../../../../domain/shared/time-zone.ts';
import { Page } from '../../components/page.tsx';
import { useToast } from '../../components/toast.tsx';
import { BadgeGrid } from '../../features/badges/components/badge-grid.tsx';
import { ActivityHeatmap } from '../../features/profile/components/activity-heatmap.tsx';
import { DownloadMyData } from '../../features/profile/components/download-my-data.tsx';
import { DonationImpactCard } from '../../features/profile/components/donation-impact-card.tsx';
import { HowItWorksModal } from '../../features/profile/components/how-it-works-modal.tsx';
import { NotificationSettingsModal } from '../../features/profile/components/notification-settings-modal.tsx';
import { TimezoneModal } from '../../features/profile/components/timezone-modal.tsx';
import { UnitModal } from '../../features/profile/components/unit-modal.tsx';
import { SavedCards } from '../../features/goals/components/saved-cards.tsx';
import { StakeList } from '../../features/stakes/components/stake-list.tsx';
import { useMe } from '../../features/user/api/get-me.ts';
import { useXp } from '../../features/user/api/get-xp.ts';
import { useAuth } from '../../lib/auth.tsx';
import { setDemoMode, useDemoMode } from '../../lib/demo-mode.ts';
import { useDistanceUnit } from '../../lib/distance-unit.ts';

/** Profile (§2): email and level ring, Badges/Stakes tabs (?tab=stakes), heatmap, settings, demo toggle, sign out. */
export function ProfileRoute() {
  const me = useMe();
  const xp = useXp();
  const unit = useDistanceUnit();
  const demo = useDemoMode();
  const { signOut } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'stakes' ? 'stakes' : 'badges';
  const [modal, setModal] = useState<'unit' | 'timezone' | 'notifications' | 'how' | null>(null);
  const fraction = xp.data && xp.data.xp_for_level > 0 ? xp.data.xp_into_level / xp.data.xp_for_level : 1;

  const leave = async () => {
    try {
      await signOut();
      navigate('/', { replace: true });
    } catch {
      toast.show({ tone: 'error', title: 'Failed to sign out' });
    }
  };

  return (
    <Page title="Profile">
      <section className="card profile-head">
        <div className="level-ring" style={{ ['--fill' as string]: `${Math.round(fraction * 360)}deg` }}>
          <span>{xp.data?.level_label ?? me.data?.level ?? 1}</span>
        </div>
        <div>
          <h2>{me.data?.display_name}</h2>
          <p className="muted small">{me.data?.email}</p>
          <p className="tier">{xp.data?.tier ?? me.data?.tier}</p>
        </div>
      </section>

      <div className="tabs" role="tablist">
        {(['badges', 'stakes'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={tab === t ? 'tab-button active' : 'tab-button'}
            onClick={() => setParams(t === 'stakes' ? { tab: 'stakes' } : {})}
          >
            {t === 'badges' ? 'Badges' : 'Stakes'}
          </button>
        ))}
      </div>
      <section className="card">
        {tab === 'badges' ? <BadgeGrid /> : <StakeList timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE} />}
      </section>

      {me.data ? <ActivityHeatmap timeZone={me.data.timezone} /> : null}
      {demo ? null : <DonationImpactCard />}
      {demo ? null : <SavedCards />}

      <section className="card">
        <ul className="list settings">
          <li>
            <button type="button" className="list-row" onClick={() => setModal('how')}>
              <span>How It Works</span>
              <span aria-hidden="true">›</span>
            </button>
          </li>
          <li>
            <Link className="list-row" to="/xp-guide">
              <span>XP Guide</span>
              <span aria-hidden="true">›</span>
            </Link>
          </li>
          <li>
            <Link className="list-row" to="/connected-apps">
              <span>Connected Apps</span>
              <span aria-hidden="true">›</span>
            </Link>
          </li>
          <li>
            <button type="button" className="list-row" onClick={() => setModal('notifications')}>
              <span>Notification Settings</span>
              <span aria-hidden="true">›</span>
            </button>
          </li>
          <li>
            <button type="button" className="list-row" onClick={() => setModal('unit')}>
              <span>Distance unit</span>
              <span className="muted">{unit}</span>
            </button>
          </li>
          <li>
            <button type="button" className="list-row" onClick={() => setModal('timezone')}>
              <span>Timezone</span>
              <span className="muted">{me.data?.timezone}</span>
            </button>
          </li>
          {demo ? null : (
            <li>
              <DownloadMyData />
            </li>
          )}
          <li>
            <label className="list-row switch-row">
              <span>
                Demo mode
                <span className="muted small">Sample data in this browser; nothing is saved to your account</span>
              </span>
              <input
                type="checkbox"
                role="switch"
                className="switch"
                checked={demo}
                aria-checked={demo}
                onChange={(e) => setDemoMode(e.target.checked)}
              />
            </label>
          </li>
        </ul>
      </section>

      <nav className="legal-links">
        <Link to="/privacy">Privacy</Link>
        <Link to="/terms">Terms</Link>
        <Link to="/data-deletion">Data Deletion</Link>
      </nav>
      <button
        type="button"
        className="button ghost danger block"
        onClick={
          demo
            ? () => {
                setDemoMode(false);
                navigate('/');
              }
            : leave
        }
      >
        {demo ? 'Exit Demo' : 'Sign Out'}
      </button>

      {modal === 'how' ? <HowItWorksModal onClose={() => setModal(null)} /> : null}
      {modal === 'notifications' ? <NotificationSettingsModal onClose={() => setModal(null)} /> : null}
      {modal === 'unit' ? <UnitModal current={unit} onClose={() => setModal(null)} /> : null}
      {modal === 'timezone' && me.data ? (
        <TimezoneModal current={me.data.timezone} onClose={() => setModal(null)} />
      ) : null}
    </Page>
  );
}
