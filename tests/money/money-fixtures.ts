import { sql } from 'kysely';
import type { LocalPaymentGateway } from '../../app-server/adapters/payments/local/local-gateway.ts';
import { hasHiddenEvents } from '../../app-server/adapters/event-store/postgres/read-events.ts';
import { findTestCard } from '../../app-server/adapters/payments/local/test-cards.ts';
import { reviewReleasedStakes } from '../../app-server/audit/released-stake-review.ts';
import { auditStakes, readWholeLog } from '../../app-server/audit/stake-audit.ts';
import type { TestRuntime } from '../support/test-runtime.ts';
import { settle, type TestUser } from '../support/users.ts';

/** The runtime's gateway as the local gateway (tests run without a Stripe key). */
export function localGateway(runtime: TestRuntime): LocalPaymentGateway {
  if (runtime.payments?.kind !== 'local') throw new Error('expected the local payment gateway');
  return runtime.payments as LocalPaymentGateway;
}

/**
 * The card form's other three fields, as a runner types them for a test card: an expiry three years after `now` (the
 * runtime's clock), any CVC, any postcode.
 */
export function cardDetailsAt(now: Date): { expiry: string; cvc: string; postal_code: string } {
  const year = String((now.getUTCFullYear() + 3) % 100).padStart(2, '0');
  return { expiry: `12 / ${year}`, cvc: '123', postal_code: '10001' };
}

/**
 * Saves a test card the way the web app does with the local gateway: a setup intent from the API, confirmed with the
 * card through the local gateway's route, and the card's authentication approved when its issuer asks for it.
 */
export async function saveCard(runtime: TestRuntime, user: TestUser, card = 'pm_card_mastercard'): Promise<string> {
  const res = await runtime.request('POST', '/api/payment/setup-intent', { token: user.token });
  if (res.status !== 200) throw new Error(`setup-intent failed: ${res.text}`);
  const client_secret: string = res.body.clientSecret;
  let confirmed = await runtime.request('POST', '/api/payment/local/setup-intent/confirm', {
    token: user.token,
    body: { client_secret, card_number: findTestCard(card)?.number ?? card, ...cardDetailsAt(runtime.clock.now()) },
  });
  if (confirmed.status === 200 && confirmed.body.setupIntent.status === 'requires_action') {
    confirmed = await runtime.request('POST', '/api/payment/local/setup-intent/authenticate', {
      token: user.token,
      body: { client_secret, outcome: 'approve' },
    });
  }
  const paymentMethodId: unknown = confirmed.body?.setupIntent?.payment_method;
  if (typeof paymentMethodId !== 'string') throw new Error(`card ${card} was not saved: ${confirmed.text}`);
  return paymentMethodId;
}

/** Creates a staked run-count goal for this week through POST /goals and returns its id. */
export async function stakedGoal(
  runtime: TestRuntime,
  user: TestUser,
  terms: { pm: string; cents?: number; charity?: string | null; target?: number; start?: 'this_week' | 'next_week' },
): Promise<string> {
  const res = await runtime.request('POST', '/goals', {
    token: user.token,
    body: {
      type: 'count',
      target_value: terms.target ?? 2,
      stake_amount_cents: terms.cents ?? 1000,
      charity_id: terms.charity ?? null,
      payment_method_id: terms.pm,
      start: terms.start ?? 'this_week',
    },
  });
  if (res.status !== 201) throw new Error(`POST /goals failed: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/**
 * Runs the workers until quiet: handlers, ticks (goal clock, stake actions), handlers again, round after round until
 * two rounds in a row append nothing and no committed event is still hidden. On PostgreSQL an event becomes readable
 * only once every older transaction has ended, in any database of the server (transaction ids are server-wide), so
 * with other work on the server a round can look quiet while the next step's event is still on its way.
 */
export async function cycle(runtime: TestRuntime, minRounds = 3): Promise<void> {
  let head = await runtime.store.headPosition();
  let quiet = 0;
  for (let round = 1; round <= 30; round++) {
    // Stripe cancels a lapsed hold by itself; the local gateway does it when asked.
    await localGateway(runtime).sweepExpiredHolds();
    await settle(runtime);
    await runtime.processes.tick();
    await settle(runtime);
    const after = await runtime.store.headPosition();
    const hidden = await hasHiddenEvents(runtime.database.db, after ?? { commit: 0, prepare: 0 });
    quiet = !hidden && JSON.stringify(after) === JSON.stringify(head) ? quiet + 1 : 0;
    head = after;
    if (round >= minRounds && quiet >= 2) return;
    // Events wait behind another transaction: give it a moment rather than spinning.
    if (hidden) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the workers did not settle in 30 rounds');
}

/** The stake of a goal as GET /stakes shows it. */
export async function stakeOf(runtime: TestRuntime, user: TestUser, goalId: string) {
  const res = await runtime.request('GET', `/stakes?goal_id=${goalId}`, { token: user.token });
  return res.body.stakes[0];
}

/** The local gateway's PaymentIntents for a stake (what really happened to the card). */
export async function intentsOf(runtime: TestRuntime, goalId: string) {
  const { rows } = await sql<{ id: string; status: string; capture_method: string; amount_received: number }>`
    SELECT id, status, capture_method, amount_received FROM payments_local_payment_intents
    WHERE metadata->>'goalId' = ${goalId} ORDER BY created_at, id`.execute(runtime.database.db);
  return rows;
}

/** The auditor's replay over the runtime's log, with its review of released stakes (as `npm run audit:stakes`). */
export async function audit(runtime: TestRuntime) {
  return {
    ...(await auditStakes(readWholeLog(runtime.store))),
    review: await reviewReleasedStakes(() => readWholeLog(runtime.store)),
  };
}
