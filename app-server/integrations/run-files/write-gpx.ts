import { escapeXml, exactNumber, isoTime } from './write-xml.ts';

/** One fix as a file writes it (a stored GPS fix is one). */
export interface ExportFix {
  readonly timestamp: number;
  readonly latitude: number;
  readonly longitude: number;
  readonly elevation?: number | null | undefined;
}

/** What an exported run file says about the run. */
export interface ExportedRun {
  readonly name: string;
  readonly startedAtMs: number;
  readonly durationSec: number;
  readonly distanceKm: number;
  readonly positions: readonly ExportFix[];
  /** The device the track came from, when known (an imported file's), written as the track's `src`. */
  readonly device: string | null;
}

/** Who writes our files. */
export const FILE_CREATOR = 'StrideStake';

/**
 * A run as a GPX 1.1 file: one track, one segment, every fix with its time (milliseconds) and its coordinates in
 * full, so importing the file gives back the same track (and, for the same user, the same run).
 */
export function writeGpx(run: ExportedRun): string {
  const points = run.positions.map((p) => {
    const ele =
      typeof p.elevation === 'number' && Number.isFinite(p.elevation) ? `<ele>${exactNumber(p.elevation)}</ele>` : '';
    return `      <trkpt lat="${exactNumber(p.latitude)}" lon="${exactNumber(p.longitude)}">${ele}<time>${isoTime(p.timestamp)}</time></trkpt>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<gpx version="1.1" creator="${FILE_CREATOR}" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">`,
    `  <metadata><name>${escapeXml(run.name)}</name><time>${isoTime(run.startedAtMs)}</time></metadata>`,
    '  <trk>',
    `    <name>${escapeXml(run.name)}</name>`,
    ...(run.device ? [`    <src>${escapeXml(run.device)}</src>`] : []),
    '    <type>running</type>',
    '    <trkseg>',
    ...points,
    '    </trkseg>',
    '  </trk>',
    '</gpx>',
    '',
  ].join('\n');
}
