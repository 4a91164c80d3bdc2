import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { subscribeStopRequests } from '../../web/src/features/runs/components/stop-from-notification.ts';
import type { GeoFailure, GeoFix, Geolocation } from '../../web/src/lib/geolocation.ts';
import {
  type BackgroundGeolocationLike,
  backgroundTracking,
  type ForegroundServiceLike,
  NOTIFICATION_UPDATE_MS,
  type RunSoFar,
  TRACKING_NOTIFICATION,
} from './background-tracking.ts';

const T0 = 1_700_000_000_000;

/** A fake @capawesome-team/capacitor-android-foreground-service: records calls, lets a test tap a button. */
function fakeForegroundService() {
  const calls: { method: string; options?: { body?: string } & Record<string, unknown> }[] = [];
  let onButton: ((event: { buttonId: number }) => void) | null = null;
  let removed = false;
  const record = (method: string) => async (options?: Record<string, unknown>) => {
    calls.push({ method, options });
  };
  const plugin = {
    createNotificationChannel: record('createNotificationChannel'),
    startForegroundService: record('startForegroundService'),
    updateForegroundService: record('updateForegroundService'),
    stopForegroundService: record('stopForegroundService'),
    requestPermissions: async () => ({ display: 'granted' }),
    addListener: async (_event: string, listener: (event: { buttonId: number }) => void) => {
      onButton = listener;
      return {
        remove: async () => {
          removed = true;
        },
      };
    },
  };
  return {
    plugin: plugin as unknown as ForegroundServiceLike,
    calls,
    bodies: () => calls.filter((c) => c.method !== 'createNotificationChannel').map((c) => c.options?.body),
    tap: (buttonId: number) => onButton?.({ buttonId }),
    removed: () => removed,
  };
}

/** A fake GPS: the test hands out fixes. */
function fakeGps(permission: 'granted' | GeoFailure = 'granted') {
  let emit: ((fix: GeoFix) => void) | null = null;
  let stops = 0;
  const geolocation: Geolocation = {
    requestPermission: async () => permission,
    watch(onFix) {
      emit = onFix;
      return () => {
        stops += 1;
        emit = null;
      };
    },
  };
  return { geolocation, fix: (fix: GeoFix) => emit?.(fix), stops: () => stops };
}

// A kilometre along a meridian (0.008993° of latitude ≈ 1 km) in fixes 100 m and 30 s apart: 12 km/h, a run.
const track: GeoFix[] = Array.from({ length: 11 }, (_, i) => ({
  latitude: 51.5 + i * 0.0008993,
  longitude: -0.12,
  accuracy: 5,
  timestamp: T0 - 300_000 + i * 30_000,
}));

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});

afterEach(() => {
  vi.useRealTimers();
});

function androidTracker(options: { unit?: 'km' | 'mi'; run?: () => RunSoFar | null } = {}) {
  const service = fakeForegroundService();
  const gps = fakeGps();
  const fixes: GeoFix[] = [];
  const tracker = backgroundTracking({
    platform: 'android',
    geolocation: gps.geolocation,
    foregroundService: service.plugin,
    unit: () => options.unit ?? 'km',
    runSoFar: options.run ?? (() => ({ startTime: T0, positions: fixes })),
  });
  return { service, gps, fixes, tracker };
}

