import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_FILE_FIXES, MAX_XML_DEPTH, RunFileRefused, runFileMessages } from './messages.ts';

/*
 * Reading XML someone else wrote, safely (OWASP XXE and "billion laughs"): a GPX or TCX file never needs a DOCTYPE,
 * so any DOCTYPE or ENTITY declaration refuses the file before a parser sees it, and the parser runs with entity
 * processing off anyway (a `&name;` stays text). Nesting is capped (MAX_XML_DEPTH, the parser's own cap as well), and
 * the points are counted by a plain scan before the parser builds anything, so 10 MB of points costs a scan, not
 * an object per point. Every refusal is a RunFileRefused with its sentence; nothing else escapes.
 */

/** How a reader wants the tree: which elements are always lists. */
export interface XmlShape {
  /** Element names (without namespace prefix) that may repeat: always read as arrays. */
  readonly lists: readonly string[];
  /** The element name of one point, counted before parsing against MAX_FILE_FIXES. */
  readonly point: string;
}

const DECLARATION = /<!\s*(DOCTYPE|ENTITY)/i;

/** How many times `<name` (with or without a namespace prefix) opens in `text`. */
function countOpenings(text: string, name: string): number {
  const pattern = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${name}[\\s>/]`, 'g');
  let count = 0;
  while (pattern.exec(text) !== null) {
    count++;
    if (count > MAX_FILE_FIXES) break;
  }
  return count;
}

/** The element tree of a GPX or TCX file (namespace prefixes removed, attributes as `@_name`), or a refusal. */
export function readXml(text: string, shape: XmlShape): Record<string, unknown> {
  if (DECLARATION.test(text)) throw new RunFileRefused(runFileMessages.declarations);
  if (countOpenings(text, shape.point) > MAX_FILE_FIXES) throw new RunFileRefused(runFileMessages.tooManyFixes);
  let valid: true | unknown;
  try {
    valid = XMLValidator.validate(text);
  } catch {
    // The validator has no depth cap of its own; a stack it cannot hold is a file nested far too deep.
    throw new RunFileRefused(runFileMessages.tooDeep);
  }
  if (valid !== true) throw new RunFileRefused(runFileMessages.invalidXml);
  const lists = new Set(shape.lists);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: MAX_XML_DEPTH,
    isArray: (name) => lists.has(name),
  });
  try {
    const tree: unknown = parser.parse(text);
    if (tree === null || typeof tree !== 'object') throw new RunFileRefused(runFileMessages.notARunFile);
    return tree as Record<string, unknown>;
  } catch (error) {
    if (error instanceof RunFileRefused) throw error;
    if (error instanceof RangeError || (error instanceof Error && /nested/i.test(error.message))) {
      throw new RunFileRefused(runFileMessages.tooDeep);
    }
    throw new RunFileRefused(runFileMessages.invalidXml);
  }
}

/** An object's child element, or undefined (a text-only element reads as a string, a missing one as undefined). */
export function child(node: unknown, name: string): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, name) ? (node as Record<string, unknown>)[name] : undefined;
}

/** A repeated child element as a list (absent: empty). */
export function children(node: unknown, name: string): unknown[] {
  const value = child(node, name);
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** An element's text: itself when it is text only, its `#text` when it has attributes too. */
export function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (typeof node === 'number') return String(node);
  const text = child(node, '#text');
  return typeof text === 'string' || typeof text === 'number' ? String(text) : undefined;
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five predefined entities and character references decoded (no other entity exists here). */
export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref.toLowerCase()] ?? whole;
    const code =
      ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}
