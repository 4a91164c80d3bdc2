import { cleanName, type FileFix, numberOf, type RunFile, runFixes, timeOf } from './run-file.ts';
import { RunFileRefused, runFileMessages } from './messages.ts';
import { child, children, readXml, textOf, unescapeXml } from './safe-xml.ts';

/** TCX sports that are not a run on foot ("Running" and "Other" are read; the policy judges the rest). */
const NOT_RUNNING: Record<string, string> = { Biking: 'a bike ride' };

/**
 * A TCX file (Garmin's Training Center Database v2): every trackpoint of every lap of every activity, in order; a
 * trackpoint without a time or a position (a paused watch, no satellite yet) is left out. The creator is the
 * `Author`'s name (the program that wrote the file), the device the first activity's `Creator` name (the watch). An
 * activity whose Sport is Biking is refused: it says itself that it is not a run.
 */
export function parseTcx(text: string): RunFile {
  const tree = readXml(text, {
    lists: ['Activity', 'Lap', 'Track', 'Trackpoint'],
    point: 'Trackpoint',
  });
  const root = child(tree, 'TrainingCenterDatabase');
  if (root === undefined || typeof root !== 'object' || root === null) {
    throw new RunFileRefused(runFileMessages.notARunFile);
  }
  const activities = children(child(root, 'Activities'), 'Activity');
  for (const activity of activities) {
    const sport = textOf(child(activity, '@_Sport'));
    if (sport !== undefined && Object.hasOwn(NOT_RUNNING, sport)) {
      throw new RunFileRefused(runFileMessages.notARun(NOT_RUNNING[sport]!));
    }
  }
  const fixes: FileFix[] = [];
  const points = activities
    .flatMap((a) => children(a, 'Lap'))
    .flatMap((l) => children(l, 'Track'))
    .flatMap((t) => children(t, 'Trackpoint'));
  for (const point of points) {
    const position = child(point, 'Position');
    const timestamp = timeOf(textOf(child(point, 'Time')));
    const latitude = numberOf(textOf(child(position, 'LatitudeDegrees')));
    const longitude = numberOf(textOf(child(position, 'LongitudeDegrees')));
    if (Number.isNaN(timestamp) || Number.isNaN(latitude) || Number.isNaN(longitude)) continue;
    const elevation = numberOf(textOf(child(point, 'AltitudeMeters')));
    fixes.push({ timestamp, latitude, longitude, elevation: Number.isFinite(elevation) ? elevation : null });
  }
  const name = (node: unknown) => {
    const text = textOf(child(node, 'Name'));
    return text === undefined ? null : cleanName(unescapeXml(text));
  };
  return {
    format: 'tcx',
    positions: runFixes(fixes),
    creator: name(child(root, 'Author')),
    device: name(child(activities[0], 'Creator')),
  };
}
