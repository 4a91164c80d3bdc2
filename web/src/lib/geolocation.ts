/** A GPS fix as the tracker records it (§3 Run gps_data positions). */
export interface GeoFix {
  readonly latitude: number;
  readonly longitude: number;
  readonly accuracy: number;
  readonly timestamp: number;
}

/** Why a position could not be had; the tracker turns each into the §8 message. */
export type GeoFailure = 'denied' | 'unavailable' | 'unsupported';

/**
 * The GPS capability the web app owns (capacitor-plugins style): a browser implementation here, a native one in
 * native/src chosen at start-up. Pages never check the platform.
 */
export interface Geolocation {
  /** Asks for permission (a first fix); resolves 'granted' or the failure. */
  requestPermission(): Promise<'granted' | GeoFailure>;
  /** Starts watching; returns a function that stops it. */
  watch(onFix: (fix: GeoFix) => void, onError: (failure: GeoFailure) => void): () => void;
  /**
   * Stop taps from outside the page (§4: the tracking notification's action, Android's foreground service); the
   * tracker answers each as its own Stop button. Absent where there is no such notification (the web). Answers an
   * unsubscribe.
   */
  onStopRequested?(listener: () => void): () => void;
}

// §9: high accuracy, no cache, 5 s timeout on the web.
const OPTIONS: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: 5_000 };

function failureOf(error: GeolocationPositionError): GeoFailure {
  return error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable';
}

/** The browser's navigator.geolocation. */
export function browserGeolocation(): Geolocation {
  return {
    requestPermission() {
      if (!('geolocation' in navigator)) return Promise.resolve('unsupported');
      return new Promise((resolve) => {
        navigator.geolocation.getCurrentPosition(
          () => resolve('granted'),
          (error) => resolve(failureOf(error)),
          OPTIONS,
        );
      });
    },
    watch(onFix, onError) {
      if (!('geolocation' in navigator)) {
        onError('unsupported');
        return () => {};
      }
      const id = navigator.geolocation.watchPosition(
        (p) =>
          onFix({
            latitude: p.coords.latitude,
            longitude: p.coords.longitude,
            accuracy: p.coords.accuracy,
            timestamp: p.timestamp,
          }),
        (error) => onError(failureOf(error)),
        OPTIONS,
      );
      return () => navigator.geolocation.clearWatch(id);
    },
  };
}

let current: Geolocation = browserGeolocation();

/** The geolocation in use; the native shell installs its own before rendering. */
export function geolocation(): Geolocation {
  return current;
}

/** Installs another implementation (native shell, tests). */
export function installGeolocation(next: Geolocation): void {
  current = next;
}
