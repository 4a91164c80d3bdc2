import { parseArgs } from 'node:util';
import { createPostgresEventStore } from '../adapters/event-store/postgres/postgres-event-store.ts';
import { auditCsv, auditSummary } from '../audit/audit-format.ts';
import { auditStakes, readWholeLog } from '../audit/stake-audit.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';

/**
 * `npm run audit:stakes -- [--from ISO] [--to ISO] [--user ID] [--charity ID] [--format json|csv]`: rebuilds every
 * stake's history from the event log alone and checks the money rules (app-server/audit/stake-audit.ts). Prints the
 * report on stdout and a summary on stderr; exits 1 when a rule is broken (naming the stakes), 2 on bad arguments.
 */
async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const store = createPostgresEventStore(database);
  try {
    const report = await auditStakes(readWholeLog(store), {
      from: args.from,
      to: args.to,
      userId: args.user,
      charityId: args.charity,
    });
    process.stdout.write(args.format === 'csv' ? auditCsv(report) : `${JSON.stringify(report, null, 2)}\n`);
    process.stderr.write(`${auditSummary(report)}\n`);
    return report.violations.length > 0 ? 1 : 0;
  } finally {
    await store.close();
    await database.close();
  }
}

function parse() {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      user: { type: 'string' },
      charity: { type: 'string' },
      format: { type: 'string', default: 'json' },
    },
    strict: true,
  });
  if (values.format !== 'json' && values.format !== 'csv') throw new Error('--format must be json or csv');
  for (const key of ['from', 'to'] as const) {
    const v = values[key];
    if (v !== undefined && Number.isNaN(Date.parse(v))) throw new Error(`--${key} must be a date or instant`);
  }
  return { ...values, format: values.format as 'json' | 'csv' };
}

process.exitCode = await main();
