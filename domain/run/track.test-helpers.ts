import type { GpsPosition } from './geo.ts';

/** Degrees of latitude per km on the 6371 km sphere. */
export const DEG_PER_KM = 360 / (2 * Math.PI * 6371);

/** A straight track north from (40, -74) at `kmh`, one fix every `stepSec` seconds, starting at `t0` (ms). */
export function track(kmh: number, fixes: number, stepSec = 5, accuracy = 8, t0 = 1_741_600_000_000): GpsPosition[] {
  return Array.from({ length: fixes }, (_, i) => ({
    latitude: 40 + ((kmh * stepSec * i) / 3600) * DEG_PER_KM,
    longitude: -74,
    timestamp: t0 + i * stepSec * 1000,
    accuracy,
  }));
}

/** A small seeded PRNG (mulberry32): the same seed gives the same track, so tests are repeatable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A short loss of signal or a wild fix, the glitches every phone has. */
export type Glitch =
  | { readonly kind: 'gap'; readonly atSec: number; readonly sec: number }
  | { readonly kind: 'spike'; readonly atSec: number; readonly metres: number };

/** How the generated runner and phone behave. */
export interface PhoneTrackOptions {
  readonly km: number;
  readonly paceSecPerKm: number;
  /** Start, epoch ms. */
  readonly t0: number;
  readonly seed: number;
  /** Seconds between fixes, drawn uniformly (a phone reports every 1–5 s). */
  readonly fixEverySec?: readonly [number, number];
  /** Reported accuracy (m), drawn uniformly. */
  readonly accuracyM?: readonly [number, number];
  readonly glitches?: readonly Glitch[];
  readonly start?: { readonly latitude: number; readonly longitude: number };
}

/** A generated run as a phone records it, with the true distance the runner covered. */
export interface PhoneTrack {
  readonly positions: GpsPosition[];
  readonly trueKm: number;
  readonly durationSec: number;
}

/**
 * A realistic phone track: a runner at about `paceSecPerKm` (±5%, drifting) along a gently winding route, fixes
 * every 1–5 s with 5–15 m reported accuracy, and the chipset's error as a slowly wandering offset (about 5 m,
 * correlated over two minutes), which is how real GPS noise looks: smooth, not white.
 */
export function phoneTrack(options: PhoneTrackOptions): PhoneTrack {
  const random = seededRandom(options.seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const [minStep, maxStep] = options.fixEverySec ?? [1, 5];
  const [minAcc, maxAcc] = options.accuracyM ?? [5, 15];
  const start = options.start ?? { latitude: 40.7, longitude: -74.0 };
  const mPerDegLon = (1000 / DEG_PER_KM) * Math.cos((start.latitude * Math.PI) / 180);
  const mPerDegLat = 1000 / DEG_PER_KM;
  const durationSec = Math.round(options.km * options.paceSecPerKm);
  const positions: GpsPosition[] = [];
  let [x, y, heading, speedFactor, noiseX, noiseY, t, trueM] = [0, 0, random() * 2 * Math.PI, 1, 0, 0, 0, 0];
  const tau = 120;
  const sigma = 5;
  for (;;) {
    const inGap = options.glitches?.some((g) => g.kind === 'gap' && t > g.atSec && t < g.atSec + g.sec);
    const spike = options.glitches?.find((g) => g.kind === 'spike' && t >= g.atSec && t - g.atSec < maxStep);
    if (!inGap) {
      const off = spike?.kind === 'spike' ? spike.metres : 0;
      positions.push({
        latitude: start.latitude + (y + noiseY + off) / mPerDegLat,
        longitude: start.longitude + (x + noiseX) / mPerDegLon,
        timestamp: options.t0 + t * 1000,
        accuracy: Math.round(minAcc + random() * (maxAcc - minAcc)),
      });
    }
    if (t >= durationSec) break;
    const step = Math.min(minStep + Math.round(random() * (maxStep - minStep)), durationSec - t);
    heading += normal() * 0.05 * Math.sqrt(step);
    speedFactor = Math.min(1.05, Math.max(0.95, speedFactor + normal() * 0.005 * step));
    const metres = (1000 / options.paceSecPerKm) * speedFactor * step;
    x += Math.cos(heading) * metres;
    y += Math.sin(heading) * metres;
    trueM += metres;
    const keep = Math.exp(-step / tau);
    const spread = sigma * Math.sqrt(1 - keep * keep);
    noiseX = noiseX * keep + normal() * spread;
    noiseY = noiseY * keep + normal() * spread;
    t += step;
  }
  return { positions, trueKm: trueM / 1000, durationSec };
}
