import type { ReactNode } from 'react';
import { Temporal } from 'temporal-polyfill';
import { relativeTime } from '../../../../../domain/shared/relative-time.ts';
import { type Connection, isImporting } from '../api/get-connections.ts';

/**
 * A service on the connected apps screen (§2): connectable, connected (Sync Now, Disconnect), or not here (its button
 * says why: "Coming soon", or where it is available instead).
 */
export interface ServiceCardProps {
  readonly name: string;
  readonly text: string;
  readonly available: boolean;
  /** The disabled button's words when the service is not available here; "Coming soon" unless told. */
  readonly unavailableLabel?: string;
  /** The button's words when available; "Connect" unless told (a health store on the phone imports instead). */
  readonly actionLabel?: string;
  /** More under the text: a way to bring the service's runs in meanwhile, or why Connect failed. */
  readonly children?: ReactNode;
  readonly connection: Connection | null;
  readonly timeZone: string;
  readonly busy: boolean;
  readonly onConnect: () => void;
  readonly onSync: () => void;
  readonly onDisconnect: () => void;
}

function connectionStatus(connection: Connection, timeZone: string): string {
  if (isImporting(connection) || !connection.last_sync_at)
    return 'Connected · importing your runs from the last 30 days…';
  const when = relativeTime(Temporal.Instant.from(connection.last_sync_at), Temporal.Now.instant(), timeZone);
  return `Connected · last synced ${when}`;
}

export function ServiceCard(props: ServiceCardProps) {
  const { name, connection } = props;
  return (
    <section className={props.available ? 'card service' : 'card service soon'} aria-label={name}>
      <span className={`service-logo ${name.toLowerCase().replace(/\W+/g, '-')}`} aria-hidden="true">
        {name.slice(0, 1)}
      </span>
      <div>
        <h2>{name}</h2>
        <p className="muted small" role={connection ? 'status' : undefined}>
          {connection ? connectionStatus(connection, props.timeZone) : props.text}
        </p>
        {props.children}
      </div>
      {connection ? (
        <div className="service-actions">
          <button type="button" className="button primary small" disabled={props.busy} onClick={props.onSync}>
            Sync Now
          </button>
          <button
            type="button"
            className="button ghost danger small"
            disabled={props.busy}
            onClick={props.onDisconnect}
          >
            Disconnect
          </button>
        </div>
      ) : (
        <button
          type="button"
          className={props.available ? 'button primary small' : 'button small soon-button'}
          disabled={!props.available || props.busy}
          onClick={props.onConnect}
        >
          {props.available ? (props.actionLabel ?? 'Connect') : (props.unavailableLabel ?? 'Coming soon')}
        </button>
      )}
    </section>
  );
}
