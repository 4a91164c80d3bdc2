import type { PluginListenerHandle } from '@capacitor/core';
import {
  ForegroundService,
  type ForegroundServicePlugin,
  Importance,
  ServiceType,
  type StartForegroundServiceOptions,
} from '@capawesome-team/capacitor-android-foreground-service';
import {
  BackgroundGeolocation,
  type BackgroundGeolocationPlugin,
  type CallbackError,
} from '@capgo/background-geolocation';
import { plausibleDistanceKm } from '../../domain/run/plausible-track.ts';
import { type DistanceUnit, formatDistance } from '../../domain/shared/units.ts';
import { formatDuration } from '../../web/src/lib/format.ts';
import type { GeoFailure, GeoFix, Geolocation } from '../../web/src/lib/geolocation.ts';
import { currentUserStorage } from '../../web/src/lib/storage.ts';
import { capacitorGeolocation } from './geolocation.ts';

/** §4/§9: the tracking notification (id 1, channel gps_tracking), its words and its Stop action. */
export const TRACKING_NOTIFICATION = {
  id: 1,
  channelId: 'gps_tracking',
  channelName: 'GPS tracking',
  channelDescription: 'Shown while a run is being tracked',
  title: 'Tracking run',
  /** res/drawable/ic_stat_run.xml in the Android project. */
  smallIcon: 'ic_stat_run',
  stopButtonId: 1,
  stopButtonTitle: 'Stop Run',
} as const;

/** §9: the tracking notification updates every 5 s. */
export const NOTIFICATION_UPDATE_MS = 5_000;

/** What iOS shows nowhere but the plugin needs to run in the background (the blue location indicator shows). */
const IOS_BACKGROUND_MESSAGE = 'StrideStake is tracking your run';

/** The foreground-service calls this module makes on Android (a test passes a fake). */
export type ForegroundServiceLike = Pick<
  ForegroundServicePlugin,
  | 'createNotificationChannel'
  | 'startForegroundService'
  | 'updateForegroundService'
  | 'stopForegroundService'
  | 'requestPermissions'
  | 'addListener'
>;

/** The background-location calls this module makes on iOS (a test passes a fake). */
export type BackgroundGeolocationLike = Pick<BackgroundGeolocationPlugin, 'start' | 'stop'>;

/** The run as the tracker keeps it: when it started and its fixes so far. */
export interface RunSoFar {
  readonly startTime: number;
  readonly positions: readonly GeoFix[];
}

export interface BackgroundTrackingDeps {
  readonly platform: 'ios' | 'android';
  /** Permission on both platforms, and the fixes on Android (the service keeps them coming in the background). */
  readonly geolocation?: Geolocation;
  readonly foregroundService?: ForegroundServiceLike;
  readonly backgroundGeolocation?: BackgroundGeolocationLike;
  /** The tracker's run (its persisted state), so the notification shows the figures the screen shows. */
  readonly runSoFar?: () => RunSoFar | null;
  readonly unit?: () => DistanceUnit;
  readonly now?: () => number;
}

/** The web tracker's persisted state (use-gps-tracker.ts keeps it on every fix; the banner reads it the same way). */
function persistedRun(): RunSoFar | null {
  const state = currentUserStorage().readJson<{ isTracking?: unknown; startTime?: unknown; positions?: unknown }>(
    'gpsTracking',
    {},
  );
  if (state.isTracking !== true || typeof state.startTime !== 'number' || !Array.isArray(state.positions)) return null;
  return { startTime: state.startTime, positions: state.positions as GeoFix[] };
}

function storedUnit(): DistanceUnit {
  return currentUserStorage().getItem('distanceUnit') === 'mi' ? 'mi' : 'km';
}

/**
 * The notification's text: elapsed time and distance in the user's unit, as the tracking banner and the tracker show
 * them (the distance the run policy counts: plausible-track.ts).
 */
export function trackingNotificationText(run: RunSoFar, now: number, unit: DistanceUnit): string {
  const elapsed = Math.max(0, Math.floor((now - run.startTime) / 1000));
  return `${formatDuration(elapsed)} · ${formatDistance(plausibleDistanceKm(run.positions), unit)}`;
}

function report(error: unknown): void {
  console.error('Background tracking', error);
}

function removeLater(handle: Promise<PluginListenerHandle>): void {
  handle.then((h) => h.remove()).catch(() => {});
}

// The plugin's codes (README): permission refused or location services off.
function backgroundFailure(error: CallbackError | unknown): GeoFailure {
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  return code === 'NOT_AUTHORIZED' || code === 'PERMISSION_DENIED' ? 'denied' : 'unavailable';
}

