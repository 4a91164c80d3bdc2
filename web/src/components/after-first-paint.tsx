import { type ReactNode, useEffect, useState } from 'react';

/** Past the app's first paint: from then on, AfterFirstPaint renders its children at once. */
let painted = false;
const waiting = new Set<() => void>();
/** A page opened in a background tab gets no animation frames: its deferred parts come after this at the latest. */
const AT_THE_LATEST_MS = 1_000;

function markPainted(): void {
  if (painted) return;
  painted = true;
  for (const done of waiting) done();
  waiting.clear();
}

/** Calls `done` once the first paint is on screen (the task after the next frame); returns a cancel. */
function onFirstPaint(done: () => void): () => void {
  if (painted) {
    done();
    return () => {};
  }
  if (waiting.size === 0) {
    requestAnimationFrame(() => setTimeout(markPainted, 0));
    setTimeout(markPainted, AT_THE_LATEST_MS);
  }
  waiting.add(done);
  return () => waiting.delete(done);
}

/**
 * Renders `children` only from the frame after the app's first paint on: what a screen does not show at first (a
 * list below the fold, pop-ups that wait anyway, background sync) stays out of the render the runner waits for,
 * on a slow phone a good part of it. Once the app has painted, it renders them at once.
 */
export function AfterFirstPaint({ children }: { readonly children: ReactNode }) {
  const [ready, setReady] = useState(painted);
  useEffect(() => (ready ? undefined : onFirstPaint(() => setReady(true))), [ready]);
  return ready ? children : null;
}
