import type { Workout } from '@capgo/capacitor-health';
import { describe, expect, it } from 'vitest';
import { runBodySchema } from '../../domain/validation/run.ts';
import {
  type HealthPluginLike,
  type HealthRunBody,
  healthImport,
  healthMessages,
  type ImportMemory,
  type PostOutcome,
  runBodyOf,
} from './health-import.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');

const run1: Workout = {
  workoutType: 'running',
  duration: 1_800.4,
  totalDistance: 5_012.7,
  startDate: '2026-11-24T07:00:00.000Z',
  endDate: '2026-11-24T07:30:00.400Z',
  platformId: 'hc-1',
};
const run2: Workout = {
  workoutType: 'running',
  duration: 2_400,
  totalDistance: 8_000,
  startDate: '2026-11-25T18:00:00.000Z',
  endDate: '2026-11-25T18:40:00.000Z',
  platformId: 'hc-2',
};
const walk: Workout = { ...run2, workoutType: 'walking', platformId: 'hc-walk' };

/** A fake @capgo/capacitor-health whose store holds `workouts`, read in pages of `pageSize`. */
function fakeHealth(workouts: Workout[], options: { granted?: boolean; available?: boolean; pageSize?: number } = {}) {
  const queries: Record<string, unknown>[] = [];
  const plugin = {
    isAvailable: async () => ({ available: options.available ?? true }),
    requestAuthorization: async () => ({
      readAuthorized: options.granted === false ? [] : ['workouts', 'distance'],
      readDenied: options.granted === false ? ['workouts', 'distance'] : [],
      writeAuthorized: [],
      writeDenied: [],
    }),
    queryWorkouts: async (query: Record<string, unknown>) => {
      queries.push(query);
      const size = options.pageSize ?? 100;
      const from = query.anchor === undefined ? 0 : Number(query.anchor);
      const next = from + size;
      return {
        workouts: workouts.slice(from, next),
        anchor: next < workouts.length ? String(next) : undefined,
      };
    },
  };
  return { plugin: plugin as unknown as HealthPluginLike, queries };
}

/** The API as POST /runs answers: an Idempotency-Key seen before answers with the run already saved (one run). */
function fakeApi(answer: (body: HealthRunBody) => PostOutcome = () => ({ kind: 'saved' })) {
  const posts: { body: HealthRunBody; key: string }[] = [];
  const runs = new Map<string, HealthRunBody>();
  const post = async (body: HealthRunBody, key: string) => {
    posts.push({ body, key });
    const outcome = answer(body);
    if (outcome.kind === 'saved' && !runs.has(key)) runs.set(key, body);
    return outcome;
  };
  return { post, posts, runs };
}

function memory() {
  let kept: ImportMemory = { since: null, sent: [] };
  const save = (m: ImportMemory) => {
    kept = m;
  };
  return { load: () => kept, save, kept: () => kept };
}