/**
 * The shell's GPS while a run is tracked, with the app in the background too (§4). Android: a foreground service of
 * type location shows notification 1 on channel gps_tracking with the elapsed time and distance, updated every 5 s,
 * and a Stop Run action; the fixes come from @capacitor/geolocation, which the running service keeps delivering.
 * iOS: @capgo/background-geolocation with background updates (the system's location indicator shows); iOS has no
 * ongoing notification to put a Stop action on. A Stop tap reaches the tracker through `onStopRequested`; one made
 * while no tracker listens (the app on another page) waits for the next listener, as a push tap waits.
 */
export function backgroundTracking(deps: BackgroundTrackingDeps): Geolocation {
  const geolocation = deps.geolocation ?? capacitorGeolocation();
  const now = deps.now ?? Date.now;
  const unit = deps.unit ?? storedUnit;
  const runSoFar = deps.runSoFar ?? persistedRun;
  const stopListeners = new Set<() => void>();
  let stopPending = false;

  const requestStop = () => {
    if (stopListeners.size === 0) {
      stopPending = true;
      return;
    }
    for (const listener of [...stopListeners]) listener();
  };

  const watchAndroid = (onFix: (fix: GeoFix) => void, onError: (failure: GeoFailure) => void) => {
    const service = deps.foregroundService ?? ForegroundService;
    const started = now();
    const ownFixes: GeoFix[] = [];
    const stopFixes = geolocation.watch((fix) => {
      ownFixes.push(fix);
      onFix(fix);
    }, onError);
    const options = (): StartForegroundServiceOptions => ({
      id: TRACKING_NOTIFICATION.id,
      notificationChannelId: TRACKING_NOTIFICATION.channelId,
      title: TRACKING_NOTIFICATION.title,
      // The tracker's run when it has one (a reload resumes its clock); else what this watch has seen.
      body: trackingNotificationText(runSoFar() ?? { startTime: started, positions: ownFixes }, now(), unit()),
      smallIcon: TRACKING_NOTIFICATION.smallIcon,
      buttons: [{ id: TRACKING_NOTIFICATION.stopButtonId, title: TRACKING_NOTIFICATION.stopButtonTitle }],
      serviceType: ServiceType.Location,
      silent: true,
    });
    const serviceUp = service
      .createNotificationChannel({
        id: TRACKING_NOTIFICATION.channelId,
        name: TRACKING_NOTIFICATION.channelName,
        description: TRACKING_NOTIFICATION.channelDescription,
        importance: Importance.Low,
      })
      .then(() => service.startForegroundService(options()))
      .catch(report);
    const timer = setInterval(() => {
      serviceUp.then(() => service.updateForegroundService(options())).catch(report);
    }, NOTIFICATION_UPDATE_MS);
    const button = service.addListener('buttonClicked', (event) => {
      if (event.buttonId === TRACKING_NOTIFICATION.stopButtonId) requestStop();
    });
    return () => {
      clearInterval(timer);
      stopFixes();
      removeLater(button);
      // After the start, so a stop right after a start never leaves the service running.
      serviceUp.then(() => service.stopForegroundService()).catch(report);
    };
  };

  const watchIos = (onFix: (fix: GeoFix) => void, onError: (failure: GeoFailure) => void) => {
    const plugin = deps.backgroundGeolocation ?? BackgroundGeolocation;
    let stopped = false;
    const running = plugin
      .start(
        {
          backgroundTitle: TRACKING_NOTIFICATION.title,
          backgroundMessage: IOS_BACKGROUND_MESSAGE,
          requestPermissions: false,
          stale: false,
          distanceFilter: 0,
        },
        (location, error) => {
          if (stopped) return;
          if (error) onError(backgroundFailure(error));
          else if (location)
            onFix({
              latitude: location.latitude,
              longitude: location.longitude,
              accuracy: location.accuracy,
              timestamp: location.time ?? now(),
            });
        },
      )
      .catch((error: unknown) => {
        if (!stopped) onError(backgroundFailure(error));
      });
    return () => {
      stopped = true;
      running.then(() => plugin.stop()).catch(report);
    };
  };

  return {
    async requestPermission() {
      const answer = await geolocation.requestPermission();
      // Android 13+: the service's notification needs its own permission; refused, the run is still tracked.
      if (answer === 'granted' && deps.platform === 'android')
        await (deps.foregroundService ?? ForegroundService).requestPermissions().catch(report);
      return answer;
    },
    watch(onFix, onError) {
      return deps.platform === 'android' ? watchAndroid(onFix, onError) : watchIos(onFix, onError);
    },
    onStopRequested(listener) {
      stopListeners.add(listener);
      if (stopPending) {
        stopPending = false;
        queueMicrotask(listener);
      }
      return () => {
        stopListeners.delete(listener);
      };
    },
  };
}
