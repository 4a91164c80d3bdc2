import { haversineKm } from '../../../domain/run/geo.ts';
import { type ExportedRun, FILE_CREATOR } from './write-gpx.ts';
import { escapeXml, exactNumber, isoTime } from './write-xml.ts';

/**
 * A run as a TCX file (Training Center Database v2): one Running activity, one lap with the run's time and distance,
 * every fix a trackpoint with its time (milliseconds), coordinates in full and the distance run so far. The device
 * (an imported file's) is the activity's Creator; we are the Author.
 */
export function writeTcx(run: ExportedRun): string {
  let metres = 0;
  const points = run.positions.map((p, i) => {
    if (i > 0) metres += haversineKm(run.positions[i - 1]!, p) * 1000;
    const ele =
      typeof p.elevation === 'number' && Number.isFinite(p.elevation)
        ? `<AltitudeMeters>${exactNumber(p.elevation)}</AltitudeMeters>`
        : '';
    return (
      `            <Trackpoint><Time>${isoTime(p.timestamp)}</Time><Position><LatitudeDegrees>${exactNumber(p.latitude)}</LatitudeDegrees>` +
      `<LongitudeDegrees>${exactNumber(p.longitude)}</LongitudeDegrees></Position>${ele}<DistanceMeters>${metres.toFixed(2)}</DistanceMeters></Trackpoint>`
    );
  });
  const start = isoTime(run.startedAtMs);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '  <Activities>',
    '    <Activity Sport="Running">',
    `      <Id>${start}</Id>`,
    `      <Lap StartTime="${start}">`,
    `        <TotalTimeSeconds>${Math.max(0, Math.round(run.durationSec))}</TotalTimeSeconds>`,
    `        <DistanceMeters>${metres.toFixed(1)}</DistanceMeters>`,
    '        <Calories>0</Calories>',
    '        <Intensity>Active</Intensity>',
    '        <TriggerMethod>Manual</TriggerMethod>',
    '        <Track>',
    ...points,
    '        </Track>',
    '      </Lap>',
    `      <Notes>${escapeXml(run.name)}</Notes>`,
    ...(run.device ? [`      <Creator xsi:type="Device_t"><Name>${escapeXml(run.device)}</Name></Creator>`] : []),
    '    </Activity>',
    '  </Activities>',
    `  <Author xsi:type="Application_t"><Name>${FILE_CREATOR}</Name></Author>`,
    '</TrainingCenterDatabase>',
    '',
  ].join('\n');
}
