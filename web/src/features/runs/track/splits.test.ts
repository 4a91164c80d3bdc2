import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GpsPosition } from '../../../../../domain/run/geo.ts';
import { runTimeline } from '../../../../../domain/run/run-figures.ts';
import { SPLIT_KM, splitsOf } from './splits.ts';

/** A track heading north-east by legs of 0–60 m every 1–10 s (a runner, a walker, a pause). */
const track = fc
  .array(
    fc.tuple(
      fc.double({ min: 0, max: 60, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer({ min: 1, max: 10 }),
    ),
    {
      minLength: 1,
      maxLength: 400,
    },
  )
  .map((legs) => {
    const positions: GpsPosition[] = [{ latitude: 40.78, longitude: -73.96, timestamp: 1_700_000_000_000 }];
    for (const [metres, bearing, sec] of legs) {
      const last = positions[positions.length - 1]!;
      const north = metres * Math.cos(bearing * Math.PI * 2);
      const east = metres * Math.sin(bearing * Math.PI * 2);
      positions.push({
        latitude: last.latitude + north / 111_195,
        longitude: last.longitude + east / (111_195 * Math.cos((last.latitude * Math.PI) / 180)),
        timestamp: last.timestamp + sec * 1000,
      });
    }
    return positions;
  });
const unit = fc.constantFrom(SPLIT_KM.km, SPLIT_KM.mi, 0.25);

describe('splitsOf', () => {
  it('adds up to the run’s distance and time, whatever the track', () => {
    const figures = fc.record({
      distanceKm: fc.double({ min: 0.01, max: 50, noNaN: true }),
      durationSec: fc.integer({ min: 60, max: 20_000 }),
    });
    fc.assert(
      fc.property(track, unit, figures, (t, splitKm, f) => {
        const timeline = runTimeline(t, f);
        fc.pre(
          timeline.km.length >= 2 &&
            timeline.km[timeline.km.length - 1]! > 0 &&
            timeline.sec[timeline.sec.length - 1]! > 0,
        );
        const splits = splitsOf(timeline, splitKm);
        const km = splits.reduce((sum, s) => sum + s.distanceKm, 0);
        const sec = splits.reduce((sum, s) => sum + s.durationSec, 0);
        expect(km).toBeCloseTo(f.distanceKm, 6);
        expect(sec).toBeCloseTo(f.durationSec, 6);
      }),
      { numRuns: 1_000 },
    );
  });

  it('has one whole split per unit covered, numbered from 1, each taking time that is not negative', () => {
    fc.assert(
      fc.property(track, unit, (t, splitKm) => {
        const timeline = runTimeline(t);
        const splits = splitsOf(timeline, splitKm);
        const whole = Math.floor((timeline.km[timeline.km.length - 1] ?? 0) / splitKm + 1e-9);
        expect(splits.filter((s) => s.complete).length).toBe(whole);
        splits.forEach((s, i) => {
          expect(s.index).toBe(i + 1);
          expect(s.durationSec).toBeGreaterThanOrEqual(-1e-9);
          if (s.complete) expect(s.distanceKm).toBeGreaterThanOrEqual(splitKm - 1e-9);
        });
      }),
      { numRuns: 1_000 },
    );
  });

  it('times each km of a steady run at its pace', () => {
    // 2.5 km due north at 5:00/km, a fix every 10 m.
    const t: GpsPosition[] = Array.from({ length: 251 }, (_, i) => ({
      latitude: 51.5 + (i * 10) / 111_195,
      longitude: -0.12,
      timestamp: i * 3_000,
    }));
    const splits = splitsOf(runTimeline(t), 1);
    expect(splits.map((s) => s.complete)).toEqual([true, true, false]);
    for (const s of splits) expect(s.paceSecPerKm!).toBeCloseTo(300, 0);
    expect(splits[2]!.distanceKm).toBeCloseTo(0.5, 2);
  });

  it('has nothing to split in a single fix', () => {
    expect(splitsOf(runTimeline([{ latitude: 0, longitude: 0, timestamp: 0 }]), 1)).toEqual([]);
  });
});
