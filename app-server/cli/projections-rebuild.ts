import { loadConfig } from '../config.ts';
import { runOperatorCommand } from './operator-command.ts';
import { operatorRuntime } from './operator-database.ts';

/**
 * `npm run projections:rebuild -- <name> [<name> …] | --all`: rebuilds read models from the event log beside the live
 * copies and swaps them in. On PostgreSQL it is safe while the API runs; the embedded PGlite database can only be
 * opened by one process, so stop `npm start` first. An event a projector refuses does not stop the rebuild: it is
 * passed and recorded as poisoned. Several read models are rebuilt together over one read of the log (each batch is
 * read and decoded once, then applied to every copy side by side: rebuild.ts).
 */
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
    for (const result of await runtime.projections.rebuildAll(all ? known : names)) {
      const rate = result.seconds > 0 ? Math.round(result.eventsApplied / result.seconds) : result.eventsApplied;
      process.stdout.write(
        `rebuilt ${result.name}: ${result.eventsApplied} events in ${result.seconds.toFixed(2)} s (${rate} events/s), generation ${result.generation}\n`,
      );
      if (result.poisoned > 0) {
        process.stdout.write(
          `  ${result.poisoned} event(s) refused by ${result.name} and passed: npm run projections:poisoned -- list\n`,
        );
      }
    }
    return 0;
  } finally {
    await runtime.close();
  }
}

await runOperatorCommand(() => main(process.argv.slice(2)));
