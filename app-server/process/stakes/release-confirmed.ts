import type { Transaction } from 'kysely';
import { type EventStore, WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import { toNewEvent } from '../../commands/execute-command.ts';
import { stakeProcessMetadata } from './process-metadata.ts';

/**
 * The provider's answer to a release (StakeReleased or StakeLateHoldReleased with a hold). The stake aggregate ends
 * at the release decision; this outcome lives in its own stream, one per release key, so an auditor can tell a
 * release that reached the card from one still owed ("0 lost releases").
 */
export type StakeHoldReleaseConfirmed = {
  readonly type: 'StakeHoldReleaseConfirmed';
  readonly data: {
    readonly stakeId: string;
    readonly paymentIntentId: string;
    readonly idempotencyKey: string;
    /** `released`, or `already_captured` (a contradiction the audit reports). */
    readonly result: 'released' | 'already_captured';
    readonly amountCapturedCents: number;
    readonly confirmedAt: string;
  };
};

/** The stream of one release's outcome. */
export function releaseStreamId(idempotencyKey: string): string {
  return `stake-release-${idempotencyKey}`;
}

/** Records a release outcome once; a repeat (a tick replayed after a crash) finds the stream and changes nothing. */
export async function recordReleaseConfirmed(
  store: EventStore<Transaction<object>>,
  event: StakeHoldReleaseConfirmed,
  now: Date,
): Promise<void> {
  try {
    await store.appendToStream(
      releaseStreamId(event.data.idempotencyKey),
      [toNewEvent(event, stakeProcessMetadata(now, null, `stakes-release-${event.data.idempotencyKey}`))],
      { expectedVersion: 'no_stream' },
    );
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
  }
}
