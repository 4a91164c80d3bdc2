import { MAX_RUN_POSITIONS } from '../../../domain/run/limits.ts';

/** The most bytes a run file may hold (issue 24: "up to 10 MB"). */
export const MAX_RUN_FILE_BYTES = 10 * 1024 * 1024;
/** The deepest element nesting a GPX or TCX file may have: a TCX trackpoint sits 7 deep, a GPX one 4. */
export const MAX_XML_DEPTH = 32;
/** The most fixes a file may carry: as many as one run can (domain/run/limits.ts). */
export const MAX_FILE_FIXES = MAX_RUN_POSITIONS;

/**
 * Every sentence a refused run file is answered with (POST /runs/import), in one place so the API, its tests and the
 * web app say the same thing. Each says what is wrong with the file in words a runner understands.
 */
export const runFileMessages = {
  noFile: 'Choose a GPX, TCX or FIT file to import.',
  tooLarge: 'This file holds more than 10 MB.',
  notARunFile: 'This file is not a GPX, TCX or FIT file.',
  invalidXml: 'This file is not well-formed XML, so it cannot be read.',
  declarations: 'This file declares a DOCTYPE or its own entities, which a GPX or TCX file never needs.',
  tooDeep: `This file nests its elements more than ${MAX_XML_DEPTH} deep, far deeper than a GPX or TCX file.`,
  tooManyFixes: `This file holds more than ${MAX_FILE_FIXES.toLocaleString('en-US')} GPS points, more than one run can have.`,
  fitChecksum: 'This file is damaged (its checksum does not match).',
  fitTruncated: 'This file is damaged: it says it holds more data than it does (it was cut short).',
  fitUnreadable: 'This file is damaged: its FIT records cannot be read.',
  noTrack: 'This file holds no GPS track: a run needs at least 2 points with a time, a latitude and a longitude.',
  badFix: 'This file has a GPS point off the globe or with an impossible time.',
  notARun: (sport: string) => `This file records ${sport}, not a run.`,
} as const;

/** A file refused: the status and the sentence the runner reads. Nothing was saved. */
export class RunFileRefused extends Error {
  readonly sentence: string;
  readonly status: 400 | 413 | 422;
  constructor(sentence: string, status: 400 | 413 | 422 = 422) {
    super(sentence);
    this.sentence = sentence;
    this.status = status;
    this.name = 'RunFileRefused';
  }
}
