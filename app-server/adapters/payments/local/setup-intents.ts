import type { Selectable } from 'kysely';
import { PaymentGatewayError } from '../payment-errors.ts';
import type { LocalDb, LocalTx } from './idempotency.ts';
import { newId } from './payment-intent-rows.ts';
import type { LocalSetupError, LocalSetupIntentRow } from './tables.ts';
import { type CardRefusal, findTestCard, setupRefusals, type TestCard } from './test-cards.ts';

/*
 * Saving a card, as Stripe does it behind Stripe.js's `confirmCardSetup`: the browser confirms the SetupIntent with
 * the card; the card is saved to the customer (succeeded), refused (back to requires_payment_method with
 * `last_setup_error`), or its issuer asks the cardholder to authenticate first (requires_action, then approved or
 * failed). Nothing is saved until the card has passed every step, so a refused card can never secure a stake.
 */

/** A SetupIntent as the card form needs it after each step. */
export type LocalSetupIntent = {
  readonly id: string;
  readonly customerId: string;
  readonly status: LocalSetupIntentRow['status'];
  /** The saved card once `status` is succeeded. */
  readonly paymentMethodId: string | null;
  readonly lastSetupError: LocalSetupError | null;
};

type SetupRow = Selectable<LocalSetupIntentRow>;

const toSetupIntent = (row: SetupRow): LocalSetupIntent => ({
  id: row.id,
  customerId: row.customer_id,
  status: row.status,
  paymentMethodId: row.payment_method_id,
  lastSetupError: row.last_setup_error,
});

/** The SetupIntent a client secret belongs to, or null (the browser only ever knows the secret). */
export async function findSetupIntentBySecret(db: LocalDb, clientSecret: string): Promise<LocalSetupIntent | null> {
  const row = await db
    .selectFrom('payments_local_setup_intents')
    .selectAll()
    .where('client_secret', '=', clientSecret)
    .executeTakeFirst();
  return row ? toSetupIntent(row) : null;
}

/** Confirms the SetupIntent with a test card (token or number): saved, refused, or waiting for authentication. */
export async function confirmSetup(
  db: LocalDb,
  now: Date,
  input: { readonly setupIntentId: string; readonly card: string },
): Promise<LocalSetupIntent> {
  return db.transaction().execute(async (tx) => {
    const setup = await lockSetupIntent(tx, input.setupIntentId);
    // A second click on Save, or a retried request: the card is already saved, once.
    if (setup.status === 'succeeded') return toSetupIntent(setup);
    const card = findTestCard(input.card);
    if (!card) return refuse(tx, setup, setupRefusals.incorrectNumber());
    switch (card.setup) {
      case 'succeeds':
        return saveCard(tx, setup, card, now);
      case 'declined':
        return refuse(tx, setup, setupRefusals.declined());
      case 'requires_authentication':
        return update(tx, setup, { status: 'requires_action', pending_card: card.number, last_setup_error: null });
      default: {
        const never: never = card.setup;
        throw new Error(`unknown setup behaviour ${String(never)}`);
      }
    }
  });
}

/** The cardholder's answer to the issuer's authentication (the local stand-in for the 3-D Secure page). */
export async function authenticateSetup(
  db: LocalDb,
  now: Date,
  input: { readonly setupIntentId: string; readonly approve: boolean },
): Promise<LocalSetupIntent> {
  return db.transaction().execute(async (tx) => {
    const setup = await lockSetupIntent(tx, input.setupIntentId);
    if (setup.status === 'succeeded') return toSetupIntent(setup);
    const card = setup.status === 'requires_action' && setup.pending_card ? findTestCard(setup.pending_card) : null;
    if (!card) {
      throw new PaymentGatewayError('invalid_request', 'This SetupIntent is not waiting for authentication.', {
        providerCode: 'setup_intent_unexpected_state',
      });
    }
    if (!input.approve) return refuse(tx, setup, setupRefusals.authenticationFailed());
    return saveCard(tx, setup, card, now);
  });
}

async function lockSetupIntent(tx: LocalTx, id: string): Promise<SetupRow> {
  const row = await tx
    .selectFrom('payments_local_setup_intents')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row)
    throw new PaymentGatewayError('not_found', `No such SetupIntent: '${id}'`, { providerCode: 'resource_missing' });
  return row;
}

async function saveCard(tx: LocalTx, setup: SetupRow, card: TestCard, now: Date): Promise<LocalSetupIntent> {
  const paymentMethodId = newId('pm');
  await tx
    .insertInto('payments_local_payment_methods')
    .values({
      id: paymentMethodId,
      customer_id: setup.customer_id,
      brand: card.brand,
      last4: card.number.slice(-4),
      exp_month: 12,
      exp_year: now.getUTCFullYear() + 3,
      behaviour: card.behaviour,
      created_at: now,
    })
    .execute();
  return update(tx, setup, {
    status: 'succeeded',
    payment_method_id: paymentMethodId,
    pending_card: null,
    last_setup_error: null,
  });
}

function refuse(tx: LocalTx, setup: SetupRow, refusal: CardRefusal): Promise<LocalSetupIntent> {
  return update(tx, setup, { status: 'requires_payment_method', pending_card: null, last_setup_error: refusal });
}

async function update(
  tx: LocalTx,
  setup: SetupRow,
  change: Partial<Omit<SetupRow, 'last_setup_error'>> & { last_setup_error?: LocalSetupError | null },
): Promise<LocalSetupIntent> {
  const { last_setup_error, ...columns } = change;
  const error =
    last_setup_error === undefined ? {} : { last_setup_error: last_setup_error && JSON.stringify(last_setup_error) };
  await tx
    .updateTable('payments_local_setup_intents')
    .set({ ...columns, ...error })
    .where('id', '=', setup.id)
    .execute();
  return toSetupIntent({ ...setup, ...change } as SetupRow);
}
