import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpsDistanceKm } from '../../../domain/run/geo.ts';
import { fixtureFit, fixtureGpx, fixtureRun, fixtureTcx, hostileFiles } from '../../../tests/fixtures/run-files.ts';
import { RunFileRefused, runFileMessages } from './messages.ts';
import { parseRunFile } from './parse-run-file.ts';

const text = (s: string) => new TextEncoder().encode(s);
const START = Date.parse('2026-11-25T15:00:00Z');
const run = fixtureRun({ startMs: START, km: 5, paceSecPerKm: 330 });
const km = gpsDistanceKm(run);

/** The sentence a file is refused with (fails the test when it is read, or throws anything else). */
function refusal(bytes: Uint8Array): string {
  try {
    parseRunFile(bytes);
  } catch (error) {
    if (error instanceof RunFileRefused) return error.sentence;
    throw error;
  }
  throw new Error('the file was read');
}

describe('reading run files made by other software', () => {
  it('reads a GPX 1.1 file: every point, its times, the creator and the device (trk/src)', () => {
    const file = parseRunFile(text(fixtureGpx(run)));
    expect(file.format).toBe('gpx');
    expect(file.positions).toHaveLength(run.length);
    expect(file.positions[0]).toEqual(run[0]);
    expect(file.positions.at(-1)!.timestamp).toBe(run.at(-1)!.timestamp);
    expect(gpsDistanceKm(file.positions)).toBe(km);
    expect(file.creator).toBe('Garmin Connect');
    expect(file.device).toBe('Forerunner 255');
  });

  it('reads a TCX file: trackpoints, the watch (Creator) and the exporting app (Author)', () => {
    const file = parseRunFile(text(fixtureTcx(run)));
    expect(file.format).toBe('tcx');
    expect(file.positions).toEqual(run);
    expect(file.creator).toBe('Connect Api');
    expect(file.device).toBe('Forerunner 965');
  });

  it('reads a FIT file encoded with the SDK: records to within a centimetre, whole-second times, the product', () => {
    const file = parseRunFile(fixtureFit(run));
    expect(file.format).toBe('fit');
    expect(file.positions).toHaveLength(run.length);
    file.positions.forEach((p, i) => {
      expect(p.timestamp).toBe(run[i]!.timestamp);
      expect(Math.abs(p.latitude - run[i]!.latitude)).toBeLessThan(1e-6);
      expect(Math.abs(p.longitude - run[i]!.longitude)).toBeLessThan(1e-6);
    });
    expect(Math.abs(gpsDistanceKm(file.positions) - km)).toBeLessThanOrEqual(0.01);
    expect(file.creator).toBe('garmin');
    expect(file.device).toBe('Forerunner 255');
  });

  it('leaves out points without a time or a position, and refuses a file with fewer than 2 left', () => {
    const gpx = fixtureGpx(run.slice(0, 3)).replace(/<time>[^<]*<\/time>/g, (t, i: number) => (i > 400 ? '' : t));
    expect(refusal(text(gpx))).toBe(runFileMessages.noTrack);
  });

  it('refuses a TCX of a bike ride with a sentence', () => {
    expect(refusal(text(fixtureTcx(run).replace('Sport="Running"', 'Sport="Biking"')))).toBe(
      'This file records a bike ride, not a run.',
    );
  });

  it('refuses a point off the globe', () => {
    expect(refusal(text(fixtureGpx(run).replace(/lat="[^"]*"/, 'lat="91"')))).toBe(runFileMessages.badFix);
  });

  it.each([
    ['invalid XML', runFileMessages.invalidXml],
    ['entity expansion', runFileMessages.declarations],
    ['deep nesting', runFileMessages.tooDeep],
    ['a FIT with a bad CRC', runFileMessages.fitChecksum],
    ['a FIT whose declared size is past its bytes', runFileMessages.fitTruncated],
    ['10 MB of fixes', runFileMessages.tooManyFixes],
  ])('refuses %s with its sentence', (name, sentence) => {
    const file = hostileFiles().find((f) => f.name === name)!;
    expect(refusal(file.bytes)).toBe(sentence);
  });

  it('refuses a file over 10 MB before reading it (413)', () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    expect(() => parseRunFile(big)).toThrowError(expect.objectContaining({ status: 413 }) as Error);
  });

  it('refuses text that is neither GPX nor TCX, and bytes that are not UTF-8', () => {
    expect(refusal(text('<kml><Document/></kml>'))).toBe(runFileMessages.notARunFile);
    expect(refusal(Uint8Array.from([0xff, 0xfe, 0x00, 0x3c]))).toBe(runFileMessages.notARunFile);
  });
});

describe('properties', () => {
  it('any bytes: a run file or a RunFileRefused with a sentence, never another error', () => {
    const fit = fixtureFit(run.slice(0, 30));
    const gpx = text(fixtureGpx(run.slice(0, 30)));
    const mutated = (base: Uint8Array) =>
      fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }).map((edits) => {
        const bytes = Uint8Array.from(base);
        for (const [at, value] of edits) bytes[at] = value;
        return bytes;
      });
    const truncated = (base: Uint8Array) => fc.nat(base.length).map((n) => base.slice(0, n));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.string({ maxLength: 300 }).map(text),
          mutated(fit),
          truncated(fit),
          mutated(gpx),
          truncated(gpx),
        ),
        (bytes) => {
          try {
            const file = parseRunFile(bytes);
            expect(file.positions.length).toBeGreaterThanOrEqual(2);
          } catch (error) {
            expect(error).toBeInstanceOf(RunFileRefused);
            expect((error as RunFileRefused).sentence).toMatch(/^This file|^Choose/);
          }
        },
      ),
      { numRuns: 600 },
    );
  });
});
