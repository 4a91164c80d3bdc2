import { Health, type HealthPlugin, type Workout } from '@capgo/capacitor-health';
import { MAX_IMPORT_ID_LENGTH } from '../../domain/run/limits.ts';
import { MAX_LOGGED_RUN_AGE_DAYS } from '../../domain/run/policy.ts';
import { round2 } from '../../domain/shared/units.ts';
import { api } from '../../web/src/lib/api.ts';
import { ApiError } from '../../web/src/lib/api-error.ts';
import type {
  HealthImportResult,
  HealthRouteFix,
  HealthRoutes,
  HealthSource,
  HealthStore,
} from '../../web/src/lib/platform/health.ts';
import { currentUserStorage } from '../../web/src/lib/storage.ts';
import { capacitorHealthRoutes } from './health-routes.ts';
import { type RoutePosition, routePositions } from './health-route-positions.ts';

/** The plugin calls this module makes (a test passes a fake). */
export type HealthPluginLike = Pick<HealthPlugin, 'isAvailable' | 'requestAuthorization' | 'queryWorkouts'>;

/** What POST /runs receives for one workout (the body of a GPS run, with the health store as its source). */
export interface HealthRunBody {
  readonly started_at: string;
  readonly distance_km: number;
  readonly duration_sec: number;
  readonly source: HealthSource;
  /** The workout's id in its store: the API saves the same workout once. */
  readonly import_id: string;
  /** The workout's route where the runner grants routes and it can be this workout's (else none). */
  readonly gps_data: { readonly positions: readonly RoutePosition[] };
  readonly notes: null;
}

/** How a post went: saved (or saved before: the same workout is one run), refused by the API for good, or not sent. */
export type PostOutcome =
  | { kind: 'saved' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string };

/** What an import remembers between imports, per user: where the next one starts, and the workouts already sent. */
export interface ImportMemory {
  readonly since: string | null;
  readonly sent: readonly string[];
}

export interface HealthImportDeps {
  readonly platform: 'ios' | 'android';
  readonly plugin?: HealthPluginLike;
  /** The workouts' routes (the shell's HealthRoutes plugin); a test passes a fake. */
  readonly routes?: HealthRoutes;
  readonly post?: (body: HealthRunBody, idempotencyKey: string) => Promise<PostOutcome>;
  readonly load?: () => ImportMemory;
  readonly save?: (memory: ImportMemory) => void;
  readonly now?: () => number;
}

const STORE_NAME: Record<HealthSource, string> = { health_connect: 'Health Connect', apple_health: 'Apple Health' };
const DAY_MS = 86_400_000;
/** Workouts a page of the plugin's query holds (its default is 100). */
const PAGE = 100;
/** The workouts remembered as sent (a run a day for a month, many times over). */
const REMEMBERED = 500;

/** The sentences the runner reads. */
export const healthMessages = {
  unavailable: (store: string) => `${store} is not available on this phone.`,
  refused: (store: string) =>
    `StrideStake needs permission to read your workouts in ${store}. Allow it in ${store}, then try again.`,
  failed: (store: string, reason: string) => `Could not import from ${store}: ${reason}`,
  none: (store: string) => `No new runs in ${store}.`,
  imported: (store: string, count: number) => `Imported ${count} ${count === 1 ? 'run' : 'runs'} from ${store}.`,
  notAccepted: (count: number, reason: string) => `${count} not counted: ${reason}`,
  withRoutes: (count: number) => `${count} of them with ${count === 1 ? 'its' : 'their'} route.`,
};

/** The workout's id in its store (its start and end when the store gives none), as long as the API takes. */
export function workoutId(workout: Workout): string {
  return (workout.platformId || `${workout.startDate}/${workout.endDate}`).slice(0, MAX_IMPORT_ID_LENGTH);
}

/** The same workout always has the same key, so a resend is answered with the run already saved. */
export function workoutKey(source: HealthSource, workout: Workout): string {
  return `${source}:${workoutId(workout)}`;
}

/**
 * One running workout as a run: its start, its distance in km to 2 decimals, its duration in whole seconds. With its
 * route (the store's fixes) the run carries them and its duration is the workout's elapsed time (start to end, pauses
 * included), so the route lies inside the time the run claims; a route that could not be this workout's recording
 * (health-route-positions.ts) is left out and the workout goes as it did before routes were read.
 */
export function runBodyOf(
  source: HealthSource,
  workout: Workout,
  route: readonly HealthRouteFix[] = [],
): HealthRunBody {
  const withRoute = routePositions(workout, route);
  return {
    started_at: new Date(workout.startDate).toISOString(),
    distance_km: round2((workout.totalDistance ?? 0) / 1000),
    duration_sec: withRoute ? withRoute.durationSec : Math.round(workout.duration),
    source,
    import_id: workoutId(workout),
    gps_data: { positions: withRoute ? withRoute.positions : [] },
    notes: null,
  };
}

