import { useEffect, useState } from 'react';

/** The current time in milliseconds, refreshed every `everyMs` (a countdown that keeps counting while on screen). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
