import { Temporal } from 'temporal-polyfill';
import { BADGE_DEFINITIONS } from '../../../../domain/gamification/badge-definitions.ts';
import { levelProgress } from '../../../../domain/gamification/levels.ts';
import { tierForLevel } from '../../../../domain/gamification/tiers.ts';
import { XP_PER_GOAL, XP_PER_KM } from '../../../../domain/gamification/xp.ts';
import { targetError, storedTarget } from '../../../../domain/goal/target.ts';
import { formatDollars } from '../../../../domain/shared/money.ts';
import { nextWeekStart, weekStartOf } from '../../../../domain/shared/week.ts';
import { ApiError } from '../api-error.ts';
import type { HttpMethod } from '../api.ts';
import { type DemoState, loadDemoState, saveDemoState } from './demo-data.ts';
import { demoGoalJson } from './demo-goals.ts';

const DEMO_USER_ID = 'demo-user';
const DEMO_CHARITIES = [
  { id: 'demo-charity-1', name: 'Girls on the Run', description: 'Confidence through running.', logo_url: null },
  {
    id: 'demo-charity-2',
    name: 'Doctors Without Borders',
    description: 'Medical care where it is needed most.',
    logo_url: null,
  },
];

type Body = Record<string, unknown> | undefined;
type Handler = (state: DemoState, now: number, match: RegExpMatchArray, body: Body, query: URLSearchParams) => unknown;

const goalsOf = (state: DemoState, now: number) => state.goals.map((g) => demoGoalJson(state, g, now));

function xpOf(state: DemoState, now: number) {
  const runXp = state.runs.reduce((sum, r) => sum + Math.floor(r.distance_km * XP_PER_KM), 0);
  const goalXp = goalsOf(state, now).filter((g) => g.status === 'completed').length * XP_PER_GOAL;
  const total = runXp + goalXp;
  const p = levelProgress(total);
  return {
    total_xp: total,
    level: p.level,
    level_label: p.label,
    tier: tierForLevel(p.level).name,
    xp_into_level: p.xpIntoLevel,
    xp_for_level: p.xpForLevel,
    xp_to_next_level: p.xpToNextLevel,
  };
}

function runJson(r: DemoState['runs'][number]) {
  return {
    ...r,
    user_id: DEMO_USER_ID,
    pace_sec_per_km: r.distance_km > 0 ? Math.round(r.duration_sec / r.distance_km) : null,
  };
}

const sortedRuns = (state: DemoState) => [...state.runs].sort((a, b) => b.started_at.localeCompare(a.started_at));

const DEMO_NOTIFICATION_PREFERENCES = {
  upcoming_goal_enabled: true,
  midweek_update_enabled: true,
  ending_soon_enabled: true,
  upcoming_goal_time: '18:00:00',
  midweek_update_time: '18:00:00',
  ending_soon_time: '09:00:00',
};

