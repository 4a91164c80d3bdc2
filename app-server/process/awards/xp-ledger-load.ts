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
  loadManyWithSnapshots,
  loadWithSnapshot,
  rememberWritten,
  type SnapshotCodec,
  type SnapshotLoaded,
  snapshotIfDue,
  snapshotsIfDue,
} from '../../snapshots/snapshot-load.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';

/**
 * The XP ledger's snapshots: one every 50 events, so an award reads at most 50 events however many runs the user
 * ever logged (one run is one or two ledger events). The worker also remembers the ledgers it loads or pays last
 * (5,000 of them, tens of kilobytes each at most), so a run's XP and then its badges read one or two events each
 * instead of every event since the snapshot. Ledger events carry no personal fields.
 */
export const xpLedgerSnapshots: SnapshotCodec<XpLedgerState, XpLedgerSnapshot> = {
  version: XP_LEDGER_SNAPSHOT_VERSION,
  encode: xpLedgerToSnapshot,
  decode: xpLedgerFromSnapshot,
  every: 50,
  remembered: 5_000,
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

/** Many users' ledgers at once (two queries), each as loadXpLedger gives it; keyed by ledger stream id. */
export function loadXpLedgers(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  streamIds: readonly string[],
  codec: SnapshotCodec<XpLedgerState, XpLedgerSnapshot> = xpLedgerSnapshots,
): Promise<Map<string, SnapshotLoaded<XpLedgerState>>> {
  return loadManyWithSnapshots(store, tx, xpLedgerDecider, codec, streamIds);
}

/**
 * payIntoLedger for a whole batch of commands, in their order, in a few statements instead of a few per command: every
 * ledger is read at once from its newest snapshot, each command is decided in memory against its ledger with the
 * earlier commands' events folded in, every ledger's new events are appended in one statement (each expecting the
 * revision it was read at), and the snapshots now due are written in one more. Only this process writes ledgers, in
 * its batch's transaction, so reading them all first reads what reading each before its command would. A refusal
 * throws, as executeCommand does, and the transaction writes nothing. A ledger gets at most one new snapshot per
 * batch (at its last revision), where paying one by one may take one mid-way: snapshots are only a cache, and either
 * way no ledger is left more than `codec.every` events past its snapshot.
 */
export async function payIntoLedgers(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  payments: readonly { readonly command: XpLedgerCommand; readonly metadata: CommandMetadata }[],
  codec: SnapshotCodec<XpLedgerState, XpLedgerSnapshot> = xpLedgerSnapshots,
): Promise<void> {
  if (payments.length === 0) return;
  const ids = payments.map((p) => streams.xpLedger(p.command.userId));
  const loaded = await loadXpLedgers(store, tx, ids, codec);
  const batch = new DecisionBatch(store, xpLedgerDecider, tx);
  for (const [id, ledger] of loaded) batch.seed(id, ledger.state, ledger.expectedVersion);
  for (const { command, metadata } of payments) {
    const decided = await batch.decide(streams.xpLedger(command.userId), command, metadata);
    if (!decided.ok) throw new DomainRefusal(decided.refusal);
  }
  const written = await batch.flush();
  const snapshots = [];
  for (const { streamId, nextExpectedRevision, lastEventId } of written) {
    const state = await batch.state(streamId);
    snapshots.push({ streamId, loaded: loaded.get(streamId)!, state, revision: nextExpectedRevision, lastEventId });
  }
  const snapshotted = await snapshotsIfDue(tx, codec, snapshots);
  rememberWritten(
    store,
    codec,
    snapshots.map((s) => ({
      streamId: s.streamId,
      state: s.state,
      revision: s.revision,
      eventId: s.lastEventId,
      snapshotRevision: snapshotted.has(s.streamId) ? s.revision : s.loaded.snapshotRevision,
    })),
  );
}
