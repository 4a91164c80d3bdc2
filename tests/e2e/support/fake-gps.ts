import { gpsDistanceKm } from '../../../domain/run/geo.ts';
import type { BrowserContext, Page } from 'playwright-core';

/** A GPS fix the emulated device reports. */
export interface Fix {
  readonly latitude: number;
  readonly longitude: number;
  readonly accuracy: number;
}

/**
 * Replaces the browser's navigator.geolocation with a device the test drives: `emitFix` reports a position to every
 * watcher, `emitFailure` a position error. Playwright's own geolocation emulation stamps each position with the real
 * wall clock, while a journey runs minutes of a run in seconds on the page's fake clock (page.clock); here each
 * position carries the page's Date.now(), as a real device's fix carries the device's time.
 */
export async function installFakeGps(context: BrowserContext, start: Fix): Promise<void> {
  // Runs in the page (no DOM types on this side of the test: the shapes are written out).
  await context.addInitScript((first: Fix) => {
    type Position = { coords: Record<string, number | null>; timestamp: number };
    type PositionError = { code: number; message: string; PERMISSION_DENIED: 1; POSITION_UNAVAILABLE: 2; TIMEOUT: 3 };
    type Watcher = { success: (p: Position) => void; error?: ((e: PositionError) => void) | null };
    const watchers = new Map<number, Watcher>();
    let nextId = 1;
    let last = first;
    const position = (fix: Fix): Position => ({
      coords: {
        latitude: fix.latitude,
        longitude: fix.longitude,
        accuracy: fix.accuracy,
        altitude: null,
        altitudeAccuracy: null,
        heading: null,
        speed: null,
      },
      timestamp: Date.now(),
    });
    const device = {
      getCurrentPosition(success: (p: Position) => void) {
        setTimeout(() => success(position(last)), 0);
      },
      watchPosition(success: Watcher['success'], error?: Watcher['error']) {
        const id = nextId++;
        watchers.set(id, { success, error });
        return id;
      },
      clearWatch(id: number) {
        watchers.delete(id);
      },
    };
    Object.defineProperty(navigator, 'geolocation', { value: device, configurable: true });
    Object.assign(globalThis, {
      __fakeGps: {
        fix(fix: Fix) {
          last = fix;
          for (const w of watchers.values()) w.success(position(fix));
        },
        fail(code: number) {
          const error = {
            code,
            message: 'Position unavailable',
            PERMISSION_DENIED: 1,
            POSITION_UNAVAILABLE: 2,
            TIMEOUT: 3,
          } as const;
          for (const w of watchers.values()) w.error?.(error);
        },
        watching: () => watchers.size,
      },
    });
  }, start);
}

type FakeGpsWindow = { __fakeGps: { fix(fix: Fix): void; fail(code: number): void; watching(): number } };

/** The device reports a fix (stamped with the page's clock). */
export const emitFix = (page: Page, fix: Fix) =>
  page.evaluate((f) => (globalThis as unknown as FakeGpsWindow).__fakeGps.fix(f), fix);

/**
 * The device reports every fix of `track`, one each `everySec` seconds of the page's clock (fast-forwarded between
 * fixes, so a run's minutes pass in moments).
 */
export async function emitTrack(page: Page, track: readonly Fix[], everySec: number): Promise<void> {
  for (const [i, fix] of track.entries()) {
    if (i > 0) await page.clock.fastForward(everySec * 1000);
    await emitFix(page, fix);
  }
}

/** The device reports that no position can be had (POSITION_UNAVAILABLE: signal lost, services off). */
export const emitPositionUnavailable = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as FakeGpsWindow).__fakeGps.fail(2));

/** How many watchers the app has on the device (1 while a run is tracked). */
export const gpsWatchers = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as FakeGpsWindow).__fakeGps.watching());

const EARTH_RADIUS_M = 6_371_000;

/**
 * A realistic run: laps of a park loop (a circle of `loopMetres` around a point in London) at `paceSecPerKm`,
 * a fix every `everySec` seconds drifting a metre or two off the path, 4–9 m accuracy, for `km` kilometres.
 */
export function parkRun(options: { km: number; paceSecPerKm: number; everySec: number; loopMetres?: number }): Fix[] {
  const loop = options.loopMetres ?? 800;
  const radius = loop / (2 * Math.PI);
  const centre = { latitude: 51.5079, longitude: -0.1655 };
  const metresPerFix = (1000 / options.paceSecPerKm) * options.everySec;
  const count = Math.ceil((options.km * 1000) / metresPerFix) + 1;
  return Array.from({ length: count }, (_, i) => {
    const angle = ((i * metresPerFix) / radius) % (2 * Math.PI);
    // A slow, deterministic drift of up to ±1.5 m around the true path, as consecutive phone fixes drift.
    const wobble = Math.sin(i * 0.3) * 1.5;
    const north = (radius + wobble) * Math.cos(angle);
    const east = (radius + wobble) * Math.sin(angle);
    return {
      latitude: centre.latitude + (north / EARTH_RADIUS_M) * (180 / Math.PI),
      longitude:
        centre.longitude + (east / (EARTH_RADIUS_M * Math.cos((centre.latitude * Math.PI) / 180))) * (180 / Math.PI),
      accuracy: 4 + (i % 6),
    };
  });
}

/**
 * A POST /runs body for a run tracked in the app that started at `startMs`: `km` of the park loop at
 * `paceSecPerKm`, a fix every 3 s, as the GPS tracker posts it. For journeys that need runs but not the tracking.
 */
export function trackedRunBody(startMs: number, km: number, paceSecPerKm = 330) {
  const everySec = 3;
  const fixes = parkRun({ km, paceSecPerKm, everySec });
  const positions = fixes.map((f, i) => ({ ...f, timestamp: startMs + i * everySec * 1000 }));
  return {
    started_at: new Date(startMs).toISOString(),
    distance_km: Math.round(gpsDistanceKm(positions) * 100) / 100,
    duration_sec: (fixes.length - 1) * everySec,
    source: 'gps' as const,
    gps_data: { positions },
  };
}