describe('health import (@capgo/capacitor-health)', () => {
  it('posts each running workout as a run with source health_connect on Android', async () => {
    const health = fakeHealth([run1, walk, run2]);
    const api = fakeApi();
    const result = await healthImport({
      platform: 'android',
      plugin: health.plugin,
      post: api.post,
      ...memory(),
      now: () => NOW,
    }).importWorkouts();
    expect(api.posts).toEqual([
      {
        key: 'health_connect:hc-1',
        body: {
          started_at: '2026-11-24T07:00:00.000Z',
          distance_km: 5.01,
          duration_sec: 1_800,
          source: 'health_connect',
          import_id: 'hc-1',
          gps_data: { positions: [] },
          notes: null,
        },
      },
      {
        key: 'health_connect:hc-2',
        body: {
          started_at: '2026-11-25T18:00:00.000Z',
          distance_km: 8,
          duration_sec: 2_400,
          source: 'health_connect',
          import_id: 'hc-2',
          gps_data: { positions: [] },
          notes: null,
        },
      },
    ]);
    expect(result).toEqual({
      source: 'health_connect',
      ok: true,
      imported: 2,
      message: 'Imported 2 runs from Health Connect.',
    });
    // Running workouts only, oldest first, at most 7 days back (the API takes uploads that far back).
    expect(health.queries[0]).toMatchObject({
      workoutType: 'running',
      ascending: true,
      startDate: '2026-11-19T12:00:00.000Z',
      endDate: '2026-11-26T12:00:00.000Z',
    });
  });

  it('is apple_health on iOS, and reads every page', async () => {
    const health = fakeHealth([run1, run2], { pageSize: 1 });
    const api = fakeApi();
    const result = await healthImport({
      platform: 'ios',
      plugin: health.plugin,
      post: api.post,
      ...memory(),
      now: () => NOW,
    }).importWorkouts();
    expect(api.posts.map((p) => [p.key, p.body.source])).toEqual([
      ['apple_health:hc-1', 'apple_health'],
      ['apple_health:hc-2', 'apple_health'],
    ]);
    expect(health.queries).toHaveLength(2);
    expect(result.message).toBe('Imported 2 runs from Apple Health.');
  });

  it('the same workout twice is one run: not posted again, and its key is the workout id', async () => {
    const api = fakeApi();
    const kept = memory();
    const importer = (workouts: Workout[]) =>
      healthImport({
        platform: 'android',
        plugin: fakeHealth(workouts).plugin,
        post: api.post,
        ...kept,
        now: () => NOW,
      });
    await importer([run1]).importWorkouts();
    // The store lists it again (the next import reads a day back), and twice in one page.
    const again = await importer([run1, run1, run2]).importWorkouts();
    expect(api.posts.map((p) => p.key)).toEqual(['health_connect:hc-1', 'health_connect:hc-2']);
    expect(api.runs.size).toBe(2);
    expect(again.message).toBe('Imported 1 run from Health Connect.');
    // Even with the device's memory lost, the resend carries the same Idempotency-Key: the API saves one run.
    await healthImport({
      platform: 'android',
      plugin: fakeHealth([run1]).plugin,
      post: api.post,
      ...memory(),
      now: () => NOW,
    }).importWorkouts();
    expect(api.posts.at(-1)?.key).toBe('health_connect:hc-1');
    expect(api.runs.size).toBe(2);
  });

  it('permission refused: a sentence, nothing read, nothing posted', async () => {
    const health = fakeHealth([run1], { granted: false });
    const api = fakeApi();
    const result = await healthImport({
      platform: 'ios',
      plugin: health.plugin,
      post: api.post,
      ...memory(),
      now: () => NOW,
    }).importWorkouts();
    expect(result).toEqual({
      source: 'apple_health',
      ok: false,
      imported: 0,
      message:
        'StrideStake needs permission to read your workouts in Apple Health. Allow it in Apple Health, then try again.',
    });
    expect(health.queries).toEqual([]);
    expect(api.posts).toEqual([]);
  });

  it('no health store on the phone: a sentence', async () => {
    const result = await healthImport({
      platform: 'android',
      plugin: fakeHealth([], { available: false }).plugin,
      post: fakeApi().post,
      ...memory(),
      now: () => NOW,
    }).importWorkouts();
    expect(result.ok).toBe(false);
    expect(result.message).toBe(healthMessages.unavailable('Health Connect'));
  });

  it('a refusal by the run policy is said and not retried; a network failure stops and is retried next time', async () => {
    const kept = memory();
    const refusing = fakeApi((body) =>
      body.started_at.startsWith('2026-11-24')
        ? { kind: 'refused', message: 'A run can be logged at most 7 days back' }
        : { kind: 'failed', message: 'Request failed' },
    );
    const first = await healthImport({
      platform: 'android',
      plugin: fakeHealth([run1, run2]).plugin,
      post: refusing.post,
      ...kept,
      now: () => NOW,
    }).importWorkouts();
    expect(first).toMatchObject({ ok: false, imported: 0 });
    expect(first.message).toBe('Could not import from Health Connect: Request failed');
    // The next import starts at the workout that did not go, and sends only it.
    expect(kept.kept().since).toBe(run2.startDate);
    const api = fakeApi();
    const second = await healthImport({
      platform: 'android',
      plugin: fakeHealth([run1, run2]).plugin,
      post: api.post,
      ...kept,
      now: () => NOW,
    }).importWorkouts();
    expect(api.posts.map((p) => p.key)).toEqual(['health_connect:hc-2']);
    expect(second).toMatchObject({ ok: true, imported: 1 });
  });

  it('says what the API did not accept', async () => {
    const result = await healthImport({
      platform: 'android',
      plugin: fakeHealth([run1]).plugin,
      post: fakeApi(() => ({ kind: 'refused', message: 'A run can be logged at most 7 days back' })).post,
      ...memory(),
      now: () => NOW,
    }).importWorkouts();
    expect(result.message).toBe(
      'No new runs in Health Connect. 1 not counted: A run can be logged at most 7 days back',
    );
  });

  it('posts bodies the API accepts (POST /runs schema), without a platform id too', () => {
    for (const w of [run1, { ...run2, platformId: undefined }])
      for (const source of ['health_connect', 'apple_health'] as const)
        expect(runBodySchema.safeParse(runBodyOf(source, w)).success).toBe(true);
  });
});
