import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { loadAuthClient } from '../auth-client.ts';
import { useAuth } from '../auth.tsx';
import { storage } from '../storage.ts';
import { authCallbackDestination, completeAuthCallback, parseAuthCallback } from './auth-callback.ts';
import { connectionReturnPath } from './auth-callback-url.ts';
import { platform } from './index.ts';
import { routeForNotification } from './notification-routes.ts';
import { isOnboarded, markOnboarded } from './onboarding-state.ts';
import { PermissionsOnboarding } from './permissions-onboarding.tsx';
import { syncPush } from './push-sync.ts';

/** §9: the permissions onboarding shows about 500 ms after sign-in. */
export const ONBOARDING_DELAY_MS = 500;

/**
 * The shell's behaviour around the pages, rendered once inside the router: notification taps open their route,
 * each sign-in registers the push token (retrying one left pending), and a user new to this device gets the
 * permissions onboarding, and the auth callback deep link signs in. On the web there is no onboarding; push
 * registers only where the user allowed it (notification settings) and the server has a Web Push key.
 */
export function PlatformEffects() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const { session } = useAuth();
  const userId = session?.user.id ?? null;
  const [onboardingFor, setOnboardingFor] = useState<string | null>(null);

  useEffect(() => platform().push.onNotificationTap((data) => navigateRef.current(routeForNotification(data))), []);

  // The confirmation e-mail's deep link (native): sign in from its code or tokens, then open the dashboard.
  useEffect(
    () =>
      platform().onUrlOpen((url) => {
        // A provider's OAuth return (native): open the connected-apps page on its hand-over, which completes it with
        // this session's token. A full load, so the page reads the fragment afresh wherever the app was.
        const connectionReturn = connectionReturnPath(url);
        if (connectionReturn) {
          window.location.assign(connectionReturn);
          return;
        }
        const callback = parseAuthCallback(url);
        if (!callback) return;
        // A password-reset link lands on the reset screen (signed in with the recovery session), others on /app.
        const destination = authCallbackDestination(url);
        loadAuthClient()
          .then((client) => completeAuthCallback(callback, client))
          .then(() => navigateRef.current(destination, { replace: true }))
          .catch((error: unknown) => {
            console.error('Auth callback failed', error);
            navigateRef.current(destination === '/reset-password' ? '/forgot-password' : '/login', { replace: true });
          });
      }),
    [],
  );

  useEffect(() => {
    setOnboardingFor(null);
    if (!userId) return;
    void syncPush();
    if (!platform().shell.permissionsOnboarding || isOnboarded(storage, userId)) return;
    const timer = setTimeout(() => setOnboardingFor(userId), ONBOARDING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [userId]);

  const done = useCallback(() => {
    if (onboardingFor) markOnboarded(storage, onboardingFor);
    setOnboardingFor(null);
  }, [onboardingFor]);

  return onboardingFor ? <PermissionsOnboarding onDone={done} onPushAllowed={() => void syncPush()} /> : null;
}
