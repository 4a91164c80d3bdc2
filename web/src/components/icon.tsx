/**
 * A few line icons as inline SVG: emoji depend on the device's fonts (Debian's chromium has none), these do not.
 * Paths follow the Lucide icon set's shapes (ISC licence), redrawn minimal.
 */
const PATHS = {
  flame: 'M12 2c1 4 5 6 5 11a5 5 0 0 1-10 0c0-2 1-3.5 2-4.5 0 2 1 3 2 3 0-3-1-6 1-9.5z',
  trophy: 'M8 21h8M12 17v4M7 4h10v5a5 5 0 0 1-10 0V4zM7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4',
  run: 'M13 4a1.5 1.5 0 1 0 0-.01M9 20l3-6 3 2v5M6 12l3-4 4 1 3 3h3M11 9l-2 5',
  coin: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .8-3 2s1.3 1.7 3 2 3 .8 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5M12 6v2M12 16v2',
  medal: 'M12 13a5 5 0 1 0 0 10 5 5 0 0 0 0-10zM8.5 14 5 3h4l3 7M15.5 14 19 3h-4l-3 7',
  check: 'M20 6 9 17l-5-5',
  heart: 'M12 21s-7-4.5-9-9a5 5 0 0 1 9-3 5 5 0 0 1 9 3c-2 4.5-9 9-9 9z',
  bolt: 'M13 2 4 14h7l-1 8 9-12h-7l1-8z',
  trash: 'M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14',
  play: 'M7 4v16l13-8L7 4z',
  home: 'M3 11 12 3l9 8M5 10v10h5v-6h4v6h5V10',
  target: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10zM12 11a1 1 0 1 0 0 2 1 1 0 0 0 0-2z',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21v-1a6 6 0 0 1 12 0v1M16 3.5a4 4 0 0 1 0 7.5M22 21v-1a6 6 0 0 0-4-5.6',
  user: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zM4 21a8 8 0 0 1 16 0',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9L12 3z',
  dollar: 'M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6',
  thumbsUp: 'M7 10v11H3V10h4zM7 10l4-8a3 3 0 0 1 3 3v4h6a2 2 0 0 1 2 2.3l-1.4 8a2 2 0 0 1-2 1.7H7',
  chevronLeft: 'M15 18l-6-6 6-6',
  chevronDown: 'M6 9l6 6 6-6',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4',
  map: 'M9 4 3 6v14l6-2 6 2 6-2V4l-6 2-6-2zM9 4v14M15 6v14',
  clap: 'M8 13 5 10a1.5 1.5 0 0 1 2-2l5 5M9 9 7 7a1.5 1.5 0 0 1 2-2l6 6M12 6l-1-1a1.5 1.5 0 0 1 2-2l5 5c2 2 2 6 0 8l-1 1c-2 2-6 2-8 0l-5-5a1.5 1.5 0 0 1 2-2l2 2M19 3l1-1M21 6h1',
} as const;

export type IconName = keyof typeof PATHS;

/** A 24×24 stroke icon in the current text colour. */
export function Icon({
  name,
  size = 20,
  label,
}: {
  readonly name: IconName;
  readonly size?: number;
  readonly label?: string;
}) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {label ? <title>{label}</title> : null}
      <path d={PATHS[name]} />
    </svg>
  );
}
