import { type Kysely, sql } from 'kysely';
import type { HoldTimeline } from '../../domain/stake/hold-timeline.ts';
import type { StakeState } from '../../domain/stake/state.ts';

/** A stake as the Stakes tab and the donation impact card read it, with its charity. */
export type StakeListRow = {
  id: string;
  goal_id: string;
  week_start: string;
  amount_cents: number;
  donation_amount_cents: number;
  fee_cents: number;
  captured_cents: number;
  charity_id: string | null;
  charity_name: string | null;
  charity_logo_url: string | null;
  status: string;
  /** The aggregate's own status: `active` means a hold is live on the card. */
  stage: string;
  last_failure: string | null;
  decline_code: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  settled_at: Date | null;
  refunded_cents: number;
  hold: HoldTimeline;
  /** The folded aggregate state (its appeal and refund). */
  state: StakeState;
};

export type StakeFilter = {
  readonly status?: readonly string[] | undefined;
  readonly goalId?: string | undefined;
  readonly withCharity?: boolean | undefined;
  readonly limit: number;
};

/** The user's stakes, newest first (§7 `GET /stakes?query`; "stakes with charities: status lost and charity set"). */
export async function listUserStakes(db: Kysely<object>, userId: string, filter: StakeFilter): Promise<StakeListRow[]> {
  const status =
    filter.status && filter.status.length > 0 ? sql`AND s.status = ANY(${[...filter.status]}::text[])` : sql``;
  const goal = filter.goalId ? sql`AND s.goal_id = ${filter.goalId}` : sql``;
  const charity = filter.withCharity ? sql`AND s.charity_id IS NOT NULL` : sql``;
  const { rows } = await sql<StakeListRow>`
    SELECT s.id, s.goal_id, s.week_start, s.amount_cents, s.donation_amount_cents, s.fee_cents, s.captured_cents,
           s.charity_id, c.name AS charity_name, c.logo_url AS charity_logo_url, s.status, s.stage, s.last_failure,
           s.decline_code, s.next_attempt_at, s.created_at, s.settled_at, s.refunded_cents, s.hold, s.state
    FROM stakes s LEFT JOIN charities c ON c.id = s.charity_id
    WHERE s.user_id = ${userId} ${status} ${goal} ${charity}
    ORDER BY s.created_at DESC, s.id LIMIT ${filter.limit}`.execute(db);
  return rows;
}

/** One of the user's stakes, or undefined (another user's stake reads as absent). */
export async function findUserStake(db: Kysely<object>, userId: string, id: string): Promise<StakeListRow | undefined> {
  const { rows } = await sql<StakeListRow & { user_id: string }>`
    SELECT s.*, c.name AS charity_name, c.logo_url AS charity_logo_url
    FROM stakes s LEFT JOIN charities c ON c.id = s.charity_id WHERE s.id = ${id} AND s.user_id = ${userId}`.execute(
    db,
  );
  return rows[0];
}
