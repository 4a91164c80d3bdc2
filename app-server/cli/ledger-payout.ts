import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { WrongExpectedVersionError } from '../../domain/shared/event-store.ts';
import { streams } from '../../domain/shared/streams.ts';
import { CharityPaidOut, payoutProblem } from '../../domain/stake/charity-payout.ts';
import { charityLedgerOfLog } from '../audit/charity-ledger-report.ts';
import { readWholeLog } from '../audit/stake-audit.ts';
import { actorMetadata } from '../commands/event-metadata.ts';
import { appendEvents } from '../commands/execute-command.ts';
import { loadConfig } from '../config.ts';
import { LEDGER_MONTH } from '../../domain/stake/charity-ledger.ts';
import { OperatorError, runOperatorCommand } from './operator-command.ts';
import { operatorRuntime } from './operator-database.ts';

const USAGE = `Usage:
  npm run ledger:payout -- --charity <charity-id> --month YYYY-MM --amount-cents <cents> --reference <transfer reference>
Records a bank transfer to a charity for one month of its ledger (npm run ledger:charities shows paid and due).
`;

/**
 * `npm run ledger:payout`: records what has been paid to a charity for a month (issue 25 item 5), refused beyond
 * what the month still owes it (domain/stake/charity-payout.ts). The same transfer (charity, month, reference)
 * recorded twice is recorded once. Exit 2 on bad arguments, 1 when the payout is refused.
 */
async function main(): Promise<number> {
  let args: { charity: string; month: string; amountCents: number; reference: string };
  try {
    args = parse();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const runtime = await operatorRuntime(loadConfig());
  try {
    const line = (await charityLedgerOfLog(readWholeLog(runtime.store), args.month)).find(
      (l) => l.charityId === args.charity,
    );
    const problem = payoutProblem(args.charity, args.month, line, args.amountCents);
    const referenceKey = createHash('sha256').update(args.reference).digest('hex').slice(0, 16);
    const streamId = streams.charityPayout(args.charity, args.month, referenceKey);
    if ((await runtime.store.readStream(streamId, { maxCount: 1 })).length > 0) {
      process.stdout.write(`already recorded: ${args.reference}\n`);
      return 0;
    }
    if (problem) throw new OperatorError(problem);
    const now = runtime.clock.now();
    const event = CharityPaidOut.parse({
      type: 'CharityPaidOut',
      data: { ...args, charityId: args.charity, paidAt: now.toISOString() },
    });
    try {
      await appendEvents(
        runtime.store,
        streamId,
        [event],
        actorMetadata('operator', `payout-${referenceKey}`, now),
        'no_stream',
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
    process.stdout.write(`recorded ${args.amountCents}c to ${args.charity} for ${args.month} (${args.reference})\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}

function parse() {
  const { values } = parseArgs({
    options: {
      charity: { type: 'string' },
      month: { type: 'string' },
      'amount-cents': { type: 'string' },
      reference: { type: 'string' },
    },
    strict: true,
  });
  for (const name of ['charity', 'month', 'amount-cents', 'reference'] as const) {
    if (!values[name]?.trim()) throw new Error(`--${name} is required`);
  }
  if (!LEDGER_MONTH.test(values.month!)) throw new Error('--month must be a month as YYYY-MM, for example 2026-12');
  if (!/^[1-9]\d{0,9}$/.test(values['amount-cents']!))
    throw new Error('--amount-cents must be a whole number of cents above 0');
  if (values.reference!.length > 200) throw new Error('--reference must be at most 200 characters');
  return {
    charity: values.charity!.trim(),
    month: values.month!,
    amountCents: Number(values['amount-cents']),
    reference: values.reference!.trim(),
  };
}

await runOperatorCommand(main);
