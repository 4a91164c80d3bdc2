import { type Kysely, sql } from 'kysely';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';

/** The processor's customer of a user, if one was created (the first card form creates it). */
export async function findCustomerId(db: Kysely<object>, userId: string): Promise<string | null> {
  const { rows } = await sql<{ customer_id: string }>`
    SELECT customer_id FROM payment_customers WHERE user_id = ${userId}`.execute(db);
  return rows[0]?.customer_id ?? null;
}

/** The user's customer, created at the processor on first use (one per user; the gateway call is idempotent). */
export async function ensureCustomerId(db: Kysely<object>, gateway: PaymentGateway, userId: string, now: Date) {
  const known = await findCustomerId(db, userId);
  if (known) return known;
  const { rows } = await sql<{ email: string }>`SELECT email FROM auth_users WHERE id = ${userId}`.execute(db);
  const { customerId } = await gateway.ensureCustomer({ userId, email: rows[0]?.email ?? `${userId}@users.invalid` });
  await sql`
    INSERT INTO payment_customers (user_id, customer_id, created_at)
    VALUES (${userId}, ${customerId}, ${now.toISOString()}::timestamptz)
    ON CONFLICT (user_id) DO NOTHING`.execute(db);
  return (await findCustomerId(db, userId)) ?? customerId;
}

/** Whether a saved card belongs to the user (a card of someone else reads as absent: 404, never a leak). */
export async function ownsCard(db: Kysely<object>, gateway: PaymentGateway, userId: string, paymentMethodId: string) {
  const customerId = await findCustomerId(db, userId);
  if (!customerId) return false;
  const cards = await gateway.listPaymentMethods({ customerId });
  return cards.some((card) => card.id === paymentMethodId);
}
