import { NavLink } from 'react-router';
import { Icon } from './icon.tsx';

const TABS = [
  { to: '/app', label: 'Home', icon: 'home' },
  { to: '/run', label: 'Run', icon: 'run' },
  { to: '/goals', label: 'Goals', icon: 'target' },
  { to: '/groups', label: 'Groups', icon: 'users' },
  { to: '/profile', label: 'Profile', icon: 'user' },
] as const;

/** The five-tab bottom navigation of §2. */
export function BottomNav() {
  return (
    <nav className="bottom-nav" aria-label="Main">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
          <span className="tab-icon">
            <Icon name={tab.icon} size={22} />
          </span>
          <span>{tab.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
