import type { RecordedEvent } from '../../domain/shared/event-store.ts';

/** Connected services that can be linked (the second fitness service is offered but not implemented, §1). */
export type IntegrationProvider = 'strava';

/**
 * The lifecycle of one connection, stream `external-account-<connectionId>`. No personal data: no tokens, no
 * athlete id or name (those stay in the external_accounts table), only our user id, dates and counts.
 */
export type ConnectionEvent =
  | {
      readonly type: 'ExternalAccountConnected';
      readonly data: {
        readonly connectionId: string;
        readonly userId: string;
        readonly provider: IntegrationProvider;
        readonly scopes: readonly string[];
        /** The backfill window (§9: the last 30 days before the connection). */
        readonly backfillFrom: string;
        readonly backfillTo: string;
        readonly connectedAt: string;
      };
    }
  | {
      readonly type: 'ExternalBackfillPageImported';
      readonly data: {
        readonly connectionId: string;
        readonly userId: string;
        /** 1-based page of the activity list that is now fully imported. */
        readonly page: number;
        readonly activities: number;
        readonly imported: number;
        readonly importedAt: string;
      };
    }
  | {
      readonly type: 'ExternalBackfillCompleted';
      readonly data: { readonly connectionId: string; readonly userId: string; readonly completedAt: string };
    }
  | {
      readonly type: 'ExternalAccountDisconnected';
      readonly data: {
        readonly connectionId: string;
        readonly userId: string;
        readonly provider: IntegrationProvider;
        /** user: Disconnect; deauthorized: revoked at Strava; replaced: reconnected; erased: account erasure. */
        readonly reason: 'user' | 'deauthorized' | 'replaced' | 'erased';
        readonly disconnectedAt: string;
      };
    };

export const CONNECTION_EVENT_TYPES: ReadonlySet<string> = new Set([
  'ExternalAccountConnected',
  'ExternalBackfillPageImported',
  'ExternalBackfillCompleted',
  'ExternalAccountDisconnected',
]);

export const connectionStream = (connectionId: string) => `external-account-${connectionId}`;

/** Where a connection's backfill stands, folded from its stream. */
export interface ConnectionState {
  readonly status: 'none' | 'backfilling' | 'backfilled' | 'disconnected';
  readonly userId: string | null;
  readonly backfillFrom: Date | null;
  readonly backfillTo: Date | null;
  /** The next page of the activity list to import. */
  readonly nextPage: number;
  /** Revision of the last event, for the next append's expected version. */
  readonly revision: number | 'no_stream';
}

export const initialConnectionState: ConnectionState = {
  status: 'none',
  userId: null,
  backfillFrom: null,
  backfillTo: null,
  nextPage: 1,
  revision: 'no_stream',
};

/** Folds a connection stream. */
export function foldConnection(events: readonly RecordedEvent[]): ConnectionState {
  let state = initialConnectionState;
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as ConnectionEvent;
    state = { ...state, revision: recorded.streamRevision };
    switch (event.type) {
      case 'ExternalAccountConnected':
        state = {
          ...state,
          status: 'backfilling',
          userId: event.data.userId,
          backfillFrom: new Date(event.data.backfillFrom),
          backfillTo: new Date(event.data.backfillTo),
          nextPage: 1,
        };
        break;
      case 'ExternalBackfillPageImported':
        state = { ...state, nextPage: Math.max(state.nextPage, event.data.page + 1) };
        break;
      case 'ExternalBackfillCompleted':
        if (state.status === 'backfilling') state = { ...state, status: 'backfilled' };
        break;
      case 'ExternalAccountDisconnected':
        state = { ...state, status: 'disconnected' };
        break;
      default:
        break;
    }
  }
  return state;
}
