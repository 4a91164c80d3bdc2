/** Text or an attribute value escaped for XML (the five special characters). */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** An instant as ISO 8601 UTC with milliseconds: the time of a fix exactly as recorded. */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/** A coordinate or height in full: JavaScript's shortest exact form, so reading it back gives the same number. */
export const exactNumber = (value: number) => String(value);
