import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_DOCS } from '../../app-server/http/openapi/route-docs.ts';

/*
 * Idempotency-Key in one place (app-server/commands/idempotency/keyed-request.ts), as a rule over the code:
 * 1. one reader of the header: http/request.ts `keyedRequest`;
 * 2. every route handler that takes a KeyedRequest runs its write through it: `.once(` (the result recorded with the
 *    events), `.inGroup(` (the same, in a group commit) or `.effectKey(` (an effect outside the database), never a
 *    command called beside it;
 * 3. the routes documented as taking the header (`idempotent: true`) are exactly the handlers that take a KeyedRequest;
 * 4. commands know nothing of keys: nothing under app-server/commands outside idempotency/ imports it.
 * Each rule is also run on a probe that breaks it, so it cannot silently stop finding anything.
 */
const APP = resolve(import.meta.dirname, '../../app-server');
const ROUTES = join(APP, 'http/routes');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * A read of the header, however spelled: Hono's `c.req.header('Idempotency-Key')`, the Fetch API's
 * `headers.get('idempotency-key')`, an index into all headers (`c.req.header()['idempotency-key']`) or a
 * destructuring of them; not a mere mention (the CORS list, the OpenAPI document, comments).
 */
const READS_HEADER =
  /(?:header|headers\.get)\(\s*['"`]idempotency-key['"`]|\)\s*\[\s*['"`]idempotency-key['"`]\s*\]|\[\s*['"`]idempotency-key['"`]\s*\]\s*:/i;

/** Files (relative to app-server) that read the header, besides its one reader. */
function headerReaders(files: readonly { path: string; text: string }[]): string[] {
  return files.filter((f) => READS_HEADER.test(f.text) && f.path !== 'http/request.ts').map((f) => f.path);
}

/** Each handler's text: from one `.get(`/`.post(`/… registration to the next (as read-your-writes.test.ts). */
function handlers(source: string): string[] {
  return source.split(/\n\s*\.(?=(?:get|post|put|patch|delete)\()/);
}

const TAKES_KEYED = /const (\w+) = await keyedRequest\(/;

/** `post '/goals'` for a handler's registration with a literal path, or null. */
function registration(handler: string): string | null {
  const match = /^\s*(?:\.)?(get|post|put|patch|delete)\(\s*'([^']+)'/.exec(handler);
  return match ? `${match[1]} ${match[2]}` : null;
}

/** The keyed handlers of a route file, and those that take a KeyedRequest but write beside it. */
function keyedHandlers(source: string): { keyed: string[]; bypassing: string[] } {
  const keyed: string[] = [];
  const bypassing: string[] = [];
  for (const handler of handlers(source)) {
    const taken = TAKES_KEYED.exec(handler);
    if (!taken) continue;
    const name = registration(handler) ?? handler.slice(0, 60);
    keyed.push(name);
    const runsThrough = new RegExp(`\\b${taken[1]}\\s*\\.(?:once|inGroup|effectKey)\\(`).test(handler);
    if (!runsThrough) bypassing.push(name);
  }
  return { keyed, bypassing };
}

const routeFiles = () => sources(ROUTES).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

describe('Idempotency-Key goes through one mechanism', () => {
  it('one reader of the header (http/request.ts keyedRequest)', () => {
    const files = sources(APP).map((path) => ({ path: relative(APP, path), text: readFileSync(path, 'utf8') }));
    expect(headerReaders(files)).toEqual([]);
    expect(files.find((f) => f.path === 'http/request.ts')?.text).toMatch(/c\.req\.header\('idempotency-key'\)/);
    // The probes: a route reading the header itself, in each spelling, is found; naming it is not reading it.
    const probes = [
      "const key = c.req.header('Idempotency-Key');",
      'const key = c.req.raw.headers.get("idempotency-key");',
      "const { ['idempotency-key']: key } = c.req.header();",
      "const key = c.req.header()['idempotency-key'];",
      "allowHeaders: ['idempotency-key'], // a comment on `Idempotency-Key`",
    ].map((text, i) => ({ path: `http/routes/probe-${i}.ts`, text }));
    expect(headerReaders(probes)).toEqual([0, 1, 2, 3].map((i) => `http/routes/probe-${i}.ts`));
  });

  it('every handler that takes a KeyedRequest writes through its once (or names an outside effect by it)', () => {
    const keyed: string[] = [];
    const bypassing: string[] = [];
    for (const file of routeFiles()) {
      const found = keyedHandlers(file.text);
      keyed.push(...found.keyed);
      bypassing.push(...found.bypassing.map((b) => `${relative(ROUTES, file.path)}: ${b}`));
    }
    expect(bypassing).toEqual([]);
    expect(keyed.length).toBeGreaterThanOrEqual(9);
    // The probe: the key claimed, the command called beside it.
    const probe = `
      .post('/probe', guard, async (c) => {
        const keyed = await keyedRequest(deps, c, raw);
        const { id, position } = await createGroup(context, name, 20);
        return c.json({ id }, 201);
      })`;
    expect(keyedHandlers(probe).bypassing).toEqual(['post /probe']);
  });

  it('the routes documented as taking the header are exactly the handlers that take a KeyedRequest', () => {
    const documented = ROUTE_DOCS.filter((d) => d.idempotent)
      .map((d) => `${d.method} ${d.path}`)
      .sort();
    const keyed = routeFiles()
      .flatMap((f) => keyedHandlers(f.text).keyed)
      .sort();
    expect(keyed).toEqual(documented);
    expect(documented).toContain('post /runs');
  });

  it('commands know nothing of keys: only the routes hand a KeyedRequest its work', () => {
    const commands = join(APP, 'commands');
    const knowing = sources(commands)
      .filter((path) => !relative(commands, path).startsWith('idempotency/'))
      .filter((path) => /from '[./]*idempotency\//.test(readFileSync(path, 'utf8')))
      .map((path) => relative(APP, path));
    expect(knowing).toEqual([]);
  });
});
