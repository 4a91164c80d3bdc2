import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { OperatorSurge, ScheduleSurgeInput } from '../operator/surge-schedule.ts';
import { OperatorError, runOperatorCommand } from './operator-command.ts';

const USAGE = `Usage:
  npm run surge -- schedule --multiplier 2 --start 2026-11-28T09:00:00Z --hours 3
  npm run surge -- list
  npm run surge -- cancel <surge-id>
Options: --server <url> (or SERVER_URL) runs it through a running server, with OPERATOR_TOKEN; without it, the
command opens the database itself, or goes through http://localhost:$PORT when npm start holds the embedded one.
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

type Request =
  | { readonly verb: 'list' }
  | { readonly verb: 'cancel'; readonly surgeId: string }
  | { readonly verb: 'schedule'; readonly input: ScheduleSurgeInput };

/** What the arguments ask for, and the server to ask (--server); throws UsageError with a clear message. */
function requestOf(args: string[]): { request: Request; server: string | undefined } {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: {
      multiplier: { type: 'string' },
      start: { type: 'string' },
      hours: { type: 'string' },
      server: { type: 'string' },
    },
  });
  const server = typeof values.server === 'string' ? values.server : undefined;
  if (values.server === true) throw new UsageError('--server needs the server address, such as http://localhost:3001');
  const [verb, ...rest] = positionals;
  if (verb === 'list' && rest.length === 0) return { request: { verb: 'list' }, server };
  if (verb === 'cancel') {
    if (rest.length !== 1) throw new UsageError('cancel needs exactly one surge id');
    return { request: { verb: 'cancel', surgeId: rest[0]! }, server };
  }
  if (verb === 'schedule') {
    for (const name of ['multiplier', 'start', 'hours'] as const) {
      if (values[name] === undefined || values[name] === true) throw new UsageError(`--${name} is required`);
    }
    const parsed = ScheduleOptions.safeParse(values);
    if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid options');
    return { request: { verb: 'schedule', input: parsed.data }, server };
  }
  throw new UsageError(verb ? `Unknown command "${verb}"` : 'Missing command');
}

const printSurges = async (surges: readonly OperatorSurge[]) => {
  const { surgeLine } = await import('../operator/surge-schedule.ts');
  if (surges.length === 0) process.stdout.write('No surges.\n');
  for (const s of surges) process.stdout.write(`${surgeLine(s)}\n`);
};
const printScheduled = (s: OperatorSurge) =>
  process.stdout.write(`scheduled ${s.id}: ${s.xp_multiplier}x from ${s.start_time} to ${s.end_time}\n`);

/**
 * Through a running server's operator routes (/api/operator/surges, http/routes/operator-surges.ts): what `npm start`
 * does with the embedded database it holds. The server's refusal is printed as its sentence, exit code 1.
 */
async function viaServer(server: string, token: string, request: Request): Promise<number> {
  const base = `${server.replace(/\/+$/, '')}/api/operator/surges`;
  const call = async (method: string, url: string, body?: unknown) => {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
      throw new OperatorError(`Cannot reach the server at ${server} (${reason}). Is npm start running on that port?`);
    }
    const json = (await response.json().catch(() => null)) as { data?: unknown; error?: string } | null;
    if (!response.ok) throw new OperatorError(json?.error ?? `The server answered ${response.status}`);
    return json?.data;
  };
  if (request.verb === 'list') await printSurges((await call('GET', base)) as OperatorSurge[]);
  else if (request.verb === 'cancel') {
    await call('DELETE', `${base}/${encodeURIComponent(request.surgeId)}`);
    process.stdout.write(`canceled ${request.surgeId}\n`);
  } else printScheduled((await call('POST', base, request.input)) as OperatorSurge);
  return 0;
}

/** On the database itself (PostgreSQL beside a server, or the embedded one with no server running). */
async function direct(config: import('../config.ts').Config, request: Request): Promise<number> {
  const schedule = await import('../operator/surge-schedule.ts');
  const { DomainRefusal } = await import('../commands/domain-refusal.ts');
  const { operatorRuntime } = await import('./operator-database.ts');
  const runtime = await operatorRuntime({ ...config, LOG_LEVEL: 'warn' });
  const now = new Date();
  try {
    if (request.verb === 'list') {
      const surges = await schedule.readSurgeSchedule(runtime.store);
      await printSurges(surges.map((s) => schedule.operatorSurgeJson(s, now.toISOString())));
      return 0;
    }
    const command =
      request.verb === 'cancel'
        ? schedule.cancelCommand(request.surgeId, now)
        : schedule.scheduleCommand(request.input, now);
    const { events } = await schedule.runSurgeCommand(runtime.store, command, now);
    for (const event of events) {
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

/**
 * `npm run surge -- schedule|list|cancel`: the operator's surge schedule (one stream, overlaps refused). Through the
 * server named by --server or SERVER_URL; else, when `npm start` holds the embedded database (its pid file names a
 * live process), through that server on http://localhost:$PORT; else on the database itself. The server's way needs
 * OPERATOR_TOKEN, the server's own.
 */
async function main(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof requestOf>;
  try {
    parsed = requestOf(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  // Loaded only now, so that a usage mistake is explained even where the server's modules cannot load.
  const { loadConfig } = await import('../config.ts');
  const { embeddedDatabaseHolder } = await import('./embedded-database-holder.ts');
  const config = loadConfig();
  let server = parsed.server ?? process.env.SERVER_URL ?? undefined;
  const holder = config.DATABASE_URL ? null : embeddedDatabaseHolder(config.DATA_DIR);
  if (!server && holder !== null) {
    if (!config.OPERATOR_TOKEN) {
      throw new OperatorError(
        `The embedded database in ${config.DATA_DIR} is in use by process ${holder}. Stop it first, or set DATABASE_URL to share a PostgreSQL server, or set OPERATOR_TOKEN (the server's) to run this through the running server.`,
      );
    }
    server = `http://localhost:${config.PORT}`;
  }
  if (server) {
    if (!config.OPERATOR_TOKEN) {
      throw new OperatorError(`OPERATOR_TOKEN is not set: the server at ${server} takes operator commands with it.`);
    }
    return viaServer(server, config.OPERATOR_TOKEN, parsed.request);
  }
  return direct(config, parsed.request);
}

await runOperatorCommand(() => main(process.argv.slice(2)));
