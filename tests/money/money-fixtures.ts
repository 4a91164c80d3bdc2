import { sql } from 'kysely';
import type { LocalPaymentGateway } from '../../app-server/adapters/payments/local/local-gateway.ts';
import { auditStakes, readWholeLog } from '../../app-server/audit/stake-audit.ts';
import type { TestRuntime } from '../support/test-runtime.ts';
import { settle, type TestUser } from '../support/users.ts';

/** The runtime's gateway as the local gateway (tests run without a Stripe key). */
export function localGateway(runtime: TestRuntime): LocalPaymentGateway {
  if (runtime.payments?.kind !== 'local') throw new Error('expected the local payment gateway');
  return runtime.payments as LocalPaymentGateway;
}

/** Saves a test card the way the web app does: setup intent from the API, confirmation by "Stripe.js". */
export async function saveCard(runtime: TestRuntime, user: TestUser, card = 'pm_card_mastercard'): Promise<string> {
  const res = await runtime.request('POST', '/api/payment/setup-intent', { token: user.token });
  if (res.status !== 200) throw new Error(`setup-intent failed: ${res.text}`);
  const { paymentMethodId } = await localGateway(runtime).confirmSetupIntent({
    setupIntentId: res.body.setupIntentId,
    card,
  });
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

/** Runs the workers until quiet: handlers, ticks (goal clock, stake actions), handlers again. */
export async function cycle(runtime: TestRuntime, rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    // Stripe cancels a lapsed hold by itself; the local gateway does it when asked.
    await localGateway(runtime).sweepExpiredHolds();
    await settle(runtime);
    await runtime.processes.tick();
  }
  await settle(runtime);
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

/** The auditor's replay over the runtime's log. */
export function audit(runtime: TestRuntime) {
  return auditStakes(readWholeLog(runtime.store));
}
