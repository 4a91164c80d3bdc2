import { Temporal } from 'temporal-polyfill';
import { challengeFigures } from '../../../../domain/stats/challenges.ts';
import { weekContaining } from '../../../../domain/shared/week.ts';
import { ApiError } from '../api-error.ts';
import type { DemoState } from './demo-data.ts';
import { demoFriends, friendLevel } from './demo-people.ts';
import { DEMO_USER_ID, type DemoRoute } from './demo-route.ts';
import { demoStreak, demoXp } from './demo-xp.ts';

/** The sample group (§1 demo mode: sample data, no sign-in): the demo user owns it, three friends run in it. */
export const DEMO_GROUP_ID = 'demo-group';
const DEMO_GROUP_NAME = 'Sunrise Striders';
const DEMO_INVITE_CODE = 'SUNRISE8';

/** A member of the sample group with what the group screens show. */
export interface DemoMember {
  readonly user_id: string;
  readonly display_name: string;
  readonly role: 'owner' | 'member';
  readonly level: number;
  readonly total_xp: number;
  readonly current_streak: number;
  readonly longest_streak: number;
  readonly runs: readonly { id: string; started_at: string; distance_km: number; duration_sec: number }[];
}

/** The demo user (from their own sample data) and the sample friends. */
export function demoGroupMembers(state: DemoState, now: number): DemoMember[] {
  const xp = demoXp(state, now);
  const streak = demoStreak(state, now);
  const me: DemoMember = {
    user_id: DEMO_USER_ID,
    display_name: state.display_name,
    role: 'owner',
    level: xp.level,
    total_xp: xp.total_xp,
    current_streak: streak.current_streak,
    longest_streak: streak.longest_streak,
    runs: state.runs,
  };
  const friends = demoFriends(now, state.timezone).map(
    (f): DemoMember => ({
      user_id: f.id,
      display_name: f.display_name,
      role: 'member',
      level: friendLevel(f),
      total_xp: f.total_xp,
      current_streak: f.current_streak,
      longest_streak: f.longest_streak,
      runs: f.runs,
    }),
  );
  return [me, ...friends];
}

function groupJson(state: DemoState, now: number) {
  const members = demoGroupMembers(state, now);
  const joined = Temporal.Instant.fromEpochMilliseconds(now)
    .subtract({ hours: 24 * 60 })
    .toString();
  return {
    id: DEMO_GROUP_ID,
    name: DEMO_GROUP_NAME,
    owner_user_id: DEMO_USER_ID,
    member_count: members.length,
    role: 'owner' as const,
    invite_code: DEMO_INVITE_CODE,
    members: members.map((m) => ({
      user_id: m.user_id,
      role: m.role,
      joined_at: joined,
      display_name: m.display_name,
    })),
  };
}

function groupOr404(id: string | undefined): void {
  if (id !== DEMO_GROUP_ID) throw new ApiError('Group not found', 404);
}

/** The sample group's list, detail, level leaderboard and team challenges (§2 Groups). */
export const demoGroupRoutes: readonly DemoRoute[] = [
  ['GET', /^\/groups$/, (s, now) => ({ success: true, groups: [groupJson(s, now)] })],
  [
    'GET',
    /^\/groups\/([^/]+)\/leaderboard$/,
    (s, now, m) => {
      groupOr404(m[1]);
      const lines = demoGroupMembers(s, now).sort((a, b) => b.level - a.level || b.total_xp - a.total_xp);
      return {
        success: true,
        data: lines.map((l, i) => ({
          rank: i + 1,
          user_id: l.user_id,
          display_name: l.display_name,
          role: l.role,
          level: l.level,
          total_xp: l.total_xp,
        })),
      };
    },
  ],
  [
    'GET',
    /^\/groups\/([^/]+)\/challenges$/,
    (s, now, m) => {
      groupOr404(m[1]);
      const members = demoGroupMembers(s, now);
      const week = weekContaining(Temporal.Instant.fromEpochMilliseconds(now), s.timezone);
      const runs = members.flatMap((member) => member.runs.map((r) => ({ ...r, user_id: member.user_id })));
      return {
        success: true,
        data: challengeFigures(members, runs, { from: week.start.toString(), to: week.end.toString() }),
      };
    },
  ],
  [
    'GET',
    /^\/groups\/([^/]+)$/,
    (s, now, m) => {
      groupOr404(m[1]);
      return { success: true, data: groupJson(s, now) };
    },
  ],
];
