import { resolve } from 'node:path';
import type { Rolldown } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;

/** The chunks of the two groups below, and app.html's entry chunk (named `app` too, after its input). */
export const FIRST_LOAD_CHUNKS: ReadonlySet<string> = new Set(['framework', 'app']);

/** A module and everything it imports statically, transitively (dynamic imports are left to their own chunks). */
function staticClosure(ctx: ChunkingContext, entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * How the web build is split for a first load with few requests (each one costs a round trip, and a phone's
 * connection takes only a few at a time), without either page downloading the other's code:
 * - `framework`: what main.tsx needs before anything shows (React, the router, the small shell modules), and what
 *   the landing page's script shares with the app's first screen (the app-store prompt, icons). Both pages start
 *   with it: index.html (`/`, the landing page) and app.html (every other route);
 * - `app`: the rest of what app.html's entry (app-main.tsx) needs for the app's first screen; the landing page
 *   never loads it.
 * Everything else (the other screens, the landing page's script, the auth client) stays split by dynamic import.
 * Without an app.html entry (the native build) there is no `app` group.
 */
export function firstLoadChunkGroups(root: string) {
  const landingEntry = resolve(root, 'src/main.tsx');
  const landingScript = resolve(root, 'src/app/landing-shell.tsx');
  const appEntry = resolve(root, 'src/app-main.tsx');
  // Module ids are known only while chunking: the two sets are worked out once per chunking pass (a rebuild has its own).
  const passes = new WeakMap<ChunkingContext, { framework: Set<string>; app: Set<string> }>();
  const groupsOf = (ctx: ChunkingContext) => {
    const known = passes.get(ctx);
    if (known) return known;
    const framework = staticClosure(ctx, landingEntry);
    framework.delete(landingEntry);
    const app = new Set<string>();
    // Not in the graph (the native build has no app.html): no `app` group.
    if (ctx.getModuleInfo(appEntry)) {
      const landing = staticClosure(ctx, landingScript);
      for (const id of staticClosure(ctx, appEntry)) {
        if (id === appEntry || framework.has(id)) continue;
        // Both pages load it on their first screen (the app-store prompt, icons): with the framework.
        if (landing.has(id)) framework.add(id);
        else app.add(id);
      }
    }
    const groups = { framework, app };
    passes.set(ctx, groups);
    return groups;
  };
  // Stylesheets stay where Vite puts them (the page's own CSS file, inlined into the landing page).
  const script = (id: string) => !id.endsWith('.css');
  return [
    {
      name: (id: string, ctx: ChunkingContext) => (script(id) && groupsOf(ctx).framework.has(id) ? 'framework' : null),
    },
    { name: (id: string, ctx: ChunkingContext) => (script(id) && groupsOf(ctx).app.has(id) ? 'app' : null) },
  ] satisfies Rolldown.CodeSplittingGroup[];
}
