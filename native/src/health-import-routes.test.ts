import type { Workout } from '@capgo/capacitor-health';
import { describe, expect, it } from 'vitest';
import { runBodySchema } from '../../domain/validation/run.ts';
import type { HealthRouteFix, HealthRouteResult, HealthRoutes } from '../../web/src/lib/platform/health.ts';
import { MAX_ROUTE_FIXES } from './health-route-positions.ts';
import { type HealthPluginLike, type HealthRunBody, healthImport, type ImportMemory } from './health-import.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const START = Date.parse('2026-11-26T09:00:00Z');

/** A 30-minute run paused for 2 minutes: the store's duration is the moving time, 28 minutes. */
const run: Workout = {
  workoutType: 'running',
  duration: 1_680,
  totalDistance: 5_000,
  startDate: '2026-11-26T09:00:00.000Z',
  endDate: '2026-11-26T09:30:00.000Z',
  platformId: 'hc-route',
};
const other: Workout = {
  ...run,
  platformId: 'hc-other',
  startDate: '2026-11-26T10:00:00.000Z',
  endDate: '2026-11-26T10:30:00.000Z',
};

/** A fix every `stepSec` from `fromMs` for `sec` seconds, heading north. */
function fixes(fromMs: number, sec: number, stepSec = 5): HealthRouteFix[] {
  return Array.from({ length: Math.floor(sec / stepSec) + 1 }, (_, i) => ({
    lat: 51.5 + i * 0.0001,
    lng: -0.12,
    at: new Date(fromMs + i * stepSec * 1000).toISOString(),
    accuracy: 7,
    altitude: 30,
  }));
}

function fakeHealth(workouts: Workout[]): HealthPluginLike {
  return {
    isAvailable: async () => ({ available: true }),
    requestAuthorization: async () => ({
      readAuthorized: ['workouts', 'distance'],
      readDenied: [],
      writeAuthorized: [],
      writeDenied: [],
    }),
    queryWorkouts: async () => ({ workouts, anchor: undefined }),
  } as unknown as HealthPluginLike;
}

/** The web app's HealthRoutes as the shell implements it, with routes by workout id. */
function fakeRoutes(byId: Record<string, HealthRouteResult>, granted = true) {
  const asked: string[] = [];
  const routes: HealthRoutes = {
    requestAccess: async () => granted,
    routeOf: async (id) => {
      asked.push(id);
      return byId[id] ?? { kind: 'none' };
    },
  };
  return { routes, asked };
}

async function importWith(workouts: Workout[], routes: HealthRoutes) {
  const posts: HealthRunBody[] = [];
  let memory: ImportMemory = { since: null, sent: [] };
  const result = await healthImport({
    platform: 'android',
    plugin: fakeHealth(workouts),
    routes,
    post: async (body) => {
      posts.push(body);
      return { kind: 'saved' };
    },
    load: () => memory,
    save: (m) => {
      memory = m;
    },
    now: () => NOW,
  }).importWorkouts();
  return { result, posts };
}

describe('health import with routes (HealthRoutes mocked)', () => {
  it('sends a granted route as the run’s fixes, claiming the workout’s elapsed time; the API schema accepts it', async () => {
    const route = fixes(START, 1_800);
    const { routes, asked } = fakeRoutes({ 'hc-route': { kind: 'route', fixes: route } });
    const { result, posts } = await importWith([run, other], routes);
    expect(asked).toEqual(['hc-route', 'hc-other']);
    const [withRoute, without] = posts;
    expect(withRoute!.gps_data.positions).toHaveLength(route.length);
    expect(withRoute!.gps_data.positions[0]).toEqual({
      latitude: 51.5,
      longitude: -0.12,
      timestamp: START,
      accuracy: 7,
    });
    // Start to end (30 min), not the store's moving time (28 min): the route's last fix lies inside the run's time.
    expect(withRoute!.duration_sec).toBe(1_800);
    expect(runBodySchema.safeParse(withRoute).success).toBe(true);
    // The other workout has no route: it goes as before, with the store's duration.
    expect(without).toMatchObject({ import_id: 'hc-other', duration_sec: 1_680, gps_data: { positions: [] } });
    expect(result.message).toBe('Imported 2 runs from Health Connect. 1 of them with its route.');
  });

  it('routes not granted: none is read, every workout goes without one as before', async () => {
    const { routes, asked } = fakeRoutes({ 'hc-route': { kind: 'route', fixes: fixes(START, 1_800) } }, false);
    const { result, posts } = await importWith([run], routes);
    expect(asked).toEqual([]);
    expect(posts[0]).toMatchObject({ duration_sec: 1_680, gps_data: { positions: [] } });
    expect(result.message).toBe('Imported 1 run from Health Connect.');
  });

  it('a route declined for this workout, or none, leaves the workout without one', async () => {
    const { routes } = fakeRoutes({ 'hc-route': { kind: 'denied' } });
    const { posts } = await importWith([run, other], routes);
    expect(posts.map((p) => p.gps_data.positions.length)).toEqual([0, 0]);
  });

  it('a route that cannot be this workout’s (outside its time, one fix) is left out, so the API does not refuse the workout', async () => {
    const yesterday = fixes(START - 86_400_000, 1_800);
    const single = fixes(Date.parse(other.startDate), 0);
    const { routes } = fakeRoutes({
      'hc-route': { kind: 'route', fixes: yesterday },
      'hc-other': { kind: 'route', fixes: single },
    });
    const { posts, result } = await importWith([run, other], routes);
    expect(posts.map((p) => p.gps_data.positions.length)).toEqual([0, 0]);
    for (const body of posts) expect(runBodySchema.safeParse(body).success).toBe(true);
    expect(result.message).toBe('Imported 2 runs from Health Connect.');
  });

  it('a dense route is thinned to MAX_ROUTE_FIXES, its first and last fix kept', async () => {
    const dense = fixes(START, 1_800, 0.1);
    expect(dense.length).toBeGreaterThan(MAX_ROUTE_FIXES);
    const { routes } = fakeRoutes({ 'hc-route': { kind: 'route', fixes: dense } });
    const { posts } = await importWith([run], routes);
    const positions = posts[0]!.gps_data.positions;
    expect(positions).toHaveLength(MAX_ROUTE_FIXES);
    expect(positions[0]!.timestamp).toBe(START);
    expect(positions.at(-1)!.timestamp).toBe(Date.parse(dense.at(-1)!.at));
    expect(runBodySchema.safeParse(posts[0]).success).toBe(true);
  });
});
