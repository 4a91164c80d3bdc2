import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { API_URL } from '../lib/config.ts';
import { useAuth } from '../lib/auth.tsx';

/** Which cached lists each server change topic invalidates; runs also refresh goals and streak (§7). */
const KEYS_BY_TOPIC: Record<string, readonly string[]> = {
  goals: ['goals'],
  runs: ['runs', 'goals', 'streak'],
  streak: ['streak'],
  badges: ['badges'],
  xp: ['xp', 'me'],
  feed: ['feed'],
  reactions: ['feed'],
  groups: ['groups'],
  notifications: ['notifications'],
  stakes: ['stakes'],
  surge: ['surge'],
  profile: ['me'],
};

const DEBOUNCE_MS = 250;
const POLL_MS = 30_000;

/**
 * Listens to GET /realtime (SSE) while signed in and invalidates the cached lists a `changed` event names, after a
 * 250 ms debounce (§9). While the stream is down it falls back to refetching every 30 s.
 */
export function RealtimeSync() {
  const { session } = useAuth();
  const client = useQueryClient();
  const token = session?.access_token ?? null;

  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    const flush = () => {
      for (const key of pending) client.invalidateQueries({ queryKey: [key] });
      pending.clear();
    };
    // The browser's EventSource cannot send headers, so the token travels as a query parameter.
    const source = new EventSource(`${API_URL}/realtime?access_token=${encodeURIComponent(token)}`);
    source.addEventListener('changed', (event) => {
      try {
        const { topics } = JSON.parse((event as MessageEvent<string>).data) as { topics: string[] };
        for (const topic of topics) for (const key of KEYS_BY_TOPIC[topic] ?? []) pending.add(key);
      } catch {
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(flush, DEBOUNCE_MS);
    });
    source.addEventListener('ready', () => {
      clearInterval(poll);
      poll = undefined;
    });
    const startPolling = () => {
      poll ??= setInterval(() => {
        for (const key of ['goals', 'groups', 'runs', 'feed', 'notifications', 'streak', 'stakes']) {
          client.invalidateQueries({ queryKey: [key] });
        }
      }, POLL_MS);
    };
    source.onerror = startPolling;
    // The server ends a stream whose token expired or was signed out; reconnecting with it would only be refused.
    // The session's next token (refresh) opens a new stream through this effect; until then, poll.
    source.addEventListener('expired', () => {
      source.close();
      startPolling();
    });
    return () => {
      source.close();
      clearTimeout(timer);
      clearInterval(poll);
    };
  }, [token, client]);
  return null;
}
