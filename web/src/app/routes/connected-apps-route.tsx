import { Page } from '../../components/page.tsx';
import { useToast } from '../../components/toast.tsx';
import { startConnection } from '../../features/connected-apps/api/start-connection.ts';

const SERVICES = [
  { name: 'Strava', text: 'Sync your runs automatically.', active: true },
  { name: 'Garmin', text: 'Coming soon', active: false },
  { name: 'Apple Health', text: 'Coming soon', active: false },
  { name: 'Google Fit', text: 'Coming soon', active: false },
] as const;

/** Connected apps (§2): Strava active, the others disabled; Connect leaves for the provider's OAuth page. */
export function ConnectedAppsRoute() {
  const toast = useToast();
  const connect = async (name: string) => {
    try {
      window.location.assign(await startConnection(name.toLowerCase()));
    } catch {
      toast.show({ tone: 'error', title: `Failed to connect to ${name}` });
    }
  };
  return (
    <Page title="Connected Apps">
      {SERVICES.map((s) => (
        <section key={s.name} className={s.active ? 'card service' : 'card service disabled'}>
          <div>
            <h2>{s.name}</h2>
            <p className="muted small">{s.text}</p>
          </div>
          <button type="button" className="button primary small" disabled={!s.active} onClick={() => connect(s.name)}>
            {s.active ? 'Connect' : 'Coming soon'}
          </button>
        </section>
      ))}
    </Page>
  );
}
