import type { Transaction } from 'kysely';
import { type EventStore, WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { appendEvents } from '../../commands/execute-command.ts';

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

/** Records a release outcome once; a repeat (a tick replayed after a crash) finds the stream and changes nothing. */
export async function recordReleaseConfirmed(
  store: EventStore<Transaction<object>>,
  event: StakeHoldReleaseConfirmed,
  now: Date,
): Promise<void> {
  try {
    const metadata = processMetadata('stakes', now, `stakes-release-${event.data.idempotencyKey}`);
    await appendEvents(store, streams.stakeRelease(event.data.idempotencyKey), [event], metadata, 'no_stream');
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
  }
}
