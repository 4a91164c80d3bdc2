import { EARLIEST_RUN_MS, LATEST_FIX_MS } from '../../../domain/run/limits.ts';
import { MAX_FILE_FIXES, RunFileRefused, runFileMessages } from './messages.ts';

/** The formats a run file may have. */
export type RunFileFormat = 'gpx' | 'tcx' | 'fit';

/** One fix of a file: epoch milliseconds, degrees, metres above sea level when the file has it. */
export interface FileFix {
  readonly timestamp: number;
  readonly latitude: number;
  readonly longitude: number;
  readonly elevation: number | null;
}

/** A run file read: its fixes in time order, and who wrote it on what (null when the file does not say). */
export interface RunFile {
  readonly format: RunFileFormat;
  readonly positions: readonly FileFix[];
  /** The program that wrote the file (GPX creator, TCX Author, FIT manufacturer). */
  readonly creator: string | null;
  /** The device that recorded the track (GPX trk/src, TCX Creator, FIT product). */
  readonly device: string | null;
}

/** The longest creator or device name kept. */
const MAX_NAME_LENGTH = 100;

/**
 * A name from a file, made safe to store and show: control characters and unpaired surrogates dropped, spaces
 * collapsed, at most 100 characters; null when nothing is left.
 */
export function cleanName(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = [...String(value)]
    // C0/C1 control characters and unpaired surrogates (a lone one iterates as itself) become spaces.
    .map((ch) => {
      const code = ch.codePointAt(0)!;
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) ? ' ' : ch;
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  return Array.from(text).slice(0, MAX_NAME_LENGTH).join('').trim();
}

/** A fix inside what a position can be: the globe, 2000–2100. */
function inRange(fix: FileFix): boolean {
  return (
    Number.isFinite(fix.latitude) &&
    Math.abs(fix.latitude) <= 90 &&
    Number.isFinite(fix.longitude) &&
    Math.abs(fix.longitude) <= 180 &&
    Number.isFinite(fix.timestamp) &&
    fix.timestamp >= EARLIEST_RUN_MS &&
    fix.timestamp < LATEST_FIX_MS &&
    (fix.elevation === null || Number.isFinite(fix.elevation))
  );
}

/**
 * The fixes of a file as a run takes them: each in range (else the file is refused: a point off the globe is a
 * forged or broken file, not a glitch), in time order (a file lists them so; sorting is stable), at least 2, at most
 * MAX_FILE_FIXES. Points without a time or a position (a watch paused, no satellite yet) were left out by the reader.
 */
export function runFixes(fixes: readonly FileFix[]): FileFix[] {
  if (fixes.length > MAX_FILE_FIXES) throw new RunFileRefused(runFileMessages.tooManyFixes);
  if (!fixes.every(inRange)) throw new RunFileRefused(runFileMessages.badFix);
  if (fixes.length < 2) throw new RunFileRefused(runFileMessages.noTrack);
  return [...fixes].sort((a, b) => a.timestamp - b.timestamp);
}

/** A number from a file's text ('40.7', ' 12 '), or NaN. */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return Number.NaN;
  return Number(value);
}

/** An ISO 8601 time from a file, in epoch milliseconds, or NaN. */
export function timeOf(value: unknown): number {
  if (typeof value !== 'string') return Number.NaN;
  // ISO 8601 with a zone only: a time without one would be read in the server's zone.
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/.test(value.trim())) return Number.NaN;
  return Date.parse(value.trim());
}
