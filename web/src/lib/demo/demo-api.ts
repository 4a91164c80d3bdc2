import { Temporal } from 'temporal-polyfill';
import { targetError, storedTarget } from '../../../../domain/goal/target.ts';
import { type GpsPosition, gpsDistanceKm } from '../../../../domain/run/geo.ts';
import { isWithinWeek, nextWeekStart, weekStartingOn, weekStartOf } from '../../../../domain/shared/week.ts';
import { milestoneText } from '../../../../domain/stats/milestones.ts';
import { paceSecPerKm, runTotals } from '../../../../domain/stats/run-totals.ts';
import { countOnce, countableRun } from '../../../../domain/run/count-once.ts';
import { verificationJson } from '../../../../domain/run/verification-json.ts';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../../../domain/validation/notifications.ts';
import { ApiError } from '../api-error.ts';
import type { HttpMethod } from '../api.ts';
import { type DemoRun, type DemoState, loadDemoState, saveDemoState } from './demo-data.ts';
import { demoFeedRoutes } from './demo-feed.ts';
import { demoGoalJson } from './demo-goals.ts';
import { demoGroupRoutes } from './demo-groups.ts';
import { DEMO_USER_ID, type DemoBody, type DemoRoute } from './demo-route.ts';
import { demoRecordedAt, demoTrack, demoVerification } from './demo-verdict.ts';
import { DEMO_EARNED_BADGES, demoRunXpRows, demoStreak, demoXp } from './demo-xp.ts';

/** The demo's open GPS session, if any (in memory: a reload mid-run ends it, as the demo keeps no server). */
let demoSession: { id: string; startedAt: string } | null = null;
const DEMO_CHARITIES = [
  { id: 'demo-charity-1', name: 'Girls on the Run', description: 'Confidence through running.', logo_url: null },
  {
    id: 'demo-charity-2',
    name: 'Doctors Without Borders',
    description: 'Medical care where it is needed most.',
    logo_url: null,
  },
];

const goalsOf = (state: DemoState, now: number) => state.goals.map((g) => demoGoalJson(state, g, now));

/** The demo user's runs as the cross-run rules see them (one run at a time, a track counted once). */
const countableRuns = (state: DemoState) =>
  state.runs.map((r) =>
    countableRun(
      {
        runId: r.id,
        startedAt: r.started_at,
        durationSec: r.duration_sec,
        verification: r.verification ?? demoVerification(r),
      },
      demoRecordedAt(r),
    ),
  );

/**
 * Demo runs in the API's shape (§3 Run), each run's verification counted among all the demo's runs as the server
 * does. The cross-run count is done once for the whole answer, not once per run.
 */
function runsJson(state: DemoState, runs: readonly DemoRun[]) {
  const counted = countOnce(countableRuns(state), 'staked_goal');
  return runs.map((r) => {
    const { verification, xp_multiplier: _surge, ...run } = r;
    return {
      ...run,
      user_id: DEMO_USER_ID,
      pace_sec_per_km: paceSecPerKm(r.distance_km, r.duration_sec),
      import_id: null,
      verification: verificationJson(verification ?? demoVerification(r), r.distance_km, counted.get(r.id)),
      recorded_at: demoRecordedAt(r),
    };
  });
}

const runJson = (state: DemoState, run: DemoRun) => runsJson(state, [run])[0]!;

const sortedRuns = (state: DemoState) => [...state.runs].sort((a, b) => b.started_at.localeCompare(a.started_at));

