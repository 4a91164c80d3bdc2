import { parseArgs } from 'node:util';
import { createPostgresEventStore } from '../adapters/event-store/postgres/postgres-event-store.ts';
import { auditCsv, auditSummary } from '../audit/audit-format.ts';
import { reviewReleasedStakes } from '../audit/released-stake-review.ts';
import { auditStakes, readWholeLog } from '../audit/stake-audit.ts';
import { loadConfig } from '../config.ts';
import { PersonalKeyVault } from '../privacy/key-vault.ts';
import { personalDataRules } from '../privacy/personal-data-policy.ts';
import { protectPersonalData } from '../privacy/protected-event-store.ts';
import { runOperatorCommand } from './operator-command.ts';
import { openOperatorDatabase, tableExists } from './operator-database.ts';

/**
 * `npm run audit:stakes -- [--from ISO] [--to ISO] [--user ID] [--charity ID] [--format json|csv] [--strict]`:
 * rebuilds every stake's history from the event log alone and checks the money rules (app-server/audit/stake-audit.ts),
 * then reviews released stakes against today's run policy (app-server/audit/released-stake-review.ts). Prints the
 * report on stdout and a summary on stderr; exits 1 when a money rule is broken (naming the stakes), 2 on bad
 * arguments, 3 with --strict when there are released stakes to review (warnings; without --strict they exit 0).
 * A database with no event log yet (fresh, never started) has nothing to audit: it says so and exits 0. Read-only:
 * it never creates tables.
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
  const raw = createPostgresEventStore(database);
  // The review re-judges runs from their tracks, which the log keeps encrypted under each owner's key.
  const vault = new PersonalKeyVault({
    db: database.db,
    serverSecret: config.AUTH_ENCRYPTION_KEY,
    now: () => new Date(),
  });
  const store = protectPersonalData(raw, vault, personalDataRules);
  try {
    const hasLog = await tableExists(database, 'es_events');
    const readLog = () => (hasLog ? readWholeLog(store) : emptyLog());
    const filter = { from: args.from, to: args.to, userId: args.user, charityId: args.charity };
    const report = {
      ...(await auditStakes(readLog(), filter)),
      review: await reviewReleasedStakes(readLog, filter),
    };
    process.stdout.write(args.format === 'csv' ? auditCsv(report) : `${JSON.stringify(report, null, 2)}\n`);
    const filtered = [args.from, args.to, args.user, args.charity].some((v) => v !== undefined);
    const nothing = filtered ? 'no stake matches the filter (0 stakes)' : '0 stakes in the event log';
    process.stderr.write(report.totals.stakes === 0 ? `Nothing to audit: ${nothing}.\n` : `${auditSummary(report)}\n`);
    if (report.violations.length > 0) return 1;
    return args.strict && report.review.length > 0 ? 3 : 0;
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
      strict: { type: 'boolean', default: false },
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

/** Whether the event store's table exists: a database no server has started on has none. */
async function* emptyLog(): AsyncIterable<never> {}

await runOperatorCommand(main);
