import { type CSSProperties, useEffect, useMemo, useState } from 'react';

/** §9: 50 pieces; 3 s normally, 4 s after a run. */
export const CONFETTI_PIECES = 50;
export const CONFETTI_MS = 3_000;
export const CONFETTI_AFTER_RUN_MS = 4_000;

const COLORS = ['#22c55e', '#f59e0b', '#3b82f6', '#ef4444', '#a855f7', '#eab308'];

/** True when the person asked their system for less motion. */
const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/**
 * Falling paper pieces over the screen for `durationMs`, then nothing; decorative, so hidden from assistive tech.
 * Nothing at all for someone whose system asks for reduced motion (the celebration's words carry the moment).
 */
export function Confetti({ durationMs = CONFETTI_MS }: { readonly durationMs?: number }) {
  const [on, setOn] = useState(() => !reducedMotion());
  useEffect(() => {
    const id = setTimeout(() => setOn(false), durationMs);
    return () => clearTimeout(id);
  }, [durationMs]);
  const pieces = useMemo(
    () =>
      Array.from({ length: CONFETTI_PIECES }, (_, i) => ({
        left: `${Math.random() * 100}%`,
        delay: `${Math.random() * (durationMs / 3)}ms`,
        fall: `${durationMs * (0.5 + Math.random() * 0.5)}ms`,
        color: COLORS[i % COLORS.length],
        rotate: `${Math.floor(Math.random() * 360)}deg`,
      })),
    [durationMs],
  );
  if (!on) return null;
  return (
    <div className="confetti" aria-hidden="true" data-testid="confetti">
      {pieces.map((p, i) => (
        <span
          // Pieces never reorder: the index is a stable key.
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed list
          key={i}
          className="confetti-piece"
          style={
            {
              left: p.left,
              background: p.color,
              animationDelay: p.delay,
              animationDuration: p.fall,
              ['--rotate' as string]: p.rotate,
            } as CSSProperties
          }
        />
      ))}
    </div>
  );
}
