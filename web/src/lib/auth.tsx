import type { Session } from '@supabase/auth-js';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { loadAuthClient, readySession, signOutEverywhere } from './auth-client.ts';
import { setDemoMode } from './demo-mode.ts';
import { api } from './api.ts';
import { passwordResetRedirectUrl } from './platform/auth-callback-url.ts';
import { platform } from './platform/index.ts';
import { releasePushToken } from './platform/push-registration.ts';
import { storage } from './storage.ts';
import { queryClient } from './query-client.ts';
import { setSignedOutNotice } from './session-end.ts';

export interface AuthState {
  readonly session: Session | null;
  /** True until the stored session has been read (protected pages show a spinner meanwhile, §2). */
  readonly loading: boolean;
  signIn(email: string, password: string): Promise<void>;
  signUp(input: { displayName: string; email: string; password: string }): Promise<void>;
  /** Confirms a sign-up with the code of the confirmation e-mail (POST /auth/v1/verify) and signs the user in. */
  confirmSignUp(email: string, code: string): Promise<void>;
  /** Mails the sign-up confirmation again (POST /auth/v1/resend). */
  resendConfirmation(email: string): Promise<void>;
  /** Mails a password-recovery link (POST /auth/v1/recover) landing on /reset-password. */
  requestPasswordReset(email: string): Promise<void>;
  /** Sets the signed-in (recovery) user's new password (PUT /auth/v1/user). */
  setNewPassword(password: string): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/** The browser's zone for the new profile (§7: timezone from the browser), falling back to the server default. */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the session in React state, following the client's auth events (sign-in, refresh, sign-out). A stored
 * session that is ready to use (readySession) is the state from the first render, so a returning runner's pages
 * render without waiting for the auth client to load; the client then confirms it (or replaces it) with its events.
 */
export function AuthProvider({ children }: { readonly children: ReactNode }) {
  const [initial] = useState(readySession);
  const [session, setSession] = useState<Session | null>(initial);
  const [loading, setLoading] = useState(initial === null);

  useEffect(() => {
    let live = true;
    let unsubscribe = () => {};
    // The first screen's cache (app/first-screen.ts) is this user's: only another user's answers are dropped.
    let lastUserId: string | null = initial?.user.id ?? null;
    void loadAuthClient().then((client) => {
      if (!live) return;
      const { data } = client.onAuthStateChange((_event, next) => {
        // Another user's cached answers must not show after a switch of account or a sign-out.
        const userId = next?.user.id ?? null;
        if (userId !== lastUserId) queryClient.clear();
        lastUserId = userId;
        setSession(next);
        setLoading(false);
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [initial]);

  const value = useMemo<AuthState>(
    () => ({
      session,
      loading,
      // Auth errors are rethrown to the caller (§8), which shows the toast.
      async signIn(email, password) {
        const { error } = await (await loadAuthClient()).signInWithPassword({ email, password });
        if (error) throw error;
        setSignedOutNotice(null);
        setDemoMode(false);
      },
      async signUp({ displayName, email, password }) {
        const { error } = await (await loadAuthClient()).signUp({
          email,
          password,
          options: {
            data: { display_name: displayName, timezone: browserTimeZone() },
            // The web app's /app, or on native the app's own auth callback deep link (§2).
            emailRedirectTo: platform().shell.authRedirectUrl(),
          },
        });
        if (error) throw error;
      },
      async confirmSignUp(email, code) {
        const { error } = await (await loadAuthClient()).verifyOtp({ email, token: code, type: 'signup' });
        if (error) throw error;
        setSignedOutNotice(null);
        setDemoMode(false);
      },
      async resendConfirmation(email) {
        const { error } = await (await loadAuthClient()).resend({
          type: 'signup',
          email,
          options: { emailRedirectTo: platform().shell.authRedirectUrl() },
        });
        if (error) throw error;
      },
      async requestPasswordReset(email) {
        const { error } = await (await loadAuthClient()).resetPasswordForEmail(email, {
          // The web app's reset screen, or on native the shell's reset deep link (platform/auth-callback-url.ts).
          redirectTo: passwordResetRedirectUrl(platform().shell.authRedirectUrl(), window.location.origin),
        });
        if (error) throw error;
      },
      async setNewPassword(password) {
        const { error } = await (await loadAuthClient()).updateUser({ password });
        if (error) throw error;
        setSignedOutNotice(null);
        setDemoMode(false);
      },
      async signOut() {
        setDemoMode(false);
        // While the session still authorises it: this device stops receiving this account's notifications.
        await releasePushToken(storage, (token) =>
          api('/notifications/unregister', { method: 'DELETE', body: { token } }).then(() => undefined),
        );
        // Everywhere (GoTrue's global scope): a phone left signed in is signed out too, and says so when next used.
        // This device forgets the user: cache, and their data in storage (auth-client.ts, lib/storage.ts).
        await signOutEverywhere();
      },
    }),
    [session, loading],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The auth state; throws when used outside the provider (§8: missing provider). */
export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
