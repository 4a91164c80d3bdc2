import { formatDollars } from '../shared/money.ts';
import type { StakeEvent } from './events.ts';

/** What the runner is told when their stake's appeal is decided or their money comes back (in-app, and pushed). */
export interface StakeNews {
  readonly title: string;
  readonly message: string;
}

/**
 * The news a stake event is for its runner, or null: an appeal accepted or refused, a refund made. Everything else a
 * stake does is either the runner's own doing (an appeal sent) or already told by the reminders and the Stakes tab.
 */
export function stakeNewsOf(event: StakeEvent): StakeNews | null {
  switch (event.type) {
    case 'StakeAppealAccepted':
      return {
        title: 'Appeal accepted',
        message:
          event.data.decidedBy === 'deadline'
            ? 'Your appeal could not be reviewed in time, so it is decided in your favour: nothing is taken from your card.'
            : 'Your appeal was accepted: nothing is taken from your card.',
      };
    case 'StakeAppealRefused':
      return {
        title: 'Appeal refused',
        message: `Your appeal was refused${event.data.note ? `: ${event.data.note}` : ''}. The stake is settled as missed.`,
      };
    case 'StakeRefunded':
      return {
        title: 'Stake refunded',
        message: `${formatDollars(event.data.refundedCents, { alwaysCents: true })} is on its way back to your card: a run of that week completed your goal.`,
      };
    default:
      return null;
  }
}
