import { type Kysely, sql } from 'kysely';

/** Money taken from one user, split into donations and fees. */
export async function userLedger(db: Kysely<object>, userId: string) {
  const { rows } = await sql<{ stakes: number; captured_cents: number; donation_cents: number; fee_cents: number }>`
    SELECT count(*)::int AS stakes, COALESCE(sum(captured_cents), 0)::int AS captured_cents,
           COALESCE(sum(donation_cents), 0)::int AS donation_cents, COALESCE(sum(fee_cents), 0)::int AS fee_cents
    FROM ledger_entries WHERE user_id = ${userId}`.execute(db);
  return rows[0] ?? { stakes: 0, captured_cents: 0, donation_cents: 0, fee_cents: 0 };
}

/** Donations owed to each charity (what the product passes on), largest first. */
export async function donationsByCharity(db: Kysely<object>) {
  const { rows } = await sql<{ charity_id: string; name: string | null; stakes: number; donation_cents: number }>`
    SELECT e.charity_id, c.name, count(*)::int AS stakes, sum(e.donation_cents)::int AS donation_cents
    FROM ledger_entries e LEFT JOIN charities c ON c.id = e.charity_id
    WHERE e.charity_id IS NOT NULL GROUP BY e.charity_id, c.name ORDER BY donation_cents DESC, e.charity_id`.execute(db);
  return rows;
}

/** The product's service fees in total. */
export async function serviceFees(db: Kysely<object>): Promise<number> {
  const { rows } = await sql<{ fee_cents: number }>`
    SELECT COALESCE(sum(fee_cents), 0)::int AS fee_cents FROM ledger_entries`.execute(db);
  return rows[0]?.fee_cents ?? 0;
}
