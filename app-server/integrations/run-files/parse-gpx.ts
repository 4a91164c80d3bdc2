import { cleanName, type FileFix, numberOf, type RunFile, runFixes, timeOf } from './run-file.ts';
import { RunFileRefused, runFileMessages } from './messages.ts';
import { child, children, readXml, textOf, unescapeXml } from './safe-xml.ts';

/**
 * A GPX file (1.1, and 1.0 which has the same tracks): every point of every track segment, in order; a point
 * without a time or a position says nothing about a run and is left out. The creator is the root's `creator`
 * attribute (the program that wrote the file), the device the first track's `src` ("Source of data", e.g.
 * "Garmin Forerunner 255"). Routes and waypoints are plans, not recordings: ignored.
 */
export function parseGpx(text: string): RunFile {
  const tree = readXml(text, { lists: ['trk', 'trkseg', 'trkpt'], point: 'trkpt' });
  const gpx = child(tree, 'gpx');
  if (gpx === undefined || typeof gpx !== 'object' || gpx === null) {
    throw new RunFileRefused(runFileMessages.notARunFile);
  }
  const tracks = children(gpx, 'trk');
  const fixes: FileFix[] = [];
  for (const point of tracks.flatMap((t) => children(t, 'trkseg')).flatMap((s) => children(s, 'trkpt'))) {
    const timestamp = timeOf(textOf(child(point, 'time')));
    const latitude = numberOf(child(point, '@_lat'));
    const longitude = numberOf(child(point, '@_lon'));
    if (Number.isNaN(timestamp) || Number.isNaN(latitude) || Number.isNaN(longitude)) continue;
    const elevation = numberOf(textOf(child(point, 'ele')));
    fixes.push({ timestamp, latitude, longitude, elevation: Number.isFinite(elevation) ? elevation : null });
  }
  const name = (value: unknown) => {
    const text = textOf(value) ?? (typeof value === 'string' ? value : undefined);
    return text === undefined ? null : cleanName(unescapeXml(text));
  };
  return {
    format: 'gpx',
    positions: runFixes(fixes),
    creator: name(child(gpx, '@_creator')),
    device: name(child(tracks[0], 'src')),
  };
}
