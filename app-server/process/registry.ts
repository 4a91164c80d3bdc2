import type { PaymentGateway } from '../adapters/payments/payment-gateway.ts';
import type { PushSender } from '../adapters/push/push-sender.ts';
import type { StravaClient } from '../adapters/strava/strava-client.ts';
import type { SecretBox } from '../auth/secrets.ts';
import type { PersonalKeyVault } from '../privacy/key-vault.ts';
import { personalDataEraser } from '../privacy/personal-data-eraser.ts';
import { badgeAwardsProcess } from './awards/badge-awards.ts';
import { xpAwardsProcess } from './awards/xp-awards.ts';
import { goalLifecycleProcess } from './goal-lifecycle/goal-lifecycle-process.ts';
import type { ProcessManager } from './process-manager.ts';
import { createRemindersProcess } from './reminders/reminders-process.ts';
import { createStakeSettlementProcess } from './stakes/stake-settlement-process.ts';
import { stakeNewsProcess } from './stake-news/stake-news-process.ts';
import { createStravaSyncProcess } from './strava/strava-sync-process.ts';

/** The adapters the process managers that reach outside call: keys, the payment provider, push, Strava. */
export interface ProcessManagerAdapters {
  readonly vault: PersonalKeyVault;
  /** null when payments are not configured (stakes are then refused at creation). */
  readonly payments: PaymentGateway | null;
  readonly push: PushSender;
  readonly strava: StravaClient;
  /** Opens the Strava tokens kept sealed at rest. */
  readonly box: SecretBox;
}

/**
 * Every process manager the workers run: the goal lifecycle (progress, activation, close), XP and badge awards,
 * erasure of deleted accounts' keys, stake settlement (holds, releases, captures, charges), reminders, stake news
 * (appeals decided, refunds made), Strava sync.
 */
export function allProcessManagers(adapters: ProcessManagerAdapters): readonly ProcessManager[] {
  return [
    goalLifecycleProcess,
    xpAwardsProcess,
    badgeAwardsProcess,
    personalDataEraser(adapters.vault),
    createStakeSettlementProcess({ gateway: adapters.payments }),
    createRemindersProcess({ push: adapters.push }),
    stakeNewsProcess,
    createStravaSyncProcess({ client: adapters.strava, box: adapters.box }),
  ];
}
