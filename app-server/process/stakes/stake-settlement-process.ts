import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';
import type { ProcessManager } from '../process-manager.ts';
import { ActionPage } from './action-page.ts';
import { isProviderTrouble, performAction, type StakeFaults } from './perform-action.ts';
import { dueActions, markRetry } from './stake-action-row.ts';
import { handleStakeEvents, STAKE_PROCESS_EVENT_TYPES } from './stake-events-handler.ts';
import { inParallelByKey } from '../in-parallel.ts';
import { tickStakeClock } from './stake-clock.ts';

export type StakeProcessOptions = {
  /** null when payments are not configured: stakes are then refused at creation, and nothing here calls out. */
  readonly gateway: PaymentGateway | null;
  /** Test hook: kills a run between steps (crash test). */
  readonly faults?: StakeFaults;
};

/**
 * Stakes and settlement (§4, §9; the hold-expiry strategy in domain/stake/decide.ts). Events open and settle stakes
 * and queue provider calls in the subscription's transaction; the tick works the queue outside any transaction
 * (intent event → call with a deterministic key → outcome event) and drives the clock: settlement of misses once
 * their week has ended in their zone, hold lapses, charge retries. A crash anywhere is healed by the next tick.
 */
export function createStakeSettlementProcess(options: StakeProcessOptions): ProcessManager {
  return {
    name: 'stake-settlement',
    handle: handleStakeEvents,
    eventTypes: STAKE_PROCESS_EVENT_TYPES,
    async tick({ db, store, now }) {
      await tickStakeClock({ db, store, now });
      const gateway = options.gateway;
      if (gateway === null) return;
      // Page through every due action, not only the first page: a Monday's captures must not wait a tick per page.
      const worked = new Set<string>();
      for (;;) {
        const page = (await dueActions(db, now)).filter((action) => !worked.has(action.idempotency_key));
        if (page.length === 0) return;
        for (const action of page) worked.add(action.idempotency_key);
        // The page's stakes in one read, its outcomes in one append and its rows closed in one statement
        // (action-page.ts); as many stakes at once as the gateway takes calls at once, the actions of one stake in
        // order, one at a time.
        const recorder = await ActionPage.open(page, { db, store, now, faults: options.faults });
        await inParallelByKey(
          page,
          (action) => action.stake_id,
          gateway.callsAtOnce,
          async (action) => {
            try {
              await performAction(action, { db, gateway, now, page: recorder });
            } catch (error) {
              // The provider's trouble waits and retries with the same key; anything else stops the run (a crash).
              if (!isProviderTrouble(error)) throw error;
              await markRetry(db, action, error instanceof Error ? error.message : String(error), now);
            }
          },
        );
        await recorder.commit();
      }
    },
  };
}
