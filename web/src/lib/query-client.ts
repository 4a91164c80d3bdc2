import { QueryClient } from '@tanstack/react-query';
import { onDemoModeSwitch } from './demo-mode.ts';

/** §9: stale time 30 s, cache 5 minutes, 1 retry. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, gcTime: 5 * 60_000, retry: 1, refetchOnWindowFocus: false },
  },
});

// Sample answers and real ones must never mix in the cache: switching demo mode on or off empties it.
onDemoModeSwitch(() => queryClient.clear());
