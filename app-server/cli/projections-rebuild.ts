import { loadConfig } from '../config.ts';
import { inParallel } from '../process/in-parallel.ts';
import { runOperatorCommand } from './operator-command.ts';
import { operatorRuntime } from './operator-database.ts';

/**
 * `npm run projections:rebuild -- <name> | --all`: rebuilds read models from the event log beside the live copies
 * and swaps them in. On PostgreSQL it is safe while the API runs; the embedded PGlite database can only be opened
 * by one process, so stop `npm start` first. An event a projector refuses does not stop the rebuild: it is passed and
 * recorded as poisoned. On PostgreSQL several read models are rebuilt side by side (each is its own tables and its
 * own checkpoint; most of a rebuild's time is spent waiting on the database), on PGlite one after another.
 */
const PARALLEL_REBUILDS = 3;

async function main(args: string[]): Promise<number> {
  const names = args.filter((a) => !a.startsWith('--'));
  const all = args.includes('--all');
  if (!all && names.length === 0) {
    process.stderr.write('Usage: npm run projections:rebuild -- <name> [<name> …] | --all\n');
    return 2;
  }
  const runtime = await operatorRuntime({ ...loadConfig(), LOG_LEVEL: 'warn' });
  try {
    const known = runtime.projections.names;
    const unknown = names.filter((n) => !known.includes(n));
    if (unknown.length > 0) {
      process.stderr.write(`Unknown projection(s): ${unknown.join(', ')}. Known: ${known.join(', ')}\n`);
      return 2;
    }
    const concurrency = runtime.database.kind === 'pglite' ? 1 : PARALLEL_REBUILDS;
    await inParallel(all ? known : names, concurrency, async (name) => {
      const result = await runtime.projections.rebuild(name);
      const rate = result.seconds > 0 ? Math.round(result.eventsApplied / result.seconds) : result.eventsApplied;
      process.stdout.write(
        `rebuilt ${name}: ${result.eventsApplied} events in ${result.seconds.toFixed(2)} s (${rate} events/s), generation ${result.generation}\n`,
      );
      if (result.poisoned > 0) {
        process.stdout.write(
          `  ${result.poisoned} event(s) refused by ${name} and passed: npm run projections:poisoned -- list\n`,
        );
      }
    });
    return 0;
  } finally {
    await runtime.close();
  }
}

await runOperatorCommand(() => main(process.argv.slice(2)));
