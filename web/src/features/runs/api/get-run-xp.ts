import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope } from '../../../lib/api-types.ts';

/** One row of GET /me/xp-history (§3 XP history). */
interface XpHistoryRow {
  readonly source_type: string;
  readonly source_id: string;
  readonly xp_amount: number;
  readonly surge_bonus: number;
  readonly description: string;
}

/** What a run earned: its XP, and whether a surge multiplied it (§2 run history: XP with a Surge Bonus mark). */
export interface RunXpFigures {
  readonly xp: number;
  readonly surgeBonus: boolean;
}

/** The API takes at most 100 run ids per look-up, the length of the run history (§9). */
const MAX_IDS = 100;

/**
 * GET /me/xp-history?run_ids=…: the XP each run earned, looked up by run ids (§7). A run can have more than one row
 * (a correction after a surge was called off), so rows are summed per run.
 */
export async function getRunXp(runIds: readonly string[]): Promise<ReadonlyMap<string, RunXpFigures>> {
  const byRun = new Map<string, RunXpFigures>();
  if (runIds.length === 0) return byRun;
  const ids = runIds.slice(0, MAX_IDS).map(encodeURIComponent).join(',');
  const { data } = await api<DataEnvelope<XpHistoryRow[]>>(`/me/xp-history?run_ids=${ids}&limit=500`);
  for (const row of data) {
    if (row.source_type !== 'run') continue;
    const before = byRun.get(row.source_id) ?? { xp: 0, surgeBonus: false };
    byRun.set(row.source_id, {
      xp: before.xp + row.xp_amount,
      // §3: the description contains 'Surge' when a surge bonus applied.
      surgeBonus: before.surgeBonus || row.surge_bonus > 0 || row.description.includes('Surge'),
    });
  }
  return byRun;
}

// Under 'xp', so the realtime stream's xp topic refreshes it when the awards process credits a new run.
export const runXpQueryOptions = (runIds: readonly string[]) =>
  queryOptions({ queryKey: ['xp', 'runs', [...runIds].sort()], queryFn: () => getRunXp(runIds) });

export const useRunXp = (runIds: readonly string[]) => useQuery(runXpQueryOptions(runIds));