/** The demo answers, by method and path; the shapes are those of the real API. */
const routes: readonly DemoRoute[] = [
  [
    'GET',
    /^\/auth\/me$/,
    (s, now) => {
      const xp = demoXp(s, now);
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
  ['GET', /^\/me\/xp$/, (s, now) => ({ success: true, data: demoXp(s, now) })],
  ['GET', /^\/me\/streak$/, (s, now) => ({ success: true, data: demoStreak(s, now) })],
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
      // The week's runs and their figures by the same rules as the server (§2 goal stats).
      const week = weekStartingOn(goal.week_start, s.timezone);
      const runs = sortedRuns(s).filter((r) => isWithinWeek(Temporal.Instant.from(r.started_at), week));
      const stats = runTotals(runs);
      return {
        success: true,
        goal: demoGoalJson(s, goal, now),
        stats,
        runs: runsJson(s, runs),
        milestone: milestoneText(stats.total_distance_km),
      };
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
      return { success: true, data: runsJson(s, runs), next_cursor: null };
    },
  ],
  [
    'POST',
    /^\/runs$/,
    (s, now, _m, body) => {
      const positions = Array.isArray(body?.positions) ? (body.positions as GpsPosition[]) : [];
      const run: DemoRun = {
        id: `demo-run-${now}`,
        started_at: String(body?.started_at ?? new Date(now).toISOString()),
        distance_km: positions.length >= 2 ? gpsDistanceKm(positions) : Number(body?.distance_km ?? 0),
        duration_sec: Number(body?.duration_sec ?? 0),
        source: 'gps',
        notes: null,
        recorded_at: new Date(now).toISOString(),
      };
      run.verification = demoVerification(run, positions);
      s.runs.push(run);
      const current = goalsOf(s, now).find((g) => g.days_left !== null) ?? null;
      return { success: true, data: runJson(s, run), goal: current };
    },
  ],
  // The tracker's server session (§4 GPS run): the demo keeps it in memory and saves the run from its fixes.
  [
    'POST',
    /^\/runs\/gps\/start$/,
    (_s, now) => {
      if (demoSession !== null) throw new ApiError('Tracking is already active', 409);
      demoSession = { id: `demo-session-${now}`, startedAt: new Date(now).toISOString() };
      return { success: true, data: { session_id: demoSession.id, started_at: demoSession.startedAt } };
    },
  ],
  [
    'POST',
    /^\/runs\/gps\/positions$/,
    (_s, _n, _m, body) => {
      if (demoSession === null || body?.session_id !== demoSession.id)
        throw new ApiError('No GPS tracking is active', 409);
      return { success: true, data: { session_id: demoSession.id, received: 0 } };
    },
  ],
  [
    'POST',
    /^\/runs\/gps\/finish$/,
    (s, now, _m, body) => {
      const session = demoSession;
      if (session === null) throw new ApiError('No GPS tracking is active', 409);
      demoSession = null;
      const positions = Array.isArray(body?.positions) ? (body.positions as GpsPosition[]) : [];
      if (body?.discard === true) return { success: true, data: null, goal: null };
      const run: DemoRun = {
        id: `demo-run-${now}`,
        started_at: session.startedAt,
        distance_km: gpsDistanceKm(positions),
        duration_sec: Math.round(Number(body?.duration_sec ?? (now - Date.parse(session.startedAt)) / 1000)),
        source: 'gps',
        notes: null,
        recorded_at: new Date(now).toISOString(),
      };
      run.verification = demoVerification(run, positions);
      s.runs.push(run);
      const current = goalsOf(s, now).find((g) => g.days_left !== null) ?? null;
      return { success: true, data: runJson(s, run), goal: current };
    },
  ],
  [
    'GET',
    /^\/runs\/(demo-run-[^/]+)$/,
    (s, _n, m) => {
      const run = s.runs.find((r) => r.id === m[1]);
      if (!run) throw new ApiError('Run not found', 404);
      // The demo keeps no tracks: the detail view draws the steady sample track the run policy judged.
      return { success: true, data: { ...runJson(s, run), gps_data: { positions: demoTrack(run) } } };
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
    /^\/me\/badges$/,
    (s) => {
      const earned = DEMO_EARNED_BADGES;
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
      stakes: goalsOf(s, now)
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
            on_hold: status === 'active',
            payment_problem: null,
            decline_code: null,
            next_attempt_at: null,
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
  ['GET', /^\/me\/notification-preferences$/, () => ({ success: true, data: DEFAULT_NOTIFICATION_PREFERENCES })],
  [
    'PUT',
    /^\/me\/notification-preferences$/,
    (_s, _n, _m, body) => ({
      success: true,
      data: { ...DEFAULT_NOTIFICATION_PREFERENCES, ...(body ?? {}) },
    }),
  ],
  ['POST', /^\/notifications\/test$/, () => ({ success: true, data: null })],
  ['GET', /^\/surge\/active$/, () => ({ success: true, data: null })],
  [
    'GET',
    /^\/me\/xp-history$/,
    (s, now, _m, _b, q) => {
      const ids = new Set((q.get('run_ids') ?? '').split(',').filter(Boolean));
      const rows = demoRunXpRows(s, now);
      return { success: true, data: s.runs.filter((r) => ids.has(r.id)).flatMap((r) => rows.get(r.id) ?? []) };
    },
  ],
  // No service is connected in the demo; connecting needs an account (the screen says so before asking).
  ['GET', /^\/api\/integrations$/, () => ({ success: true, data: [] })],
  ...demoGroupRoutes,
  ...demoFeedRoutes,
  ['GET', /^\/api\/payment\/config$/, () => ({ publishableKey: null, gateway: 'local' })],
  ['POST', /^\/api\/payment\/setup-intent$/, () => ({ clientSecret: 'demo_secret', setupIntentId: 'demo_setup' })],
  // Demo mode takes no money: any card number "saves", and no card is kept for next time.
  ['GET', /^\/api\/payment\/payment-methods$/, () => ({ success: true, paymentMethods: [] })],
  [
    'POST',
    /^\/api\/payment\/local\/setup-intent\/confirm$/,
    () => ({
      setupIntent: { id: 'demo_setup', status: 'succeeded', payment_method: 'pm_demo_card', next_action: null },
    }),
  ],
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
    const answer = handler(state, now, match, body as DemoBody, url.searchParams);
    if (method !== 'GET') saveDemoState(state);
    return answer as T;
  }
  throw new ApiError('Not available in demo mode', 404);
}
