import { Geolocation as CapacitorGeolocation, type GeolocationPlugin } from '@capacitor/geolocation';
import type { GeoFailure, Geolocation } from '../../web/src/lib/geolocation.ts';

/** The plugin calls this implementation makes (a test passes a fake). */
export type GeolocationPluginLike = Pick<
  GeolocationPlugin,
  'checkPermissions' | 'requestPermissions' | 'watchPosition' | 'clearWatch'
>;

// §9: high accuracy, no cache, 10 s timeout on native.
export const NATIVE_GPS_OPTIONS = { enableHighAccuracy: true, maximumAge: 0, timeout: 10_000 } as const;

// The plugin's error codes (README): permission refused (0003) or restricted by the device's owner (0008).
const DENIED_CODES = new Set(['OS-PLUG-GLOC-0003', 'OS-PLUG-GLOC-0008']);

function failureOf(error: unknown): GeoFailure {
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  return DENIED_CODES.has(code) ? 'denied' : 'unavailable';
}

/** GPS through @capacitor/geolocation (the OS location services), implementing the web app's interface. */
export function capacitorGeolocation(plugin: GeolocationPluginLike = CapacitorGeolocation): Geolocation {
  return {
    async requestPermission() {
      try {
        const current = await plugin.checkPermissions();
        if (current.location === 'granted') return 'granted';
        if (current.location === 'denied') return 'denied';
        const asked = await plugin.requestPermissions({ permissions: ['location'] });
        return asked.location === 'granted' ? 'granted' : 'denied';
      } catch (error) {
        return failureOf(error);
      }
    },
    watch(onFix, onError) {
      // The watch id arrives asynchronously; a stop before it does clears the watch as soon as it exists.
      let stopped = false;
      let id: string | null = null;
      plugin
        .watchPosition(NATIVE_GPS_OPTIONS, (position, error) => {
          if (stopped) return;
          if (error) onError(failureOf(error));
          else if (position)
            onFix({
              latitude: position.coords.latitude,
              longitude: position.coords.longitude,
              accuracy: position.coords.accuracy,
              timestamp: position.timestamp,
            });
        })
        .then((watchId) => {
          id = watchId;
          if (stopped) void plugin.clearWatch({ id: watchId });
        })
        .catch((error: unknown) => {
          if (!stopped) onError(failureOf(error));
        });
      return () => {
        stopped = true;
        if (id !== null) void plugin.clearWatch({ id });
      };
    },
  };
}
