import { Link, useLocation } from 'react-router';
import { Icon } from './icon.tsx';

/**
 * The five tabs of §2 and the screens under each: Run History and a run's detail are the Run tab's, the XP Guide
 * Connected Apps and a stake's receipt the Profile tab's, a goal's stats the Goals tab's, a group the Groups tab's.
 */
const TABS = [
  { to: '/app', label: 'Home', icon: 'home', under: [] },
  { to: '/run', label: 'Run', icon: 'run', under: ['/run-history', '/runs/'] },
  { to: '/goals', label: 'Goals', icon: 'target', under: ['/goals/'] },
  { to: '/groups', label: 'Groups', icon: 'users', under: ['/groups/'] },
  { to: '/profile', label: 'Profile', icon: 'user', under: ['/xp-guide', '/connected-apps', '/stakes/'] },
] as const;

/** The tab a path belongs to, or null (the landing and auth pages have no tab). */
export function tabOf(pathname: string): string | null {
  const tab = TABS.find(
    (t) => pathname === t.to || t.under.some((u) => (u.endsWith('/') ? pathname.startsWith(u) : pathname === u)),
  );
  return tab?.to ?? null;
}

/** The navigation: a bar at the bottom of a phone, a rail at the side of a wide screen (styles). */
export function BottomNav() {
  const active = tabOf(useLocation().pathname);
  return (
    <nav className="bottom-nav" aria-label="Main">
      <span className="nav-brand" aria-hidden="true">
        StrideStake
      </span>
      {TABS.map((tab) => (
        <Link
          key={tab.to}
          to={tab.to}
          className={active === tab.to ? 'tab active' : 'tab'}
          aria-current={active === tab.to ? 'page' : undefined}
        >
          <span className="tab-icon">
            <Icon name={tab.icon} size={22} />
          </span>
          <span>{tab.label}</span>
        </Link>
      ))}
    </nav>
  );
}
