import { Temporal } from 'temporal-polyfill';
import { levelProgress } from '../../../../domain/gamification/levels.ts';
import { weekContaining } from '../../../../domain/shared/week.ts';

/** A sample friend in the demo group, with the runs the group screens show. */
export interface DemoFriend {
  readonly id: string;
  readonly display_name: string;
  readonly total_xp: number;
  readonly current_streak: number;
  readonly longest_streak: number;
  readonly runs: readonly DemoFriendRun[];
}

export interface DemoFriendRun {
  readonly id: string;
  readonly started_at: string;
  readonly distance_km: number;
  readonly duration_sec: number;
}

/** [share of this week gone by, km, minutes per km]: runs this week, always in the past and inside the week. */
type WeekRun = readonly [number, number, number];
/** [days ago, km, minutes per km]: older runs, for best paces. */
type OlderRun = readonly [number, number, number];

const FRIENDS: readonly {
  id: string;
  name: string;
  xp: number;
  streak: [number, number];
  week: WeekRun[];
  older: OlderRun[];
}[] = [
  {
    id: 'demo-maya',
    name: 'Maya Chen',
    xp: 4_200,
    streak: [6, 9],
    week: [
      [0.3, 10.2, 5.1],
      [0.7, 6, 5.3],
    ],
    older: [[9, 10.5, 4.9]],
  },
  { id: 'demo-leo', name: 'Leo Park', xp: 2_650, streak: [2, 5], week: [[0.5, 5.1, 5.75]], older: [[12, 5, 5.5]] },
  { id: 'demo-sam', name: 'Sam Rivera', xp: 880, streak: [0, 3], week: [[0.85, 3.2, 6.5]], older: [] },
];

/** The demo group's other members and their runs, placed relative to `now` in the demo user's zone. */
export function demoFriends(nowMs: number, timeZone: string): DemoFriend[] {
  const now = Temporal.Instant.fromEpochMilliseconds(nowMs);
  const week = weekContaining(now, timeZone);
  const gone = now.epochMilliseconds - week.start.epochMilliseconds;
  return FRIENDS.map((f) => {
    const thisWeek = f.week.map(([share, km, pace], i) => ({
      id: `${f.id}-run-${i}`,
      started_at: new Date(week.start.epochMilliseconds + Math.floor(gone * share)).toISOString(),
      distance_km: km,
      duration_sec: Math.round(km * pace * 60),
    }));
    const older = f.older.map(([days, km, pace], i) => ({
      id: `${f.id}-older-${i}`,
      started_at: now.subtract({ hours: days * 24 }).toString(),
      distance_km: km,
      duration_sec: Math.round(km * pace * 60),
    }));
    return {
      id: f.id,
      display_name: f.name,
      total_xp: f.xp,
      current_streak: f.streak[0],
      longest_streak: f.streak[1],
      runs: [...thisWeek, ...older],
    };
  });
}

/** A sample friend's level, by the shared level rule. */
export const friendLevel = (f: DemoFriend): number => levelProgress(f.total_xp).level;
