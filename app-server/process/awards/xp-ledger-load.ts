import type { Transaction } from 'kysely';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { xpLedgerDecider } from '../../../domain/xp/decide.ts';
import {
  XP_LEDGER_SNAPSHOT_VERSION,
  type XpLedgerSnapshot,
  xpLedgerFromSnapshot,
  xpLedgerToSnapshot,
} from '../../../domain/xp/snapshot.ts';
import type { XpLedgerState } from '../../../domain/xp/state.ts';
import type { XpLedgerCommand } from '../../../domain/xp/commands.ts';
import { streams } from '../../../domain/shared/streams.ts';
import type { CommandMetadata } from '../../commands/event-metadata.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import {
  loadWithSnapshot,
  type SnapshotCodec,
  type SnapshotLoaded,
  snapshotIfDue,
} from '../../snapshots/snapshot-load.ts';

/**
 * The XP ledger's snapshots: one every 50 events, so an award reads at most 50 events however many runs the user
 * ever logged (one run is one or two ledger events).
 */
export const xpLedgerSnapshots: SnapshotCodec<XpLedgerState, XpLedgerSnapshot> = {
  version: XP_LEDGER_SNAPSHOT_VERSION,
  encode: xpLedgerToSnapshot,
  decode: xpLedgerFromSnapshot,
  every: 50,
};

/** A user's ledger: newest snapshot + the events after it (the same state as folding the whole stream). */
export function loadXpLedger(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  streamId: string,
  codec: SnapshotCodec<XpLedgerState, XpLedgerSnapshot> = xpLedgerSnapshots,
): Promise<SnapshotLoaded<XpLedgerState>> {
  return loadWithSnapshot(store, tx, xpLedgerDecider, codec, streamId);
}

/**
 * One ledger command inside the process's transaction: the ledger read from its newest snapshot on, decided,
 * appended, and a new snapshot written in the same transaction once `codec.every` events followed the last one, so
 * an award's cost no longer grows with the user's history.
 */
export async function payIntoLedger(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  command: XpLedgerCommand,
  metadata: CommandMetadata,
  codec: SnapshotCodec<XpLedgerState, XpLedgerSnapshot> = xpLedgerSnapshots,
) {
  const streamId = streams.xpLedger(command.userId);
  let loaded: SnapshotLoaded<XpLedgerState> | null = null;
  const result = await executeCommand(store, xpLedgerDecider, streamId, command, metadata, {
    transaction: tx,
    load: async () => {
      loaded = await loadXpLedger(store, tx, streamId, codec);
      return loaded;
    },
  });
  const read = loaded as SnapshotLoaded<XpLedgerState> | null;
  if (result.append && read) {
    await snapshotIfDue(tx, codec, streamId, read, result.state, result.append.nextExpectedRevision);
  }
  return result;
}
