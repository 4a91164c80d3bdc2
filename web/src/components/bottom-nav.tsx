import { NavLink } from 'react-router';

const TABS = [
  { to: '/app', label: 'Home', icon: '⌂' },
  { to: '/run', label: 'Run', icon: '▶' },
  { to: '/goals', label: 'Goals', icon: '◎' },
  { to: '/groups', label: 'Groups', icon: '⚑' },
  { to: '/profile', label: 'Profile', icon: '☺' },
] as const;

/** The five-tab bottom navigation of §2. */
export function BottomNav() {
  return (
    <nav className="bottom-nav" aria-label="Main">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
          <span className="tab-icon" aria-hidden="true">
            {tab.icon}
          </span>
          <span>{tab.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
