import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARLIEST_RUN_MS, LATEST_FIX_MS } from '../run/limits.ts';
import { runBodySchema } from './run.ts';
import { runBodyFast } from './run-body-fast.ts';

/*
 * The shortcut answers only what runBodySchema answers: the same body, field for field and key for key (the sealed
 * track is the fixes' JSON, so their key order is stored), or null for the schema to parse. And it does answer the
 * bodies the app sends.
 */

const NUMBER_RUNS = 2000;

/** A value that is sometimes right for a field and often not. */
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.string({ maxLength: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

const goodFix = fc.record(
  {
    latitude: fc.double({ min: -90, max: 90, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    timestamp: fc.integer({ min: EARLIEST_RUN_MS, max: LATEST_FIX_MS - 1 }),
    accuracy: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 100_000, noNaN: true })),
  },
  { requiredKeys: ['latitude', 'longitude', 'timestamp'] },
);

/** A fix that may break any rule, carry other keys or come in another key order. */
const anyFix = fc.oneof(
  goodFix,
  fc
    .tuple(goodFix, fc.constantFrom('latitude', 'longitude', 'timestamp', 'accuracy', 'extra'), anyJson)
    .map(([fix, key, value]) => ({ ...fix, [key]: value })),
  fc
    .tuple(
      goodFix,
      fc.constantFrom(
        ['latitude', 90.5],
        ['latitude', -90.5],
        ['longitude', 180.5],
        ['longitude', -180.5],
        ['timestamp', EARLIEST_RUN_MS - 1],
        ['timestamp', LATEST_FIX_MS],
        ['accuracy', -0.5],
        ['accuracy', 100_000.5],
      ),
    )
    .map(([fix, [key, bad]]) => ({ ...fix, [key as string]: bad })),
  fc
    .tuple(goodFix, fc.boolean())
    .map(([fix, reversed]) => Object.fromEntries(reversed ? Object.entries(fix).reverse() : Object.entries(fix))),
  anyJson,
);

const goodBody = fc.record(
  {
    started_at: fc
      .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) })
      .map((ms) => new Date(ms).toISOString()),
    distance_km: fc.double({ min: 0, max: 100, noNaN: true }),
    duration_sec: fc.integer({ min: 0, max: 172_800 }),
    source: fc.constant('gps'),
    notes: fc.oneof(fc.constant(null), fc.string({ maxLength: 20 })),
    gps_data: fc.record({ positions: fc.array(goodFix, { maxLength: 30 }) }),
  },
  { requiredKeys: ['started_at', 'distance_km', 'duration_sec', 'gps_data'] },
);

/** A body that may break any rule of the schema, in the fixes or elsewhere. */
const anyBody = fc.oneof(
  goodBody,
  fc
    .tuple(goodBody, fc.array(anyFix, { maxLength: 6 }))
    .map(([body, positions]) => ({ ...body, gps_data: { positions } })),
  fc
    .tuple(
      goodBody,
      fc.constantFrom('started_at', 'distance_km', 'duration_sec', 'source', 'import_id', 'notes', 'gps_data', 'x'),
      fc.oneof(anyJson, fc.constantFrom('health_connect', 'apple_health', 'gps', '2026-11-02T07:00:00Z', '  ', 'w-1')),
    )
    .map(([body, key, value]) => ({ ...body, [key]: value })),
  fc.tuple(goodBody, anyJson).map(([body, extra]) => ({ ...body, gps_data: { ...body.gps_data, extra } })),
  anyJson,
);

describe('POST /runs bodies without zod walking the fixes', () => {
  it('answers exactly what runBodySchema answers, or leaves the body to it (property)', () => {
    fc.assert(
      fc.property(anyBody, (raw) => {
        const fast = runBodyFast(raw);
        if (fast === null) return;
        const schema = runBodySchema.safeParse(raw);
        expect(schema.success).toBe(true);
        expect(fast).toStrictEqual(schema.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(schema.data));
      }),
      { numRuns: NUMBER_RUNS },
    );
  });

  it('answers every body a GPS run sends (property)', () => {
    fc.assert(
      fc.property(goodBody, (raw) => {
        const fast = runBodyFast(raw);
        expect(fast).not.toBeNull();
        expect(JSON.stringify(fast)).toBe(JSON.stringify(runBodySchema.parse(raw)));
      }),
      { numRuns: NUMBER_RUNS },
    );
  });

  it('leaves a fix out of bounds, a health store workout and a refused body to the schema', () => {
    const body = {
      started_at: '2026-11-02T07:00:00Z',
      distance_km: 5,
      duration_sec: 1800,
      gps_data: { positions: [{ latitude: 48.8, longitude: 2.3, timestamp: 1_793_000_000_000, accuracy: 4 }] },
    };
    expect(runBodyFast(body)).not.toBeNull();
    const fix = body.gps_data.positions[0]!;
    expect(runBodyFast({ ...body, gps_data: { positions: [{ ...fix, latitude: 90.5 }] } })).toBeNull();
    expect(runBodyFast({ ...body, gps_data: { positions: [{ ...fix, accuracy: -1 }] } })).toBeNull();
    expect(runBodyFast({ ...body, source: 'health_connect', import_id: 'w-1' })).toBeNull();
    expect(runBodyFast({ ...body, duration_sec: -5 })).toBeNull();
    expect(runBodyFast({ ...body, gps_data: null })).toBeNull();
  });
});
