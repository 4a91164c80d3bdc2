import type { GpsPosition } from '../../domain/run/geo.ts';
import { DEG_PER_KM, type Glitch, phoneTrack, type PhoneTrack } from '../../domain/run/track.test-helpers.ts';
import type { TestResponse, TestRuntime } from './test-runtime.ts';
import { freshToken, type TestUser } from './users.ts';

export type { PhoneTrack };

/** An honest runner's phone (domain/run/track.test-helpers.ts): fixes every 1–5 s, 5–15 m, realistic noise. */
export function honestTrack(
  startedAt: string,
  options: { km?: number; paceSecPerKm?: number; seed?: number; glitches?: readonly Glitch[] } = {},
): PhoneTrack {
  return phoneTrack({
    km: options.km ?? 5,
    paceSecPerKm: options.paceSecPerKm ?? 330,
    t0: Date.parse(startedAt),
    seed: options.seed ?? 1,
    glitches: options.glitches ?? [],
  });
}

/** A POST /runs body for a track (the client's distance is ignored by the server anyway). */
export function uploadBody(startedAt: string, durationSec: number, positions: readonly GpsPosition[]) {
  return { started_at: startedAt, distance_km: 0, duration_sec: durationSec, source: 'gps', gps_data: { positions } };
}

/** A straight track north at `kmh`, a fix every `stepSec` seconds, starting at `startedAt`. */
export function straightTrack(startedAt: string, kmh: number, sec: number, stepSec = 5, accuracy = 8): GpsPosition[] {
  const t0 = Date.parse(startedAt);
  return Array.from({ length: Math.floor(sec / stepSec) + 1 }, (_, i) => ({
    latitude: 40.6 + ((kmh * stepSec * i) / 3600) * DEG_PER_KM,
    longitude: -73.9,
    timestamp: t0 + i * stepSec * 1000,
    accuracy,
  }));
}

/**
 * Runs a GPS session as the web app's tracker does, on the runtime's manual clock: POST /runs/gps/start when the
 * track begins, then every `uploadEverySec` the fixes taken since the last upload (POST /runs/gps/positions), and
 * POST /runs/gps/finish with the last ones. `offline` drops uploads in a window; those fixes go up with the next
 * upload after it. Returns the finish answer.
 */
export async function runLiveSession(
  runtime: TestRuntime,
  user: TestUser,
  track: PhoneTrack,
  options: { uploadEverySec?: number; offline?: { fromSec: number; toSec: number } } = {},
): Promise<{ finish: TestResponse; user: TestUser }> {
  const every = (options.uploadEverySec ?? 15) * 1000;
  const t0 = track.positions[0]!.timestamp;
  runtime.clock.set(new Date(t0).toISOString());
  let me = await freshToken(runtime, user);
  const call = (path: string, body: unknown) => runtime.request('POST', path, { token: me.token, body });
  const start = await call('/runs/gps/start', {});
  if (start.status !== 201) throw new Error(`gps/start failed: ${start.status} ${start.text}`);
  const sessionId: string = start.body.data.session_id;
  let pending: GpsPosition[] = [];
  let next = t0 + every;
  for (const fix of track.positions) {
    while (fix.timestamp >= next) {
      const inOffline =
        options.offline && next - t0 >= options.offline.fromSec * 1000 && next - t0 < options.offline.toSec * 1000;
      if (!inOffline && pending.length > 0) {
        runtime.clock.set(new Date(next + 1500).toISOString());
        const sent = await call('/runs/gps/positions', { session_id: sessionId, positions: pending });
        if (sent.status !== 200) throw new Error(`gps/positions failed: ${sent.status} ${sent.text}`);
        pending = [];
      }
      next += every;
    }
    pending.push(fix);
  }
  runtime.clock.set(new Date(track.positions[track.positions.length - 1]!.timestamp + 2000).toISOString());
  me = await freshToken(runtime, me);
  const finish = await call('/runs/gps/finish', {
    session_id: sessionId,
    positions: track.positions,
    duration_sec: track.durationSec,
  });
  return { finish, user: me };
}
