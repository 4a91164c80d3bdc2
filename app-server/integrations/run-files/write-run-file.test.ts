import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpsDistanceKm } from '../../../domain/run/geo.ts';
import { recordingFingerprint } from '../../commands/runs/recording-id.ts';
import { parseRunFile } from './parse-run-file.ts';
import { type ExportedRun, writeGpx } from './write-gpx.ts';
import { writeTcx } from './write-tcx.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

/** A track: 2 to 300 fixes moving forward in time, each step a few metres to a few hundred, anywhere on the globe. */
const track = fc
  .record({
    startMs: fc.integer({ min: Date.parse('2001-01-01'), max: Date.parse('2099-01-01') }),
    lat: fc.double({ min: -80, max: 80, noNaN: true }),
    lon: fc.double({ min: -179, max: 179, noNaN: true }),
    steps: fc.array(
      fc.record({
        dtMs: fc.integer({ min: 1, max: 60_000 }),
        dLat: fc.double({ min: -0.003, max: 0.003, noNaN: true }),
        dLon: fc.double({ min: -0.003, max: 0.003, noNaN: true }),
        ele: fc.option(fc.double({ min: -400, max: 8800, noNaN: true }), { nil: null }),
      }),
      { minLength: 1, maxLength: 300 },
    ),
    device: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
  })
  .map(({ startMs, lat, lon, steps, device }) => {
    let t = startMs;
    let la = lat;
    let lo = lon;
    const positions = [{ timestamp: t, latitude: la, longitude: lo, elevation: null as number | null }];
    for (const s of steps) {
      t += s.dtMs;
      la = Math.max(-89, Math.min(89, la + s.dLat));
      lo = Math.max(-180, Math.min(180, lo + s.dLon));
      positions.push({ timestamp: t, latitude: la, longitude: lo, elevation: s.ele });
    }
    const run: ExportedRun = {
      name: 'Run <&> "quoted"',
      startedAtMs: startMs,
      durationSec: (t - startMs) / 1000,
      distanceKm: gpsDistanceKm(positions),
      positions,
      device,
    };
    return run;
  });

describe.each([
  ['GPX', writeGpx],
  ['TCX', writeTcx],
])('%s written, then read', (_name, write) => {
  it('gives back every fix exactly: the same times, the same distance, the same recording', () => {
    fc.assert(
      fc.property(track, (run) => {
        const file = parseRunFile(bytes(write(run)));
        expect(file.positions.map((p) => p.timestamp)).toEqual(run.positions.map((p) => p.timestamp));
        const km = gpsDistanceKm(run.positions);
        expect(Math.abs(gpsDistanceKm(file.positions) - km)).toBeLessThanOrEqual(km * 0.005);
        // Exactly the same recording: imported by the run's owner, it is the run already saved.
        expect(recordingFingerprint('u', file.positions)).toBe(recordingFingerprint('u', run.positions));
        // -0 m is written as 0 m: the same height.
        const height = (e: number | null | undefined) => (typeof e === 'number' ? e + 0 : null);
        expect(file.positions.map((p) => height(p.elevation))).toEqual(run.positions.map((p) => height(p.elevation)));
        expect(file.creator).toBe('StrideStake');
      }),
      { numRuns: 500 },
    );
  });
});
