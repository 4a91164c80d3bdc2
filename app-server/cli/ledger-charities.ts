import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createPostgresEventStore } from '../adapters/event-store/postgres/postgres-event-store.ts';
import { charityLedgerOfLog, ledgerCsv, ledgerRows } from '../audit/charity-ledger-report.ts';
import { readWholeLog } from '../audit/stake-audit.ts';
import { loadConfig } from '../config.ts';
import { LEDGER_MONTH } from '../../domain/stake/charity-ledger.ts';
import type { Database } from '../db/database.ts';
import { runOperatorCommand } from './operator-command.ts';
import { openOperatorDatabase, tableExists } from './operator-database.ts';

/**
 * `npm run ledger:charities -- --month YYYY-MM [--format json|csv]`: what each charity is owed for a month (UTC),
 * folded from the event log alone (domain/stake/charity-ledger.ts): the charity's 80% of every stake collected in
 * the month, each rounded down to the cent, minus the charity's share of the refunds made in the month. Without
 * --month, every month. Prints on stdout (CSV with a header row); exits 2 on bad arguments. Read-only.
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
  const database = await openOperatorDatabase(config);
  // Stake events hold no personal data: the raw log is enough (no key vault).
  const store = createPostgresEventStore(database);
  try {
    const lines = (await tableExists(database, 'es_events'))
      ? await charityLedgerOfLog(readWholeLog(store), args.month)
      : [];
    const rows = ledgerRows(lines, await charityNames(database));
    const owed = rows.reduce((sum, r) => sum + r.owed_cents, 0);
    process.stdout.write(
      args.format === 'csv'
        ? ledgerCsv(rows)
        : `${JSON.stringify({ month: args.month ?? null, charities: rows, owed_cents: owed }, null, 2)}\n`,
    );
    const scope = args.month ? `in ${args.month}` : 'in the event log';
    process.stderr.write(`${rows.length} charity ${rows.length === 1 ? 'line' : 'lines'} ${scope}, owed ${owed}c\n`);
    return 0;
  } finally {
    await store.close();
    await database.close();
  }
}

function parse() {
  const { values } = parseArgs({
    options: { month: { type: 'string' }, format: { type: 'string', default: 'json' } },
    strict: true,
  });
  if (values.format !== 'json' && values.format !== 'csv') throw new Error('--format must be json or csv');
  if (values.month !== undefined && !LEDGER_MONTH.test(values.month)) {
    throw new Error('--month must be a month as YYYY-MM, for example 2026-12');
  }
  return { month: values.month, format: values.format as 'json' | 'csv' };
}

/** Charity names by id (the table exists once a server has started). */
async function charityNames(database: Database): Promise<Map<string, string>> {
  if (!(await tableExists(database, 'charities'))) return new Map();
  const { rows } = await sql<{ id: string; name: string }>`SELECT id, name FROM charities`.execute(database.db);
  return new Map(rows.map((r) => [r.id, r.name]));
}

await runOperatorCommand(main);