/** The demo answers, by method and path; the shapes are those of the real API. */
const routes: [HttpMethod, RegExp, Handler][] = [
  [
    'GET',
    /^\/auth\/me$/,
    (s, now) => {
      const xp = xpOf(s, now);
      return {
        user: {
          id: DEMO_USER_ID,
          email: 'demo@stridestake.app',
          display_name: s.display_name,
          timezone: s.timezone,
          level: xp.level,
          tier: xp.tier,
          total_xp: xp.total_xp,
          avatar_url: null,
        },
      };
    },
  ],
  [
    'PATCH',
    /^\/auth\/me$/,
    (s, _n, _m, body) => {
      if (typeof body?.timezone === 'string') s.timezone = body.timezone;
      return { user: { id: DEMO_USER_ID, timezone: s.timezone } };
    },
  ],
  ['GET', /^\/me\/xp$/, (s, now) => ({ success: true, data: xpOf(s, now) })],
  [
    'GET',
    /^\/me\/streak$/,
    (s, now) => {
      const done = goalsOf(s, now).filter((g) => g.status === 'completed').length;
      return {
        success: true,
        data: { current_streak: done, longest_streak: Math.max(done, 3), last_completed_week: null },
      };
    },
  ],
  [
    'GET',
    /^\/goals\/current$/,
    (s, now) => ({
      success: true,
      data:
        goalsOf(s, now).find((g) => g.status === 'active' || (g.status === 'completed' && g.days_left !== null)) ??
        null,
    }),
  ],
  [
    'GET',
    /^\/goals\/upcoming$/,
    (s, now) => ({ success: true, data: goalsOf(s, now).find((g) => g.status === 'upcoming') ?? null }),
  ],
  [
    'GET',
    /^\/goals$/,
    (s, now) => ({
      success: true,
      goals: goalsOf(s, now)
        .sort((a, b) => b.period_start.localeCompare(a.period_start))
        .map((g) => ({ ...g, progress: { current: g.progress, percentage: g.percentage } })),
    }),
  ],
  [
    'POST',
    /^\/goals$/,
    (s, now, _m, body) => {
      const type = body?.type === 'count' ? 'count' : 'distance';
      const unit = body?.unit === 'mi' ? 'mi' : 'km';
      const value = Number(body?.target_value);
      const error = targetError(type, value, unit);
      if (error) throw new ApiError(error, 400);
      const instant = Temporal.Instant.fromEpochMilliseconds(now);
      const week = body?.start === 'next_week' ? nextWeekStart(instant, s.timezone) : weekStartOf(instant, s.timezone);
      if (s.goals.some((g) => g.week_start === week && !g.canceled))
        throw new ApiError('You already have a goal for this week', 409);
      const goal = {
        id: `demo-goal-${now}`,
        type,
        target_value: storedTarget(type, value, unit),
        week_start: week,
        stake_amount_cents: Number(body?.stake_amount_cents ?? 0),
        charity_id: typeof body?.charity_id === 'string' ? body.charity_id : null,
        canceled: false,
        created_at: instant.toString(),
      } as const;
      s.goals.push({ ...goal });
      return { success: true, data: demoGoalJson(s, goal, now) };
    },
  ],
  [
    'GET',
    /^\/goals\/([^/]+)\/stats$/,
    (s, now, m) => {
      const goal = s.goals.find((g) => g.id === m[1]);
      if (!goal) throw new ApiError('Goal not found', 404);
      return { success: true, goal: demoGoalJson(s, goal, now), stats: null, runs: [] };
    },
  ],
  [
    'PATCH',
    /^\/goals\/([^/]+)$/,
    (s, now, m) => {
      const goal = s.goals.find((g) => g.id === m[1]);
      if (!goal) throw new ApiError('Goal not found', 404);
      goal.canceled = true;
      return { success: true, data: demoGoalJson(s, goal, now) };
    },
  ],
  [
    'GET',
    /^\/runs$/,
    (s, _n, _m, _b, q) => {
      const since = q.get('since');
      const limit = Number(q.get('limit') ?? 20);
      const runs = sortedRuns(s)
        .filter((r) => !since || r.started_at >= since)
        .slice(0, limit);
      return { success: true, data: runs.map(runJson), next_cursor: null };
    },
  ],
  [
    'POST',
    /^\/runs$/,
    (s, now, _m, body) => {
      const run = {
        id: `demo-run-${now}`,
        started_at: String(body?.started_at ?? new Date(now).toISOString()),
        distance_km: Number(body?.distance_km ?? 0),
        duration_sec: Number(body?.duration_sec ?? 0),
        source: 'gps',
        notes: null,
      };
      s.runs.push(run);
      const current = goalsOf(s, now).find((g) => g.days_left !== null) ?? null;
      return { success: true, data: runJson(run), goal: current };
    },
  ],
  [
    'DELETE',
    /^\/runs\/([^/]+)$/,
    (s, _n, m) => {
      s.runs = s.runs.filter((r) => r.id !== m[1]);
      return { success: true, data: { id: m[1], deleted: true } };
    },
  ],
  [
    'GET',
    /^\/feed$/,
    (s, now, _m, _b, q) => {
      const filter = q.get('filter') ?? 'all';
      const runs = filter === 'all' || filter === 'runs' ? sortedRuns(s).slice(0, 6) : [];
      const stakes =
        filter === 'all' || filter === 'stakes' ? goalsOf(s, now).filter((g) => g.stake_amount_cents > 0) : [];
      const cards = [
        ...runs.map((r) => ({
          id: `feed-${r.id}`,
          event_type: 'run_completed',
          created_at: r.started_at,
          event_data: {
            user_name: s.display_name,
            distance_km: r.distance_km,
            duration_sec: r.duration_sec,
            xp_earned: Math.floor(r.distance_km * XP_PER_KM),
          },
        })),
        ...stakes.map((g) => ({
          id: `feed-${g.id}`,
          event_type: 'stake_created',
          created_at: g.created_at ?? new Date(now).toISOString(),
          event_data: {
            user_name: s.display_name,
            goal_type: g.type,
            amount: formatDollars(g.stake_amount_cents),
            has_charity: g.charity_id !== null,
          },
        })),
      ]
        .sort((a, b) => b.created_at.localeCompare(a.created_at))
        .map((c) => ({
          ...c,
          user_id: DEMO_USER_ID,
          group_id: null,
          is_visible: true,
          display_name: s.display_name,
          reactions: { thumbs_up: 1, clap: 0, fire: 2, reactions: [] },
        }));
      return { success: true, data: cards, next_cursor: null };
    },
  ],
  [
    'GET',
    /^\/me\/badges$/,
    (s) => {
      const earned = BADGE_DEFINITIONS.slice(0, 3);
      return {
        success: true,
        data: earned.map((d, i) => ({
          id: `demo-badge-${i}`,
          badge_type: d.badge_type,
          earned_at: s.runs[i]?.started_at ?? new Date().toISOString(),
          celebrated_at: s.runs[i]?.started_at ?? null,
          name: d.name,
          description: d.description,
          icon: d.icon,
          color: d.color,
        })),
      };
    },
  ],
  [
    'GET',
    /^\/stakes$/,
    (s, now) => ({
      success: true,
      data: goalsOf(s, now)
        .filter((g) => g.stake_amount_cents > 0)
        .map((g) => {
          const status = g.status === 'completed' ? 'succeeded' : g.status === 'missed' ? 'lost' : 'active';
          const label = status === 'succeeded' ? 'Refunded' : status === 'lost' ? 'Forfeited' : 'Active';
          return {
            id: `stake-${g.id}`,
            goal_id: g.id,
            week_start: g.period_start,
            amount_cents: g.stake_amount_cents,
            donation_amount_cents: null,
            charity: g.charity_id
              ? { id: g.charity_id, name: DEMO_CHARITIES.find((c) => c.id === g.charity_id)?.name ?? null }
              : null,
            status,
            label,
            created_at: g.created_at,
          };
        }),
    }),
  ],
  ['GET', /^\/charities$/, () => ({ success: true, charities: DEMO_CHARITIES })],
  [
    'GET',
    /^\/me\/preferences$/,
    (s) => ({
      success: true,
      data: { distance_unit: s.distance_unit, default_charity_id: null, remember_charity: false },
    }),
  ],
  [
    'PUT',
    /^\/me\/preferences$/,
    (s, _n, _m, body) => {
      if (body?.distance_unit === 'mi' || body?.distance_unit === 'km') s.distance_unit = body.distance_unit;
      return {
        success: true,
        data: { distance_unit: s.distance_unit, default_charity_id: null, remember_charity: false },
      };
    },
  ],
  // Notification settings answer the §9 defaults and accept changes without keeping them (nothing is sent in demo).
  ['GET', /^\/me\/notification-preferences$/, () => ({ success: true, data: DEMO_NOTIFICATION_PREFERENCES })],
  [
    'PUT',
    /^\/me\/notification-preferences$/,
    (_s, _n, _m, body) => ({
      success: true,
      data: { ...DEMO_NOTIFICATION_PREFERENCES, ...(body ?? {}) },
    }),
  ],
  ['POST', /^\/notifications\/test$/, () => ({ success: true, data: null })],
  [
    'GET',
    /^\/groups\/[^/]+\/challenges$/,
    () => ({ success: true, data: { weeklyDistance: [], streaks: [], fastestPaces: [] } }),
  ],
  ['GET', /^\/surge\/active$/, () => ({ success: true, data: null })],
  ['GET', /^\/groups$/, () => ({ success: true, groups: [] })],
  ['GET', /^\/api\/payment\/config$/, () => ({ publishableKey: null, gateway: 'local' })],
  ['POST', /^\/api\/payment\/setup-intent$/, () => ({ clientSecret: 'demo_secret', setupIntentId: 'demo_setup' })],
];

/**
 * Answers an API call from the demo data (§1, §6: demo mode bypasses the server). Unknown paths answer as the
 * server would for a missing resource, so screens show their normal error states.
 */
export async function demoRequest<T>(method: HttpMethod, pathWithQuery: string, body: unknown): Promise<T> {
  const url = new URL(pathWithQuery, 'http://demo.local');
  const now = Date.now();
  for (const [m, pattern, handler] of routes) {
    const match = m === method ? url.pathname.match(pattern) : null;
    if (!match) continue;
    const state = loadDemoState(now);
    const answer = handler(state, now, match, body as Body, url.searchParams);
    if (method !== 'GET') saveDemoState(state);
    return answer as T;
  }
  throw new ApiError('Not available in demo mode', 404);
}
