/** A row of the goals read model (kysely table type). */
export type GoalsTable = {
  id: string;
  user_id: string;
  type: 'distance' | 'count';
  target_value: number;
  entered_value: number;
  entered_unit: string;
  stake_amount_cents: number;
  charity_id: string | null;
  time_zone: string;
  period_start: string;
  period_end: string;
  week_starts_at: Date;
  week_ends_at: Date;
  status: 'upcoming' | 'active' | 'completed' | 'missed' | 'canceled' | 'deleted';
  progress: number;
  frozen: boolean;
  created_at: Date;
  activated_at: Date | null;
  completed_at: Date | null;
  completed_progress: number | null;
  closed_at: Date | null;
  canceled_at: Date | null;
  stake_forfeited: boolean;
  deleted_at: Date | null;
};
