import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_TIME_ZONE } from '../../../../domain/shared/time-zone.ts';
import { Page } from '../../components/page.tsx';
import { useToast } from '../../components/toast.tsx';
import { useDisconnectConnection, useSyncConnection } from '../../features/connected-apps/api/connection-mutations.ts';
import { useConnections } from '../../features/connected-apps/api/get-connections.ts';
import { completeConnection, startConnection } from '../../features/connected-apps/api/start-connection.ts';
import { ServiceCard } from '../../features/connected-apps/components/service-card.tsx';
import {
  type ConnectionHandOver,
  type ConnectionReturn,
  connectedMessage,
  connectionHandOver,
  connectionReturn,
  returnErrorMessage,
  SERVICE_NAMES,
} from '../../features/connected-apps/connection-return.ts';
import { servicesOn } from '../../features/connected-apps/services.ts';
import { useMe } from '../../features/user/api/get-me.ts';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { countOf } from '../../lib/format.ts';
import type { HealthStore } from '../../lib/platform/health.ts';
import { platform } from '../../lib/platform/index.ts';

/** Where a run file is imported (the run history's import). */
const RUN_FILE_IMPORT = '/run-history#import';

/**
 * Completions by state: one POST per hand-over, however often the page mounts (a state is single-use: a second POST
 * would be refused and announce an error over the success).
 */
const completions = new Map<string, Promise<ConnectionReturn>>();

function finishConnection(handOver: ConnectionHandOver): Promise<ConnectionReturn> {
  let pending = completions.get(handOver.state);
  if (!pending) {
    pending = completeConnection(handOver).then(
      () => connectedMessage(handOver.provider),
      (error: unknown) => returnErrorMessage(error instanceof ApiError ? error.code : null),
    );
    completions.set(handOver.state, pending);
  }
  return pending;
}

/**
 * Connected apps (§2, §4): Connect leaves for the provider's OAuth page. The API's callback comes back here with the
 * provider's code and state in the fragment (#provider&code&state&scope), which this page completes with the
 * session's token (the API links the account only for the session that started: integrations routes); errors come
 * back as ?error=. The outcome is announced, the backfill it started is shown until done; a connected service
 * offers Sync Now and Disconnect.
 */
export function ConnectedAppsRoute() {
  const toast = useToast();
  const { session } = useAuth();
  const me = useMe();
  const connections = useConnections();
  const sync = useSyncConnection();
  const disconnect = useDisconnectConnection();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  // Read once: the query is then dropped from the address so a reload does not announce the return again.
  const [announced, setAnnounced] = useState<ConnectionReturn | null>(() => connectionReturn(params));
  useEffect(() => {
    if (params.has('success') || params.has('error')) setParams({}, { replace: true });
  }, [params, setParams]);
  // The hand-over is read once and dropped from the address at once (the code is a secret, if a short-lived one).
  const [handOver] = useState(() => connectionHandOver(window.location.hash));
  const [completing, setCompleting] = useState(handOver !== null);
  const [connectRefusal, setConnectRefusal] = useState<{ readonly provider: string; readonly message: string } | null>(
    null,
  );
  useEffect(() => {
    if (!handOver) return;
    navigate('/connected-apps', { replace: true });
    let live = true;
    void finishConnection(handOver).then((result) => {
      if (!live) return;
      setCompleting(false);
      setAnnounced(result);
      if (result.tone === 'success') void queryClient.invalidateQueries({ queryKey: ['connections'] });
    });
    return () => {
      live = false;
    };
  }, [handOver, navigate, queryClient]);

  const connect = async (provider: string, name: string) => {
    if (!session) {
      toast.show({ tone: 'error', title: 'Please log in to connect apps' });
      return;
    }
    setConnectRefusal(null);
    try {
      window.location.assign(await startConnection(provider));
    } catch (error) {
      // Not configured on this server (503): the card keeps the API's sentence naming what an operator must set.
      if (error instanceof ApiError && error.status === 503)
        setConnectRefusal({ provider, message: errorMessage(error, '') });
      toast.show({ tone: 'error', title: `Failed to connect to ${name}`, description: errorMessage(error, '') });
    }
  };
  const [importing, setImporting] = useState(false);
  /** The phone's health store: its running workouts since the last import become runs (native/src/health-import.ts). */
  const importFromHealth = async (health: HealthStore, name: string) => {
    setImporting(true);
    try {
      const result = await health.importWorkouts();
      toast.show({
        tone: result.ok ? 'success' : 'error',
        title: result.ok ? `${name}: ${countOf(result.imported, 'new run')} imported` : `${name} import failed`,
        description: result.message,
      });
      if (result.imported > 0) await queryClient.invalidateQueries();
    } finally {
      setImporting(false);
    }
  };
  const syncNow = (provider: string) =>
    sync.mutate(provider, {
      onSuccess: (result) =>
        toast.show({
          tone: 'success',
          title: 'Sync complete',
          description: result.imported === 0 ? 'No new runs.' : `${countOf(result.imported, 'new run')} imported.`,
        }),
      onError: (error) => toast.show({ tone: 'error', title: 'Sync failed', description: errorMessage(error, '') }),
    });
  const disconnectNow = (provider: string, name: string) => {
    if (!window.confirm(`Disconnect ${name}? Runs already imported stay in your history.`)) return;
    setAnnounced(null);
    disconnect.mutate(provider, {
      onSuccess: () => toast.show({ tone: 'success', title: `${name} disconnected` }),
      onError: (error) =>
        toast.show({ tone: 'error', title: 'Failed to disconnect account', description: errorMessage(error, '') }),
    });
  };

  const list = connections.data ?? [];
  return (
    <Page title="Connected Apps" back="/profile">
      {completing && handOver ? (
        <p className="card return-message" role="status">
          Connecting{' '}
          {Object.hasOwn(SERVICE_NAMES, handOver.provider) ? SERVICE_NAMES[handOver.provider] : 'your account'}…
        </p>
      ) : null}
      {announced ? (
        <p className={`card return-message ${announced.tone}`} role={announced.tone === 'error' ? 'alert' : 'status'}>
          {announced.message}
        </p>
      ) : null}
      {servicesOn(platform().name, platform().health).map((s) => (
        <ServiceCard
          key={s.provider}
          name={s.name}
          text={s.text}
          available={s.available}
          {...(s.unavailable ? { unavailableLabel: s.unavailable } : {})}
          {...(s.health ? { actionLabel: 'Import Workouts' } : {})}
          connection={list.find((c) => c.provider === s.provider) ?? null}
          timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE}
          busy={sync.isPending || disconnect.isPending || importing}
          onConnect={() => (s.health ? importFromHealth(s.health, s.name) : connect(s.provider, s.name))}
          onSync={() => syncNow(s.provider)}
          onDisconnect={() => disconnectNow(s.provider, s.name)}
        >
          {s.provider === 'garmin' ? (
            <p className="muted small">
              Garmin watches (and Coros, Polar and Suunto ones) write FIT files: import one into your run history.{' '}
              <Link to={RUN_FILE_IMPORT}>Import a FIT file</Link>
            </p>
          ) : null}
          {connectRefusal?.provider === s.provider ? (
            <p className="field-error small" role="alert">
              {connectRefusal.message}
            </p>
          ) : null}
        </ServiceCard>
      ))}
    </Page>
  );
}
