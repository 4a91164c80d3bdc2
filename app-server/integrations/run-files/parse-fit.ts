import { Decoder, Stream } from '@garmin/fitsdk';
import { MAX_FILE_FIXES, RunFileRefused, runFileMessages } from './messages.ts';
import { cleanName, type FileFix, type RunFile, runFixes } from './run-file.ts';

/** Degrees per FIT semicircle (a position is an int32 of 2^31 semicircles per 180°). */
const DEGREES_PER_SEMICIRCLE = 180 / 2 ** 31;
/** FIT sports read as a run (the run policy judges pace); any other declared sport refuses the file. */
const RUN_SPORTS = new Set(['running', 'generic', 'walking', 'training', 'transition']);

/** Whether the bytes start with a FIT file header (12 or 14 bytes, '.FIT' at offset 8). */
export function looksLikeFit(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 12 &&
    (bytes[0] === 12 || bytes[0] === 14) &&
    bytes[8] === 0x2e &&
    bytes[9] === 0x46 &&
    bytes[10] === 0x49 &&
    bytes[11] === 0x54
  );
}

/** The size the header declares (header, records, 2-byte CRC) is more than the bytes: the file was cut short. */
function declaredPastItsBytes(bytes: Uint8Array): boolean {
  const headerSize = bytes[0]!;
  const dataSize = (bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16)) + bytes[7]! * 2 ** 24;
  return bytes.length < headerSize + dataSize + 2;
}

const dateMs = (value: unknown) => (value instanceof Date ? value.getTime() : Number.NaN);
const finite = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * A FIT activity file, with Garmin's SDK: the header, its declared size and both CRCs are checked before a record
 * is decoded (a damaged file is refused, not half read); then every record message with a time and a position, in
 * order. The creator is the manufacturer (file_id), the device its product name (file_id, else the creator's
 * device_info, else Garmin's product name). A session whose sport is not running (cycling, swimming…) refuses it.
 */
export function parseFit(bytes: Uint8Array): RunFile {
  if (!looksLikeFit(bytes)) throw new RunFileRefused(runFileMessages.notARunFile);
  if (declaredPastItsBytes(bytes)) throw new RunFileRefused(runFileMessages.fitTruncated);
  const decoder = new Decoder(Stream.fromByteArray(bytes));
  if (!decoder.isFIT()) throw new RunFileRefused(runFileMessages.notARunFile);
  if (!decoder.checkIntegrity()) throw new RunFileRefused(runFileMessages.fitChecksum);
  const { messages, errors } = decoder.read({ includeUnknownData: false, mergeHeartRates: false });
  if (errors.length > 0) throw new RunFileRefused(runFileMessages.fitUnreadable);
  for (const session of messages.sessionMesgs ?? []) {
    const sport = session.sport;
    if (typeof sport === 'string' && !RUN_SPORTS.has(sport)) {
      throw new RunFileRefused(runFileMessages.notARun(sport.replaceAll('_', ' ')));
    }
  }
  const records = messages.recordMesgs ?? [];
  if (records.length > MAX_FILE_FIXES) throw new RunFileRefused(runFileMessages.tooManyFixes);
  const fixes: FileFix[] = [];
  for (const record of records) {
    const timestamp = dateMs(record.timestamp);
    const lat = finite(record.positionLat);
    const lon = finite(record.positionLong);
    if (Number.isNaN(timestamp) || lat === null || lon === null) continue;
    fixes.push({
      timestamp,
      latitude: lat * DEGREES_PER_SEMICIRCLE,
      longitude: lon * DEGREES_PER_SEMICIRCLE,
      elevation: finite(record.enhancedAltitude) ?? finite(record.altitude),
    });
  }
  const fileId = messages.fileIdMesgs?.[0];
  const creatorDevice = (messages.deviceInfoMesgs ?? []).find((d) => d.deviceIndex === 'creator');
  return {
    format: 'fit',
    positions: runFixes(fixes),
    creator: cleanName(fileId?.manufacturer),
    device: cleanName(fileId?.productName ?? creatorDevice?.productName ?? fileId?.garminProduct ?? null),
  };
}
