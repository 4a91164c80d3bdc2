import { Temporal } from 'temporal-polyfill';

/** A group member as the challenges need them, with their streak (§3 user_streaks). */
export interface ChallengeMember {
  readonly user_id: string;
  readonly display_name: string;
  readonly current_streak: number;
  readonly longest_streak: number;
}

/** A member's run: who, how far, how long, and when it started (ISO instant). */
export interface ChallengeRun {
  readonly user_id: string;
  readonly distance_km: number;
  readonly duration_sec: number;
  readonly started_at: string;
}

/** The challenges response of §3 (GET /groups/{id}/challenges). Pace in s/km, times in seconds; any may be null. */
export interface ChallengeFigures {
  readonly weeklyDistance: readonly { user_id: string; display_name: string; distance_km: number }[];
  readonly streaks: readonly {
    user_id: string;
    display_name: string;
    current_streak: number;
    longest_streak: number;
  }[];
  readonly fastestPaces: readonly {
    user_id: string;
    display_name: string;
    fastest_5k_pace: number | null;
    fastest_5k_time: number | null;
    fastest_10k_pace: number | null;
    fastest_10k_time: number | null;
  }[];
}

/** The best pace over runs of at least `km`, and the time that pace gives for exactly `km`; nulls when none. */
export function fastestOver(runs: readonly ChallengeRun[], km: number): { pace: number | null; time: number | null } {
  // Only runs that covered the whole distance count: a fast 2 km does not make a 5 km time.
  const paces = runs
    .filter((r) => Math.round(r.distance_km * 100) >= km * 100)
    .filter((r) => r.duration_sec > 0)
    .map((r) => r.duration_sec / r.distance_km);
  if (paces.length === 0) return { pace: null, time: null };
  // Round only at the end, so the 10 km time is not ten times a rounding error.
  const pace = Math.min(...paces);
  return { pace: Math.round(pace), time: Math.round(pace * km) };
}

// Nulls sort last in a "smaller is better" leaderboard; ties break by name so the order is stable.
const byNullableAsc = (a: number | null, b: number | null) =>
  (a ?? Number.POSITIVE_INFINITY) - (b ?? Number.POSITIVE_INFINITY);
const byName = (a: { display_name: string }, b: { display_name: string }) =>
  a.display_name.localeCompare(b.display_name);

const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/**
 * An instant as epoch milliseconds, below a millisecond truncated: the week bounds are whole milliseconds, so an instant
 * is at or after a bound exactly when its truncation is. A UTC ISO string (what the read models give) is parsed
 * directly; anything else through Temporal, which also refuses what is not an instant.
 */
function epochMs(instant: string): number {
  if (UTC_INSTANT.test(instant)) return Date.parse(instant);
  return Temporal.Instant.from(instant).epochMilliseconds;
}

/** One member's figures for the week, before names: what the leaderboards rank. */
export interface MemberChallengeNumbers {
  readonly current_streak: number;
  readonly longest_streak: number;
  readonly distance_km: number;
  readonly fastest_5k: { readonly pace: number | null; readonly time: number | null };
  readonly fastest_10k: { readonly pace: number | null; readonly time: number | null };
}

/**
 * Each member's figures for the week (the half-open range [from, to) of instants the caller counts as "this week"),
 * by user id; runs of non-members are ignored. Names play no part: `rankChallenges` adds them and orders.
 */
export function challengeNumbers(
  members: readonly Pick<ChallengeMember, 'user_id' | 'current_streak' | 'longest_streak'>[],
  runs: readonly ChallengeRun[],
  week: { readonly from: string; readonly to: string },
): Map<string, MemberChallengeNumbers> {
  const from = epochMs(week.from);
  const to = epochMs(week.to);
  const inWeek = (r: ChallengeRun) => {
    const at = epochMs(r.started_at);
    return at >= from && at < to;
  };
  // Grouped once: a member's runs are read three times below.
  const byUser = new Map<string, ChallengeRun[]>();
  for (const run of runs) {
    const own = byUser.get(run.user_id);
    if (own) own.push(run);
    else byUser.set(run.user_id, [run]);
  }
  const numbers = new Map<string, MemberChallengeNumbers>();
  for (const m of members) {
    const own = byUser.get(m.user_id) ?? [];
    numbers.set(m.user_id, {
      current_streak: m.current_streak,
      longest_streak: m.longest_streak,
      distance_km: own.filter(inWeek).reduce((sum, r) => sum + Math.max(0, Math.round(r.distance_km * 100)), 0) / 100,
      fastest_5k: fastestOver(own, 5),
      fastest_10k: fastestOver(own, 10),
    });
  }
  return numbers;
}

const NO_NUMBERS: MemberChallengeNumbers = {
  current_streak: 0,
  longest_streak: 0,
  distance_km: 0,
  fastest_5k: { pace: null, time: null },
  fastest_10k: { pace: null, time: null },
};

/**
 * The three leaderboards from each member's figures (`challengeNumbers`) and their names, ties by name, then by the
 * order of `members`. A member without figures counts as having none.
 */
export function rankChallenges(
  members: readonly { readonly user_id: string; readonly display_name: string }[],
  numbers: ReadonlyMap<string, MemberChallengeNumbers>,
): ChallengeFigures {
  const of = (userId: string) => numbers.get(userId) ?? NO_NUMBERS;
  const weeklyDistance = members
    .map((m) => ({ user_id: m.user_id, display_name: m.display_name, distance_km: of(m.user_id).distance_km }))
    .sort((a, b) => b.distance_km - a.distance_km || byName(a, b));

  const streaks = members
    .map(({ user_id, display_name }) => ({
      user_id,
      display_name,
      current_streak: of(user_id).current_streak,
      longest_streak: of(user_id).longest_streak,
    }))
    .sort((a, b) => b.current_streak - a.current_streak || b.longest_streak - a.longest_streak || byName(a, b));

  const fastestPaces = members
    .map((m) => {
      const { fastest_5k: five, fastest_10k: ten } = of(m.user_id);
      return {
        user_id: m.user_id,
        display_name: m.display_name,
        fastest_5k_pace: five.pace,
        fastest_5k_time: five.time,
        fastest_10k_pace: ten.pace,
        fastest_10k_time: ten.time,
      };
    })
    .sort(
      (a, b) =>
        byNullableAsc(a.fastest_5k_pace, b.fastest_5k_pace) ||
        byNullableAsc(a.fastest_10k_pace, b.fastest_10k_pace) ||
        byName(a, b),
    );

  return { weeklyDistance, streaks, fastestPaces };
}

/**
 * The three challenge leaderboards of a group. `week` is the half-open range [from, to) of instants the caller
 * counts as "this week" (the group's week in its zone); runs of non-members are ignored.
 */
export function challengeFigures(
  members: readonly ChallengeMember[],
  runs: readonly ChallengeRun[],
  week: { readonly from: string; readonly to: string },
): ChallengeFigures {
  return rankChallenges(members, challengeNumbers(members, runs, week));
}
