import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpsPositionsSchema } from '../../../domain/validation/run.ts';
import { recordingFingerprint, recordingRunId } from './recording-id.ts';

// Fixes as a client sends them: whole-millisecond times, coordinates with the decimals a phone gives.
const fixArb = fc.record(
  {
    latitude: fc.integer({ min: -89_000_000, max: 89_000_000 }).map((n) => n / 1e6),
    longitude: fc.integer({ min: -179_000_000, max: 179_000_000 }).map((n) => n / 1e6),
    timestamp: fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
    accuracy: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
  },
  { requiredKeys: ['latitude', 'longitude', 'timestamp'] },
);
const trackArb = fc.array(fixArb, { minLength: 2, maxLength: 40 });
const userArb = fc.uuid();

/** The body's JSON with every object's keys in a shuffled order (seeded), as another client would write it. */
function shuffledJson(value: unknown, seed: number): string {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state;
  };
  const shuffle = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(shuffle);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v).map(([k, x]) => [k, shuffle(x)] as const);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next() % (i + 1);
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    return Object.fromEntries(entries);
  };
  return JSON.stringify(shuffle(value));
}

/** What the route does with a body: parse its JSON and validate the positions (unknown fields are stripped). */
const parsedPositions = (json: string) =>
  gpsPositionsSchema.parse((JSON.parse(json) as { positions: unknown }).positions);

describe('recordingFingerprint (the same recording is one run)', () => {
  it('is equal for the same recording whatever the JSON key order, the accuracy or other fields', () => {
    fc.assert(
      fc.property(
        userArb,
        trackArb,
        fc.integer(),
        fc.array(fc.integer({ min: 0, max: 1000 })),
        (user, track, seed, noise) => {
          const resent = track.map((fix, i) => ({
            ...fix,
            // Irrelevant to the recording: the reported accuracy, fields the schema drops, what the server stamps.
            accuracy: noise[i] === undefined ? fix.accuracy : noise[i]! % 61,
            altitude: noise[i] ?? 12,
            receivedAt: 1_950_000_000_000 + i,
          }));
          const first = parsedPositions(JSON.stringify({ positions: track }));
          const again = parsedPositions(shuffledJson({ positions: resent, notes: 'edited' }, seed));
          expect(recordingFingerprint(user, again)).toBe(recordingFingerprint(user, first));
          expect(recordingFingerprint(user, resent)).toBe(recordingFingerprint(user, track));
          expect(recordingRunId(user, again)).toBe(recordingRunId(user, first));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('changes when any fix moves (1e-5 degrees, about a metre), is retimed (1 ms), is dropped, added or reordered', () => {
    const changeArb = fc.oneof(
      fc.record({ kind: fc.constant('latitude' as const), by: fc.constantFrom(-1e-5, 1e-5, 0.001) }),
      fc.record({ kind: fc.constant('longitude' as const), by: fc.constantFrom(-1e-5, 1e-5, 0.001) }),
      fc.record({ kind: fc.constant('timestamp' as const), by: fc.constantFrom(-1, 1, 1000) }),
      fc.record({ kind: fc.constant('drop' as const), by: fc.constant(0) }),
      fc.record({ kind: fc.constant('duplicate' as const), by: fc.constant(0) }),
      fc.record({ kind: fc.constant('swap' as const), by: fc.constant(0) }),
    );
    fc.assert(
      fc.property(userArb, trackArb, fc.nat(), changeArb, (user, track, at, change) => {
        const i = at % track.length;
        const fix = track[i]!;
        let changed = [...track];
        if (change.kind === 'drop') changed.splice(i, 1);
        else if (change.kind === 'duplicate') changed.splice(i, 0, fix);
        else if (change.kind === 'swap') {
          const j = (i + 1) % track.length;
          fc.pre(
            track[j]!.timestamp !== fix.timestamp ||
              track[j]!.latitude !== fix.latitude ||
              track[j]!.longitude !== fix.longitude,
          );
          changed[i] = track[j]!;
          changed[j] = fix;
        } else changed = track.map((f, k) => (k === i ? { ...f, [change.kind]: f[change.kind] + change.by } : f));
        expect(recordingFingerprint(user, changed)).not.toBe(recordingFingerprint(user, track));
      }),
      { numRuns: 300 },
    );
  });

  it('is per user: the same track sent by two users is two recordings', () => {
    fc.assert(
      fc.property(userArb, userArb, trackArb, (a, b, track) => {
        fc.pre(a !== b);
        expect(recordingRunId(a, track)).not.toBe(recordingRunId(b, track));
      }),
    );
  });

  it('reads coordinates to 1e-6 degrees and times to the millisecond, so float noise of a JSON round trip is the same fix', () => {
    const track = [
      { latitude: 51.5, longitude: -0.1, timestamp: 1_800_000_000_000 },
      { latitude: 51.500123, longitude: -0.100456, timestamp: 1_800_000_030_000 },
    ];
    const noisy = track.map((f) => ({ ...f, latitude: f.latitude + 1e-9, longitude: f.longitude - 1e-9 }));
    expect(recordingFingerprint('u1', noisy)).toBe(recordingFingerprint('u1', track));
    expect(recordingFingerprint('u1', track)).toMatch(/^[0-9a-f]{64}$/);
    expect(recordingRunId('u1', track)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('is the fingerprint of the canonical text as first written, for any fixes (also ones no run can hold)', () => {
    const asFirstWritten = (
      user: string,
      positions: readonly { timestamp: number; latitude: number; longitude: number }[],
    ) => {
      const micro = (degrees: number) => Math.round(degrees * 1e6);
      let text = `stridestake-recording-v1\u0000${user}\u0000${positions.length}`;
      for (const f of positions) text += `\n${Math.round(f.timestamp)},${micro(f.latitude)},${micro(f.longitude)}`;
      return createHash('sha256').update(text).digest('hex');
    };
    const anyFix = fc.record({ latitude: fc.double(), longitude: fc.double(), timestamp: fc.double() });
    fc.assert(
      fc.property(fc.string(), fc.array(fc.oneof(fixArb, fixArb, anyFix), { maxLength: 30 }), (user, track) => {
        expect(recordingFingerprint(user, track)).toBe(asFirstWritten(user, track));
      }),
      { numRuns: 3_000 },
    );
  });

  it('names a recording as it always did: runs already saved keep their ids (a change of form bumps FORM)', () => {
    const track = [
      { timestamp: 1_763_449_200_000, latitude: 51.5007, longitude: -0.1246 },
      { timestamp: 1_763_449_203_000.4, latitude: 51.50081234567, longitude: -0.12449999 },
      { timestamp: 1_763_449_206_000, latitude: -0.0000001, longitude: 0 },
    ];
    expect(recordingFingerprint('user-1', track)).toBe(
      '94b74652c01f5e9340ab8dbc6ea520f597cda3daa6eced098724b5a0795c29f1',
    );
    expect(recordingRunId('user-1', track)).toBe('1f9bc529-3013-8543-851c-3595a642d546');
  });
});