/** POST /runs through the app's API client; a 4xx other than a sign-in or rate limit is the API's final word. */
async function postRun(body: HealthRunBody, idempotencyKey: string): Promise<PostOutcome> {
  try {
    await api('/runs', { method: 'POST', body, idempotencyKey });
    return { kind: 'saved' };
  } catch (error) {
    if (!(error instanceof ApiError)) return { kind: 'failed', message: String(error) };
    const final = error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);
    return final ? { kind: 'refused', message: error.message } : { kind: 'failed', message: error.message };
  }
}

/** What the signed-in runner's imports remember (their own storage: lib/storage.ts USER_KEYS.healthImport). */
function loadMemory(): ImportMemory {
  const raw = currentUserStorage().readJson<Partial<ImportMemory> | null>('healthImport', null);
  return {
    since: typeof raw?.since === 'string' ? raw.since : null,
    sent: Array.isArray(raw?.sent) ? raw.sent.filter((id): id is string => typeof id === 'string') : [],
  };
}

function saveMemory(memory: ImportMemory): void {
  currentUserStorage().writeJson('healthImport', memory);
}

/**
 * Imports running workouts from Health Connect (Android) or Apple Health (iOS) as runs with source
 * `health_connect` / `apple_health`, each with its route where the runner grants routes (health-routes.ts). Asks for
 * read access to workouts and routes each time (the system shows its sheet only while undecided), reads the running
 * workouts since the last import (at most MAX_LOGGED_RUN_AGE_DAYS back), and posts each once: a workout already sent
 * is skipped, and its Idempotency-Key is the workout's own id. A network failure stops the import where it is; the
 * next one starts there again.
 */
export function healthImport(deps: HealthImportDeps): HealthStore {
  const source: HealthSource = deps.platform === 'android' ? 'health_connect' : 'apple_health';
  const store = STORE_NAME[source];
  const plugin = deps.plugin ?? Health;
  const routes = deps.routes ?? capacitorHealthRoutes();
  const post = deps.post ?? postRun;
  const load = deps.load ?? loadMemory;
  const save = deps.save ?? saveMemory;
  const now = deps.now ?? Date.now;
  const result = (ok: boolean, imported: number, message: string): HealthImportResult => ({
    source,
    ok,
    imported,
    message,
  });

  return {
    source,
    routes,
    async importWorkouts() {
      try {
        if (!(await plugin.isAvailable()).available) return result(false, 0, healthMessages.unavailable(store));
        const access = await plugin.requestAuthorization({ read: ['workouts', 'distance'] });
        if (!access.readAuthorized.includes('workouts')) return result(false, 0, healthMessages.refused(store));
      } catch {
        return result(false, 0, healthMessages.unavailable(store));
      }
      // Routes are the runner's to share: without access (or on a failure) the workouts go without them.
      const routesGranted = await routes.requestAccess();

      const memory = load();
      const until = now();
      const earliest = until - MAX_LOGGED_RUN_AGE_DAYS * DAY_MS;
      const since = Math.max(earliest, memory.since === null ? earliest : Date.parse(memory.since) || earliest);
      const sent = new Set(memory.sent);
      let imported = 0;
      let withRoutes = 0;
      const refusals: string[] = [];
      const remember = (nextSince: string) => save({ since: nextSince, sent: [...sent].slice(-REMEMBERED) });

      let anchor: string | undefined;
      do {
        let page: Awaited<ReturnType<HealthPluginLike['queryWorkouts']>>;
        try {
          page = await plugin.queryWorkouts({
            workoutType: 'running',
            startDate: new Date(since).toISOString(),
            endDate: new Date(until).toISOString(),
            ascending: true,
            limit: PAGE,
            ...(anchor === undefined ? {} : { anchor }),
          });
        } catch (error) {
          return result(false, imported, healthMessages.failed(store, String(error)));
        }
        for (const workout of page.workouts) {
          if (workout.workoutType !== 'running') continue;
          const key = workoutKey(source, workout);
          if (sent.has(key)) continue;
          const route = routesGranted ? await routes.routeOf(workoutId(workout)) : null;
          const body = runBodyOf(source, workout, route?.kind === 'route' ? route.fixes : []);
          const outcome = await post(body, key);
          if (outcome.kind === 'failed') {
            // Start here next time: this workout and those after it are read again.
            remember(new Date(Math.min(Date.parse(workout.startDate), until)).toISOString());
            return result(false, imported, healthMessages.failed(store, outcome.message));
          }
          sent.add(key);
          if (outcome.kind === 'saved') {
            imported += 1;
            if (body.gps_data.positions.length > 0) withRoutes += 1;
          } else refusals.push(outcome.message);
        }
        anchor = page.anchor ?? undefined;
      } while (anchor);

      remember(lastStart(since, until));
      const parts = [imported === 0 ? healthMessages.none(store) : healthMessages.imported(store, imported)];
      if (withRoutes > 0) parts.push(healthMessages.withRoutes(withRoutes));
      if (refusals.length > 0) parts.push(healthMessages.notAccepted(refusals.length, refusals[0]!));
      return result(true, imported, parts.join(' '));
    },
  };
}

/**
 * Where the next import starts: a day before this one ended, so a workout saved to the store late (a watch that
 * synced after the import) is still read; the sent list skips what went already.
 */
function lastStart(since: number, until: number): string {
  return new Date(Math.max(since, until - DAY_MS)).toISOString();
}
