import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Read-your-writes, as a rule over every write route. A command returns the log position of what it appended; the
 * route that calls it must wait, with that position, for the read models its events reach before it answers. POST
 * /stakes/{id}/vouch once answered 201 without waiting, and the runner's next GET /stakes did not count the vouch yet.
 * Which read models is never the route's to say: they follow from the event types the request appended
 * (projections/read-models-reached.ts). A hand-kept list once said ['goals'] for a goal whose stake opened in the same
 * transaction, and the next GET /stakes had no stake. This test finds every route of either kind.
 */
const ROUTES = resolve(import.meta.dirname, '../../app-server/http/routes');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each handler's text: from one `.get(`/`.post(`/… registration to the next. */
function handlers(source: string): string[] {
  return source.split(/\n\s*\.(?=(?:get|post|put|patch|delete)\()/);
}

/** `const { runId, position } = await logRun(…)`, or a result whose `.position` it reads (`result.position`). */
const TAKES_POSITION = /const \{[^}]*\bposition\b[^}]*\} = await |\b\w+\.position\b/;
/**
 * `const wait = await readModelsAt(c, deps.projections, position, …)` or a route file's own wrapper of it
 * (`groupsAt(c, position, …)`), whose result the handler then acts on: `if (!wait.ready) return wait.answer;`. A wait
 * whose late answer is dropped would answer in full from read models that do not have the write yet.
 */
const WAITS_FOR_IT =
  /const (\w+) = await (?:readModelsAt\(c, deps\.projections, (?:\w+\.)?position\b|\w+At\(c, position\b)[^;]*\);\s*if \(!\1\.ready\) return \1\.answer;/;
/** A read model named by hand: `needs: [...]`, or the read-model names' type a list would be typed with. */
const HAND_LIST = /\bneeds\s*:|\bReadModelName\b|\breadModelNames\b/;
/** What a route answers without is the one documented exception (A_RUN_LEAVES_TO_CATCH_UP), never a list of its own. */
const OWN_EXCEPTION = /\bleavesToCatchUp\s*:(?!\s*A_RUN_LEAVES_TO_CATCH_UP\b)/;
/**
 * The shared store handed straight to the command whose position is waited for: its appends are not noted in the
 * request (request-writes.ts), so the wait cannot tell what they were and holds the answer for every read model.
 */
const UNRECORDED_STORE = /const \{[^}]*\bposition\b[^}]*\} = await \w+\(deps\.store\b/;

/** What is wrong with one handler's text (nothing when it writes nothing or waits as it should). */
function problems(handler: string): string[] {
  const found: string[] = [];
  if (HAND_LIST.test(handler)) found.push('names its read models by hand');
  if (OWN_EXCEPTION.test(handler)) found.push('leaves read models to catch up by a list of its own');
  if (!TAKES_POSITION.test(handler)) return found;
  if (!WAITS_FOR_IT.test(handler)) found.push('does not wait at its position');
  if (UNRECORDED_STORE.test(handler)) found.push('gives its command a store that does not note its appends');
  return found;
}

describe('every write route', () => {
  it('waits for the read models its events reach, at the position its command returned, before it answers', () => {
    const writes: string[] = [];
    const wrong: string[] = [];
    for (const file of sources(ROUTES)) {
      const source = readFileSync(file, 'utf8');
      for (const handler of handlers(source)) {
        const name = `${relative(ROUTES, file)}: ${handler.slice(0, handler.indexOf(',')).trim()}`;
        if (TAKES_POSITION.test(handler)) writes.push(name);
        wrong.push(...problems(handler).map((problem) => `${name} ${problem}`));
      }
    }
    expect(wrong).toEqual([]);
    // The rule reads the routes it means to: the appeal, the vouch, runs, goals, groups, reactions, pauses, surges, sync.
    expect(writes.length).toBeGreaterThanOrEqual(21);
    expect(writes.some((w) => w.includes("'/stakes/:id/vouch'"))).toBe(true);
    expect(writes.some((w) => w.includes("'/api/integrations/:provider/sync'"))).toBe(true);
  });

  // Probes: the rule itself, on handlers written the wrong way, so it cannot silently stop finding them.
  const waiting = `.post('/runs', guard, async (c) => {
      const { runId, position } = await logRun(commandContext(deps, c), body);
      const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: { id: runId } });
      if (!wait.ready) return wait.answer;
      return c.json(await savedRun(runId), 201);`;

  it('passes a handler that waits with what its command appended', () => {
    expect(problems(waiting)).toEqual([]);
  });

  it('fails a handler that passes a hand-written list of read models', () => {
    const listed = waiting.replace('{ status: 201,', "{ needs: ['runs', 'goals'], status: 201,");
    expect(problems(listed)).toEqual(['names its read models by hand']);
    const wrapped = `.post('/groups', guard, async (c) => {
      const { groupId, position } = await createGroup(commandContext(deps, c), name);
      const needs: ReadModelName[] = ['groups'];
      const wait = await groupsAt(c, position, 201, { id: groupId }, needs);
      if (!wait.ready) return wait.answer;`;
    expect(problems(wrapped)).toEqual(['names its read models by hand']);
  });

  it('passes a run route that leaves the documented read models to catch up, fails one with its own list', () => {
    const leaves = waiting.replace('{ status: 201,', '{ leavesToCatchUp: A_RUN_LEAVES_TO_CATCH_UP, status: 201,');
    expect(problems(leaves)).toEqual([]);
    const own = waiting.replace('{ status: 201,', "{ leavesToCatchUp: ['stakes'], status: 201,");
    expect(problems(own)).toEqual(['leaves read models to catch up by a list of its own']);
  });

  it('fails a handler that does not wait, or drops the late answer', () => {
    const unwaited = waiting.replace(/const wait[^\n]*\n[^\n]*\n/, '');
    expect(problems(unwaited)).toEqual(['does not wait at its position']);
    const dropped = waiting.replace('if (!wait.ready) return wait.answer;', '');
    expect(problems(dropped)).toEqual(['does not wait at its position']);
    const result = `.post('/sync', guard, async (c) => {
      const result = await syncSinceLastSync(syncDeps, account, now, c.var.requestId);
      await readModelsAt(c, deps.projections, result.position, { status: 200, data: { imported: result.imported } });
      return c.json({ success: true as const, data: result });`;
    expect(problems(result)).toEqual(['does not wait at its position']);
  });

  it('fails a handler whose command appends through a store that does not note its appends', () => {
    const unrecorded = waiting.replace('logRun(commandContext(deps, c), body)', 'logRun(deps.store, body)');
    expect(problems(unrecorded)).toEqual(['gives its command a store that does not note its appends']);
  });
});
