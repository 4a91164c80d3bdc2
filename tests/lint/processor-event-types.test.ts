import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessManagerAdapters } from '../../app-server/process/registry.ts';
import { allProcessManagers } from '../../app-server/process/registry.ts';
import type { EventTypes } from '../../projections/engine/processor.ts';
import { allProjectors } from '../../projections/registry.ts';

const root = resolve(import.meta.dirname, '../..');

/**
 * Where each processor is defined. Its handler is read from this file and the files it imports from the same folder
 * (and below). A processor missing here fails the first test: a new one must be added, and so checked.
 */
const entries: Record<string, string> = {
  'log-stats': 'projections/log-stats/log-stats-projector.ts',
  runs: 'projections/runs/runs-projector.ts',
  goals: 'projections/goals/goals-projector.ts',
  gamification: 'projections/gamification/gamification-projector.ts',
  surges: 'projections/surge/surge-projector.ts',
  groups: 'projections/groups/groups-projector.ts',
  feed: 'projections/feed/feed-projector.ts',
  stakes: 'projections/stakes/stakes-projector.ts',
  'goal-pauses': 'projections/goal-pauses/goal-pauses-projector.ts',
  'pm:goal-lifecycle': 'app-server/process/goal-lifecycle/goal-lifecycle-process.ts',
  'pm:xp-awards': 'app-server/process/awards/xp-awards.ts',
  'pm:badge-awards': 'app-server/process/awards/badge-awards.ts',
  'pm:personal-data-eraser': 'app-server/privacy/personal-data-eraser.ts',
  'pm:stake-settlement': 'app-server/process/stakes/stake-settlement-process.ts',
  'pm:stake-news': 'app-server/process/stake-news/stake-news-process.ts',
  'pm:strava-sync': 'app-server/process/strava/strava-sync-process.ts',
};

/** Every processor the product runs, with the event types it declares. */
function processors(): { name: string; eventTypes: EventTypes }[] {
  // The adapters are only kept by the factories, never called while building the list.
  const managers = allProcessManagers({} as ProcessManagerAdapters);
  return [
    ...allProjectors.map(({ name, eventTypes }) => ({ name, eventTypes })),
    ...managers.flatMap((m) => (m.eventTypes ? [{ name: `pm:${m.name}`, eventTypes: m.eventTypes }] : [])),
  ];
}

/**
 * Every event type name the code base defines: `type: z.literal('X')` in the event schemas, and `type: 'X'` in the
 * server's own event interfaces (commands, also typed by `type`, live in domain/ and are not events).
 */
function knownEventTypes(): Set<string> {
  const names = new Set<string>();
  for (const [dir, pattern] of [
    ['domain', /\btype:\s*z\.literal\('([A-Z][A-Za-z]+)'\)/g],
    ['app-server', /\btype:\s*(?:z\.literal\()?'([A-Z][A-Za-z]+)'/g],
  ] as const) {
    for (const file of sourceFiles(join(root, dir)))
      for (const m of readFileSync(file, 'utf8').matchAll(pattern)) names.add(m[1]!);
  }
  return names;
}

/**
 * Types a handler names without being delivered them: it compares the first event of a stream it reads itself (the
 * stake's opening, the goal's creation) to find the owner.
 */
const readFromStreams: Record<string, readonly string[]> = {
  'pm:stake-news': ['StakeOpened'],
  'pm:xp-awards': ['GoalCreated'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

/** The entry file and the files it imports, transitively, from its own folder and below. */
function handlerFiles(entry: string): string[] {
  const folder = dirname(join(root, entry));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !file.startsWith(folder)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+\.ts)'/g)) visit(resolve(dirname(file), m[1]!));
  };
  visit(join(root, entry));
  return [...seen];
}

/**
 * The event types a handler's source picks out: `case 'X'`, `type === 'X'` / `type !== 'X'` comparisons, and the
 * names listed in a Set or in a constant named like a list of events (`GOAL_EVENTS`, `HANDLED`), that are event types.
 */
function typesNamedIn(source: string, known: ReadonlySet<string>): Set<string> {
  const named = new Set<string>();
  const patterns = [
    /\bcase '([A-Z][A-Za-z]+)'/g,
    /\btype\s*[!=]==\s*'([A-Z][A-Za-z]+)'/g,
    /'([A-Z][A-Za-z]+)'\s*[!=]==\s*\w+(?:\.\w+)*\.type\b/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) named.add(m[1]!);
  const lists = /(?:new Set(?:<[^>]*>)?\(\[|\b[A-Z_]*(?:EVENTS|TYPES|HANDLED)[A-Z_]*\b[^=\n]*=\s*\[)([^\]]*)\]/g;
  for (const list of source.matchAll(lists)) for (const m of list[1]!.matchAll(/'([A-Z][A-Za-z]+)'/g)) named.add(m[1]!);
  return new Set([...named].filter((name) => known.has(name)));
}

describe('every processor declares the event types it handles (the engine delivers no others)', () => {
  const known = knownEventTypes();

  it('knows where every processor is defined', () => {
    expect(
      processors()
        .map((p) => p.name)
        .filter((name) => !(name in entries)),
    ).toEqual([]);
  });

  it.each(processors().map((p) => [p.name, p.eventTypes] as const))('%s', (name, eventTypes) => {
    if (eventTypes === 'all') return;
    const files = handlerFiles(entries[name]!);
    const named = new Set(files.flatMap((file) => [...typesNamedIn(readFileSync(file, 'utf8'), known)]));
    const read = readFromStreams[name] ?? [];
    const undeclared = [...named].filter((type) => !eventTypes.includes(type) && !read.includes(type)).sort();
    expect(undeclared, `handled in ${files.map((f) => relative(root, f)).join(', ')}`).toEqual([]);
  });

  it('declares only event types that exist (a typo would read nothing)', () => {
    const unknown = processors().flatMap(({ name, eventTypes }) =>
      eventTypes === 'all' ? [] : eventTypes.filter((type) => !known.has(type)).map((type) => `${name}: ${type}`),
    );
    expect(unknown).toEqual([]);
  });

  it('sees a handler added for a type (the check itself)', () => {
    const source = `switch (event.type) {\n  case 'RunRecorded':\n    break;\n}\nif (e.type === 'GoalCreated') {}`;
    expect([...typesNamedIn(source, new Set(['RunRecorded', 'GoalCreated', 'RunDeleted']))].sort()).toEqual([
      'GoalCreated',
      'RunRecorded',
    ]);
    expect(typesNamedIn("const GOAL_EVENTS = ['RunDeleted'];", new Set(['RunDeleted']))).toEqual(
      new Set(['RunDeleted']),
    );
  });
});
