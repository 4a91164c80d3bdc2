/**
 * Text PostgreSQL can hold. A `text` column refuses U+0000 (NUL), and `jsonb` refuses NUL too and any UTF-16
 * surrogate half without its partner (JSON.stringify writes it as "\ud800", which PostgreSQL's JSON parser
 * rejects). JavaScript strings accept both, so a value that passes every other rule can still be one a projection
 * can never write: the event is appended (personal fields travel encrypted), the projector fails on it forever and
 * every write that waits for that read model stops. So such text is refused where it enters, by the one rule below,
 * at the HTTP edge (every route) and again in the deciders whose commands have other ways in (imports).
 */

/** What the refusal says, after the field's name: `notes: must not contain …`. */
export const UNSTORABLE_TEXT = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** Deepest nesting of arrays and objects a request body may have (PostgreSQL and JSON.parse both recurse). */
export const MAX_JSON_DEPTH = 32;

/** What `nestingTooDeep` says. */
export const TOO_DEEPLY_NESTED = `must not nest arrays or objects more than ${MAX_JSON_DEPTH} deep`;

// NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one (code units, no
// `u` flag: with it a lone half would not match as a single unit).
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether PostgreSQL can store this string in `text` and inside `jsonb`. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Where a JSON value breaks a storage rule, and which rule. */
export interface StorageProblem {
  /** Property names and array indexes from the root; empty for the root itself. */
  readonly path: readonly (string | number)[];
  readonly problem: 'text' | 'depth';
}

/**
 * The first string (value or property name) PostgreSQL cannot store, or the first place nested deeper than
 * `maxDepth`, in a parsed JSON value; null when the whole value is storable. Depth-first, in document order.
 */
export function findStorageProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): StorageProblem | null {
  // One path, pushed and popped as the walk goes: copied only for the answer (a GPS body has thousands of nodes).
  const path: (string | number)[] = [];
  const found = (problem: StorageProblem['problem']): StorageProblem => ({ path: [...path], problem });
  // Property names seen storable already: a GPS body repeats the same four on every fix.
  const storableKeys = new Set<string>();
  const visit = (node: unknown, depth: number): StorageProblem | null => {
    if (typeof node === 'string') return isStorableText(node) ? null : found('text');
    if (node === null || typeof node !== 'object') return null;
    if (depth >= maxDepth) return found('depth');
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        const problem = visit(node[i], depth + 1);
        if (problem) return problem;
        path.pop();
      }
      return null;
    }
    for (const key of Object.keys(node)) {
      path.push(key);
      if (!storableKeys.has(key)) {
        if (!isStorableText(key)) return found('text');
        storableKeys.add(key);
      }
      const problem = visit((node as Record<string, unknown>)[key], depth + 1);
      if (problem) return problem;
      path.pop();
    }
    return null;
  };
  return visit(value, 0);
}

/** The refusal as one sentence naming the field: `gps_data.positions.3.note: must not contain …`. */
export function storageProblemMessage(found: StorageProblem, root?: string): string {
  const where = [...(root ? [root] : []), ...found.path.map(printable)].join('.');
  const rule = found.problem === 'text' ? UNSTORABLE_TEXT : TOO_DEEPLY_NESTED;
  return where ? `${where}: ${rule}` : `The request ${rule}`;
}

// A property name that is itself the problem is shown escaped (`a\u0000b`), never as the raw character.
function printable(segment: string | number): string {
  const text = String(segment);
  return isStorableText(text) ? text : JSON.stringify(text).slice(1, -1);
}
