import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GpsPosition } from '../../../../../domain/run/geo.ts';
import { runTimeline } from '../../../../../domain/run/run-figures.ts';
import { paceSeries } from './pace-series.ts';

const track = fc
  .array(fc.tuple(fc.double({ min: 0, max: 50, noNaN: true }), fc.integer({ min: 1, max: 10 })), {
    minLength: 1,
    maxLength: 300,
  })
  .map((legs) => {
    const positions: GpsPosition[] = [{ latitude: 10, longitude: 20, timestamp: 0 }];
    for (const [metres, sec] of legs) {
      const last = positions[positions.length - 1]!;
      positions.push({
        latitude: last.latitude + metres / 111_195,
        longitude: 20,
        timestamp: last.timestamp + sec * 1000,
      });
    }
    return positions;
  });

describe('paceSeries', () => {
  it('rises in distance from above 0 to the track’s length, with finite positive paces', () => {
    fc.assert(
      fc.property(track, fc.integer({ min: 1, max: 120 }), (t, samples) => {
        const timeline = runTimeline(t);
        const series = paceSeries(timeline, samples);
        const total = timeline.km[timeline.km.length - 1] ?? 0;
        expect(series.length).toBeLessThanOrEqual(samples + 1);
        let previous = 0;
        for (const p of series) {
          expect(p.km).toBeGreaterThan(previous);
          expect(p.km).toBeLessThanOrEqual(total + 1e-9);
          expect(Number.isFinite(p.paceSecPerKm) && p.paceSecPerKm > 0).toBe(true);
          previous = p.km;
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('is flat for a steady run', () => {
    // 1 km at 6:00/km, a fix every 5 m.
    const t: GpsPosition[] = Array.from({ length: 201 }, (_, i) => ({
      latitude: 10 + (i * 5) / 111_195,
      longitude: 20,
      timestamp: i * 1_800,
    }));
    const series = paceSeries(runTimeline(t), 20);
    expect(series).toHaveLength(21);
    for (const p of series) expect(p.paceSecPerKm).toBeCloseTo(360, 0);
  });

  it('shows nothing for a track that never moved', () => {
    const still = [
      { latitude: 1, longitude: 1, timestamp: 0 },
      { latitude: 1, longitude: 1, timestamp: 60_000 },
    ];
    expect(paceSeries(runTimeline(still))).toEqual([]);
  });
});
