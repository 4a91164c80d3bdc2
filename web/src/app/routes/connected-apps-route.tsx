import { Page } from '../../components/page.tsx';

const SERVICES = [
  { name: 'Strava', text: 'Sync your runs automatically.', active: true },
  { name: 'Garmin', text: 'Coming soon', active: false },
  { name: 'Apple Health', text: 'Coming soon', active: false },
  { name: 'Google Fit', text: 'Coming soon', active: false },
] as const;

/** Connected apps (§2): Strava active, the others disabled. The OAuth start is not served by this API yet. */
export function ConnectedAppsRoute() {
  return (
    <Page title="Connected Apps">
      {SERVICES.map((s) => (
        <section key={s.name} className={s.active ? 'card service' : 'card service disabled'}>
          <div>
            <h2>{s.name}</h2>
            <p className="muted small">{s.text}</p>
          </div>
          <button type="button" className="button primary small" disabled={!s.active}>
            {s.active ? 'Connect' : 'Coming soon'}
          </button>
        </section>
      ))}
    </Page>
  );
}
