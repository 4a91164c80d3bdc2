import { MAX_RUN_FILE_BYTES, RunFileRefused, runFileMessages } from './messages.ts';
import { looksLikeFit, parseFit } from './parse-fit.ts';
import { parseGpx } from './parse-gpx.ts';
import { parseTcx } from './parse-tcx.ts';
import type { RunFile } from './run-file.ts';

/** The root element of an XML text: the first element name after the prolog and comments, without its prefix. */
function rootElement(text: string): string | null {
  const match = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return match?.[1] ?? null;
}

/**
 * Any run file: FIT by its header, GPX or TCX by its root element (a file's name says nothing about its bytes).
 * Returns the run file, or throws RunFileRefused with the sentence for the runner; never anything else.
 */
export function parseRunFile(bytes: Uint8Array): RunFile {
  if (bytes.length > MAX_RUN_FILE_BYTES) throw new RunFileRefused(runFileMessages.tooLarge, 413);
  try {
    if (looksLikeFit(bytes)) return parseFit(bytes);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new RunFileRefused(runFileMessages.notARunFile);
    }
    const root = rootElement(text);
    if (root === 'gpx') return parseGpx(text);
    if (root === 'TrainingCenterDatabase') return parseTcx(text);
    if (/^\s*<!\s*(DOCTYPE|ENTITY)/i.test(text.replace(/^(?:\s|<\?[\s\S]*?\?>)*/, ''))) {
      throw new RunFileRefused(runFileMessages.declarations);
    }
    throw new RunFileRefused(runFileMessages.notARunFile);
  } catch (error) {
    if (error instanceof RunFileRefused) throw error;
    // A library failing on bytes nobody foresaw: still the runner's file, still a sentence, never a 500.
    throw new RunFileRefused(runFileMessages.notARunFile);
  }
}