describe('background GPS on Android: the foreground service notification (§4/§9)', () => {
  it('starts notification 1 on channel gps_tracking, of type location, with a Stop Run action', async () => {
    const { service, tracker } = androidTracker();
    tracker.watch(
      () => {},
      () => {},
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(service.calls[0]).toMatchObject({
      method: 'createNotificationChannel',
      options: { id: 'gps_tracking', name: 'GPS tracking' },
    });
    expect(service.calls[1]).toMatchObject({
      method: 'startForegroundService',
      options: {
        id: 1,
        notificationChannelId: 'gps_tracking',
        title: 'Tracking run',
        body: '0:00 · 0.00 km',
        serviceType: 8, // ServiceType.Location
        buttons: [{ id: TRACKING_NOTIFICATION.stopButtonId, title: 'Stop Run' }],
      },
    });
  });

  it('updates the text every 5 s with the elapsed time and the distance, in the user unit', async () => {
    const { service, gps, fixes, tracker } = androidTracker({ unit: 'mi' });
    tracker.watch(
      (fix) => fixes.push(fix),
      () => {},
    );
    await vi.advanceTimersByTimeAsync(0);
    for (const fix of track) gps.fix(fix);
    // A fix 10 km off a second later is a jump: not counted, as the tracker and the banner do not count it.
    gps.fix({ latitude: 51.6, longitude: -0.12, accuracy: 5, timestamp: T0 + 1_000 });
    await vi.advanceTimersByTimeAsync(NOTIFICATION_UPDATE_MS - 1);
    expect(service.bodies()).toEqual(['0:00 · 0.00 mi']);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(NOTIFICATION_UPDATE_MS);
    // 1 km is 0.62 mi; the clock went on 5 s and 10 s.
    expect(service.bodies()).toEqual(['0:00 · 0.00 mi', '0:05 · 0.62 mi', '0:10 · 0.62 mi']);
    expect(service.calls.filter((c) => c.method === 'updateForegroundService')).toHaveLength(2);
  });

  it('resumes the clock of a run started before a reload (the tracker state), in km', async () => {
    const { service, tracker } = androidTracker({ run: () => ({ startTime: T0 - 3_600_000, positions: [] }) });
    tracker.watch(
      () => {},
      () => {},
    );
    await vi.advanceTimersByTimeAsync(NOTIFICATION_UPDATE_MS);
    expect(service.bodies()).toEqual(['1:00:00 · 0.00 km', '1:00:05 · 0.00 km']);
  });

  it('Stop Run on the notification calls the tracker stop, the same path as its own Stop button', async () => {
    const { service, tracker } = androidTracker();
    const stops: string[] = [];
    const unsubscribe = tracker.onStopRequested?.(() => stops.push('stop'));
    tracker.watch(
      () => {},
      () => {},
    );
    await vi.advanceTimersByTimeAsync(0);
    service.tap(99); // another button: nothing
    expect(stops).toEqual([]);
    service.tap(TRACKING_NOTIFICATION.stopButtonId);
    expect(stops).toEqual(['stop']);
    unsubscribe?.();
    service.tap(TRACKING_NOTIFICATION.stopButtonId);
    expect(stops).toEqual(['stop']);
  });

  it("the run screen's subscription (stop-from-notification.ts) runs its Stop & Save once per tap, until it leaves", async () => {
    const { service, tracker } = androidTracker();
    const finished: string[] = [];
    const leave = subscribeStopRequests(tracker, async () => {
      finished.push('finish');
    });
    tracker.watch(
      () => {},
      () => {},
    );
    await vi.advanceTimersByTimeAsync(0);
    service.tap(TRACKING_NOTIFICATION.stopButtonId);
    expect(finished).toEqual(['finish']);
    leave();
    service.tap(TRACKING_NOTIFICATION.stopButtonId);
    expect(finished).toEqual(['finish']);
    // The tap made while nobody listened goes to the next screen that subscribes; a save that fails there is the
    // page's to show (use-finish-run.ts), never an unhandled rejection.
    const attempts: string[] = [];
    subscribeStopRequests(tracker, async () => {
      attempts.push('finish');
      throw new Error('offline');
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toEqual(['finish']);
  });

  it('a Stop tapped while no tracker listens (another page) reaches the next listener, once', async () => {
    const { service, tracker } = androidTracker();
    tracker.watch(
      () => {},
      () => {},
    );
    await vi.advanceTimersByTimeAsync(0);
    service.tap(TRACKING_NOTIFICATION.stopButtonId);
    const stops: string[] = [];
    tracker.onStopRequested?.(() => stops.push('first'));
    await vi.advanceTimersByTimeAsync(0);
    tracker.onStopRequested?.(() => stops.push('second'));
    await vi.advanceTimersByTimeAsync(0);
    expect(stops).toEqual(['first']);
  });

  it('stops cleanly: GPS watch, 5 s updates, button listener and the service', async () => {
    const { service, gps, tracker } = androidTracker();
    const stop = tracker.watch(
      () => {},
      () => {},
    );
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(NOTIFICATION_UPDATE_MS * 3);
    expect(gps.stops()).toBe(1);
    expect(service.removed()).toBe(true);
    expect(service.calls.map((c) => c.method)).toEqual([
      'createNotificationChannel',
      'startForegroundService',
      'stopForegroundService',
    ]);
  });

  it('a stop right after the start still stops the service, after it started', async () => {
    const { service, tracker } = androidTracker();
    tracker.watch(
      () => {},
      () => {},
    )();
    await vi.advanceTimersByTimeAsync(0);
    expect(service.calls.map((c) => c.method)).toEqual([
      'createNotificationChannel',
      'startForegroundService',
      'stopForegroundService',
    ]);
  });

  it('asks for the notification permission after location is granted, and not when refused', async () => {
    const asked: string[] = [];
    const service = fakeForegroundService();
    const plugin = {
      ...service.plugin,
      requestPermissions: async () => {
        asked.push('notifications');
        return { display: 'denied' as const };
      },
    } as ForegroundServiceLike;
    const granted = backgroundTracking({
      platform: 'android',
      geolocation: fakeGps('granted').geolocation,
      foregroundService: plugin,
    });
    expect(await granted.requestPermission()).toBe('granted');
    const denied = backgroundTracking({
      platform: 'android',
      geolocation: fakeGps('denied').geolocation,
      foregroundService: plugin,
    });
    expect(await denied.requestPermission()).toBe('denied');
    expect(asked).toEqual(['notifications']);
  });
});

describe('background GPS on iOS (@capgo/background-geolocation)', () => {
  function fakeBackground() {
    let callback: ((location?: unknown, error?: unknown) => void) | null = null;
    const options: unknown[] = [];
    let stopped = 0;
    const plugin = {
      start: async (opts: unknown, cb: (location?: unknown, error?: unknown) => void) => {
        options.push(opts);
        callback = cb;
      },
      stop: async () => {
        stopped += 1;
      },
    };
    return {
      plugin: plugin as unknown as BackgroundGeolocationLike,
      options,
      emit: (location?: unknown, error?: unknown) => callback?.(location, error),
      stopped: () => stopped,
    };
  }

  it('watches with background updates (so the system indicator shows) and hands over fixes and failures', async () => {
    const fake = fakeBackground();
    const fixes: GeoFix[] = [];
    const errors: GeoFailure[] = [];
    const stop = backgroundTracking({
      platform: 'ios',
      geolocation: fakeGps().geolocation,
      backgroundGeolocation: fake.plugin,
    }).watch(
      (f) => fixes.push(f),
      (e) => errors.push(e),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.options[0]).toMatchObject({ requestPermissions: false, stale: false });
    expect((fake.options[0] as { backgroundMessage?: string }).backgroundMessage).toBeTruthy();
    fake.emit({ latitude: 51.5, longitude: -0.12, accuracy: 7, time: T0 + 500 });
    fake.emit(undefined, { code: 'NOT_AUTHORIZED', message: 'no' });
    expect(fixes).toEqual([{ latitude: 51.5, longitude: -0.12, accuracy: 7, timestamp: T0 + 500 }]);
    expect(errors).toEqual(['denied']);
    stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.stopped()).toBe(1);
    fake.emit({ latitude: 1, longitude: 1, accuracy: 1, time: T0 });
    expect(fixes).toHaveLength(1);
  });
});
