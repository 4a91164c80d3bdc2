import { loadConfig } from '../config.ts';
import { createRuntime } from '../runtime.ts';

/** `npm run projections:status`: each read model's position in the log and how many events it is behind. */
async function main(): Promise<number> {
  const runtime = await createRuntime({ ...loadConfig(), LOG_LEVEL: 'warn' });
  try {
    const rows = await runtime.projections.status();
    const table = rows.map((s) => ({
      projection: s.name,
      version: s.version,
      position: s.globalPosition,
      applied: s.eventsApplied,
      lag: s.lagCapped ? `${s.lag}+` : s.lag,
      updated: s.updatedAt?.toISOString() ?? '-',
    }));
    console.table(table);
    return 0;
  } finally {
    await runtime.close();
  }
}

process.exitCode = await main();
