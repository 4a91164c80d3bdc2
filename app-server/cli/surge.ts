import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import type { SurgeCommand } from '../../domain/surge/commands.ts';
import type { Runtime } from '../runtime.ts';
import { runOperatorCommand } from './operator-command.ts';
import { streams } from '../../domain/shared/streams.ts';

const USAGE = `Usage:
  npm run surge -- schedule --multiplier 2 --start 2026-11-28T09:00:00Z --hours 3
  npm run surge -- list
  npm run surge -- cancel <surge-id>
`;

/** A usage mistake: printed with the usage, exit code 2. */
class UsageError extends Error {}

const ScheduleOptions = z.object({
  multiplier: z.coerce
    .number({ message: '--multiplier must be a number' })
    .gt(1, { message: '--multiplier must be greater than 1' }),
  start: z.iso.datetime({ offset: true, message: '--start must be an ISO instant such as 2026-11-28T09:00:00Z' }),
  hours: z.coerce
    .number({ message: '--hours must be a number' })
    .positive({ message: '--hours must be more than 0' })
    .max(72, { message: '--hours must be at most 72' }),
});

/** The command the arguments ask for; throws UsageError with a clear message. */
function commandOf(args: string[], now: Temporal.Instant): SurgeCommand | 'list' {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { multiplier: { type: 'string' }, start: { type: 'string' }, hours: { type: 'string' } },
  });
  const [verb, ...rest] = positionals;
  if (verb === 'list' && rest.length === 0) return 'list';
  if (verb === 'cancel') {
    if (rest.length !== 1) throw new UsageError('cancel needs exactly one surge id');
    return { type: 'CancelSurge', surgeId: rest[0]!, now };
  }
  if (verb === 'schedule') {
    for (const name of ['multiplier', 'start', 'hours'] as const) {
      if (values[name] === undefined || values[name] === true) throw new UsageError(`--${name} is required`);
    }
    const parsed = ScheduleOptions.safeParse(values);
    if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid options');
    const { multiplier, start, hours } = parsed.data;
    const startsAt = Temporal.Instant.from(start);
    const endsAt = startsAt.add({ milliseconds: Math.round(hours * 3_600_000) });
    return {
      type: 'ScheduleSurge',
      surgeId: randomUUID(),
      xpMultiplier: multiplier,
      startsAt: startsAt.toString(),
      endsAt: endsAt.toString(),
      now,
    };
  }
  throw new UsageError(verb ? `Unknown command "${verb}"` : 'Missing command');
}

async function list(runtime: Runtime, now: string): Promise<void> {
  const { surgeDecider } = await import('../../domain/surge/decide.ts');
  const { surgeStatusAt } = await import('../../domain/surge/state.ts');
  const events = await runtime.store.readStream(streams.surgeSchedule());
  const state = events.reduce(
    (s, e) => surgeDecider.evolve(s, { type: e.type, data: e.data } as never),
    surgeDecider.initialState,
  );
  if (state.surges.size === 0) process.stdout.write('No surges.\n');
  for (const s of state.surges.values()) {
    process.stdout.write(
      `${s.surgeId}  ${surgeStatusAt(s, now).padEnd(9)}  ${s.xpMultiplier}x  ${s.startsAt} → ${s.endsAt}\n`,
    );
  }
}

/** `npm run surge -- schedule|list|cancel`: the operator's surge schedule (one stream, overlaps refused). */
async function main(args: string[]): Promise<number> {
  let command: SurgeCommand | 'list';
  const now = new Date();
  try {
    command = commandOf(args, Temporal.Instant.fromEpochMilliseconds(now.getTime()));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  // Loaded only now, so that a usage mistake is explained even where the server's modules cannot load.
  const { surgeDecider } = await import('../../domain/surge/decide.ts');
  const { DomainRefusal } = await import('../commands/domain-refusal.ts');
  const { executeCommand } = await import('../commands/execute-command.ts');
  const { loadConfig } = await import('../config.ts');
  const { operatorRuntime } = await import('./operator-database.ts');
  const runtime = await operatorRuntime({ ...loadConfig(), LOG_LEVEL: 'warn' });
  try {
    if (command === 'list') {
      await list(runtime, now.toISOString());
      return 0;
    }
    const result = await executeCommand(runtime.store, surgeDecider, streams.surgeSchedule(), command, {
      actorId: 'system:operator',
      correlationId: randomUUID(),
      now,
      newEventId: () => randomUUID(),
    });
    for (const event of result.events) {
      if (event.type === 'SurgeScheduled') {
        const d = event.data;
        process.stdout.write(`scheduled ${d.surgeId}: ${d.xpMultiplier}x from ${d.startsAt} to ${d.endsAt}\n`);
      } else process.stdout.write(`canceled ${event.data.surgeId}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof DomainRefusal) {
      process.stderr.write(`${error.reason.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await runtime.close();
  }
}

await runOperatorCommand(() => main(process.argv.slice(2)));
