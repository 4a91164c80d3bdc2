import { loadConfig } from '../config.ts';
import { runOperatorCommand } from './operator-command.ts';
import { operatorRuntime } from './operator-database.ts';

/**
 * `npm run projections:status`: each read model's position in the log, how many events it is behind, and how many
 * events it refused and passed (poisoned; inspect them with `npm run projections:poisoned -- list`).
 */
async function main(): Promise<number> {
  const runtime = await operatorRuntime({ ...loadConfig(), LOG_LEVEL: 'warn' });
  try {
    const rows = await runtime.projections.status();
    const table = rows.map((s) => ({
      projection: s.name,
      version: s.version,
      position: s.globalPosition,
      applied: s.eventsApplied,
      lag: s.lagCapped ? `${s.lag}+` : s.lag,
      poisoned: s.poisoned,
      updated: s.updatedAt?.toISOString() ?? '-',
    }));
    console.table(table);
    const poisoned = table.reduce((sum, row) => sum + row.poisoned, 0);
    if (poisoned > 0) {
      process.stdout.write(
        `${poisoned} poisoned event(s) missing from the read models: npm run projections:poisoned -- list\n`,
      );
    }
    return 0;
  } finally {
    await runtime.close();
  }
}

await runOperatorCommand(main);
