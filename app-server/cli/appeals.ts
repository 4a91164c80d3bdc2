import { parseArgs } from 'node:util';
import { DomainRefusal } from '../commands/domain-refusal.ts';
import { loadConfig } from '../config.ts';
import { appealLine, decideAppealAsOperator, pendingAppeals } from '../operator/stake-appeals.ts';
import { OperatorError, runOperatorCommand } from './operator-command.ts';
import { operatorRuntime } from './operator-database.ts';

const USAGE = `Usage:
  npm run appeals -- list
  npm run appeals -- accept <stake-id> [--note "what you saw"]
  npm run appeals -- refuse <stake-id> --note "why, in words the runner reads"
Opens the product's database (DATABASE_URL, or the embedded one under DATA_DIR once npm start has stopped).
`;

/**
 * Stake appeals the evidence rules could not accept (issue 25): list them, the soonest deadline first, and accept or
 * refuse one. A refusal needs a note: the runner reads it on their timeline. Settlement waits for the decision until
 * the appeal's deadline (decide by …), after which it is decided for the runner.
 */
async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    strict: true,
    options: { note: { type: 'string', default: '' } },
  });
  const [verb, stakeId, ...extra] = positionals;
  const note = values.note.trim();
  const usage = (problem: string) => {
    process.stderr.write(`${problem}\n${USAGE}`);
    return 2;
  };
  if (verb !== 'list' && verb !== 'accept' && verb !== 'refuse')
    return usage(verb ? `Unknown command "${verb}"` : 'Missing command');
  if (verb === 'list' && stakeId !== undefined) return usage('list takes no stake id');
  if (verb !== 'list' && (stakeId === undefined || extra.length > 0))
    return usage(`${verb} needs exactly one stake id`);
  if (verb === 'refuse' && note === '') return usage('refuse needs --note: the runner reads why');
  if (note.length > 500) return usage('--note must be at most 500 characters');

  const runtime = await operatorRuntime(loadConfig());
  try {
    if (verb === 'list') {
      const appeals = await pendingAppeals(runtime.database.db, runtime.store);
      if (appeals.length === 0) process.stdout.write('No appeals waiting.\n');
      for (const appeal of appeals) process.stdout.write(`${appealLine(appeal)}\n`);
      return 0;
    }
    try {
      const { changed } = await decideAppealAsOperator(runtime.store, stakeId!, verb, note, runtime.clock.now());
      process.stdout.write(
        `${changed ? (verb === 'accept' ? 'accepted' : 'refused') : 'already decided so'} ${stakeId}\n`,
      );
      return 0;
    } catch (error) {
      if (error instanceof DomainRefusal) throw new OperatorError(error.reason.message);
      throw error;
    }
  } finally {
    await runtime.close();
  }
}

await runOperatorCommand(main);
