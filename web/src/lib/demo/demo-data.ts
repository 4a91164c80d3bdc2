import { Temporal } from 'temporal-polyfill';
import { DEFAULT_TIME_ZONE } from '../../../../domain/shared/time-zone.ts';
import { addWeeks, weekStartOf } from '../../../../domain/shared/week.ts';
import type { GoalType } from '../../../../domain/goal/target.ts';
import type { Verification } from '../../../../domain/run/verification.ts';
import type { ReactionEmoji } from '../api-types.ts';
import { readJson, STORAGE_KEYS, writeJson } from '../storage.ts';
import { demoVerification } from './demo-verdict.ts';

/** What the demo keeps in the browser: the runner's runs and goals; everything else is derived from them. */
export interface DemoRun {
  id: string;
  started_at: string;
  distance_km: number;
  duration_sec: number;
  source: string;
  notes: string | null;
  /** The XP multiplier of a surge the run fell in (absent: none). */
  xp_multiplier?: number;
  /** When the run was saved (absent in older demo data: a minute after its end). */
  recorded_at?: string;
  /** The run policy's verdict, given when the run was saved (demo-verdict.ts; filled in for older demo data). */
  verification?: Verification;
}

export interface DemoGoal {
  id: string;
  type: GoalType;
  target_value: number;
  week_start: string;
  stake_amount_cents: number;
  charity_id: string | null;
  canceled: boolean;
  created_at: string;
}

export interface DemoState {
  display_name: string;
  timezone: string;
  distance_unit: 'km' | 'mi';
  runs: DemoRun[];
  goals: DemoGoal[];
  /** The demo user's own reactions, by feed card id (absent in demo data saved by older builds). */
  reactions?: Record<string, ReactionEmoji[]>;
}

/** The demo user's zone: the browser's own, so "this week" matches the visitor's calendar. */
export function demoTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** A plausible run `daysAgo` days back at 7 am local: `km` at a pace of `paceMin` minutes per km. */
function sampleRun(id: string, now: Temporal.ZonedDateTime, daysAgo: number, km: number, paceMin: number): DemoRun {
  const start = now.subtract({ days: daysAgo }).with({ hour: 7, minute: 5, second: 0, millisecond: 0 });
  const run: DemoRun = {
    id,
    started_at: start.toInstant().toString(),
    distance_km: km,
    duration_sec: Math.round(km * paceMin * 60),
    source: 'gps',
    notes: null,
  };
  return { ...run, verification: demoVerification(run) };
}

/** Sample data (§9 demo stakes 500, 1000, 2000): two past weeks of goals, this week's goal part done. */
function sampleState(nowMs: number): DemoState {
  const timezone = demoTimeZone();
  const now = Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(timezone);
  const thisWeek = weekStartOf(now.toInstant(), timezone);
  const runs: DemoRun[] = [];
  const weekday = now.dayOfWeek;
  // Runs earlier this week (never in the future), then a steady history over the last 12 weeks.
  if (weekday > 1) runs.push(sampleRun('demo-run-1', now, Math.min(weekday - 1, 1), 5.2, 5.6));
  if (weekday > 3) runs.push(sampleRun('demo-run-2', now, 3, 8.1, 5.9));
  for (let d = weekday + 1, i = 3; d < 84; d += 2 + (d % 3), i++) {
    runs.push(sampleRun(`demo-run-${i}`, now, d, 4 + ((d * 7) % 60) / 10, 5.4 + (d % 5) / 10));
  }
  // Last week's first sample run fell in a 2x XP surge, so the run history shows a Surge Bonus mark.
  const surged = runs.find((r) => r.id === 'demo-run-3');
  if (surged) surged.xp_multiplier = 2;
  const created = now.subtract({ days: weekday }).toInstant().toString();
  const goals: DemoGoal[] = [
    {
      id: 'demo-goal-now',
      type: 'distance',
      target_value: 20,
      week_start: thisWeek,
      stake_amount_cents: 1000,
      charity_id: 'demo-charity-1',
      canceled: false,
      created_at: created,
    },
    {
      id: 'demo-goal-1',
      type: 'distance',
      target_value: 15,
      week_start: addWeeks(thisWeek, -1),
      stake_amount_cents: 500,
      charity_id: null,
      canceled: false,
      created_at: created,
    },
    {
      id: 'demo-goal-2',
      type: 'count',
      target_value: 3,
      week_start: addWeeks(thisWeek, -2),
      stake_amount_cents: 2000,
      charity_id: 'demo-charity-1',
      canceled: false,
      created_at: created,
    },
  ];
  return { display_name: 'Demo Runner', timezone, distance_unit: 'km', runs, goals };
}

/** The demo state, seeded on first use and kept in local storage so changes survive a reload. */
export function loadDemoState(nowMs: number): DemoState {
  const stored = readJson<DemoState | null>(STORAGE_KEYS.demoData, null);
  if (stored) {
    // Demo data saved before runs carried their verdict gets it now, once.
    if (stored.runs.some((r) => r.verification === undefined)) {
      stored.runs = stored.runs.map((r) => (r.verification ? r : { ...r, verification: demoVerification(r) }));
      writeJson(STORAGE_KEYS.demoData, stored);
    }
    return stored;
  }
  const fresh = sampleState(nowMs);
  writeJson(STORAGE_KEYS.demoData, fresh);
  return fresh;
}

/** Saves the demo state. */
export function saveDemoState(state: DemoState): void {
  writeJson(STORAGE_KEYS.demoData, state);
}
