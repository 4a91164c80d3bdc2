import { createPostgresEventStore } from '../adapters/event-store/postgres/postgres-event-store.ts';
import { loadConfig } from '../config.ts';
import { createRuntime } from '../runtime.ts';
import type { PoisonedEvent } from '../../projections/engine/poisoned-events.ts';

const USAGE = `Usage: npm run projections:poisoned -- <command>
  list [--all]    events a projection refused and passed (open ones; --all: skipped and replayed too)
  show <id>       one of them in full, with the event as stored
  skip <id>       accept that the read model lacks it (it stops counting in /health and projections:status)
  replay <id>     apply it through its projector now (after a fix); exits 1 if it still fails
Replay applies the event on top of the current read model. When later events of the same stream depend on it,
prefer \`npm run projections:rebuild -- <projection>\`: it applies every event in order and marks the poisoned
events it now applies as replayed.
`;

/** `npm run projections:poisoned -- list|show|skip|replay`: inspect and resolve events the projections passed. */
async function main(args: string[]): Promise<number> {
  const [command, argument] = args;
  if (!command || !['list', 'show', 'skip', 'replay'].includes(command)) return usage();
  const id = Number(argument);
  if (command !== 'list' && !(Number.isSafeInteger(id) && id > 0)) return usage();

  const runtime = await createRuntime({ ...loadConfig(), LOG_LEVEL: 'warn' });
  try {
    const { projections } = runtime;
    if (command === 'list') {
      const rows = await projections.poisoned(args.includes('--all') ? {} : { status: ['poisoned'] });
      if (rows.length === 0) process.stdout.write('No poisoned events.\n');
      else console.table(rows.map(summary));
      return 0;
    }
    const poisoned = (await projections.poisoned()).find((p) => p.id === id);
    if (!poisoned) return notFound(id);
    if (command === 'show') {
      // The event as stored: personal fields stay sealed (an operator tool has no business reading them).
      const raw = createPostgresEventStore(runtime.database);
      const event = (await raw.readStream(poisoned.streamId)).find((e) => e.metadata.eventId === poisoned.eventId);
      await raw.close();
      process.stdout.write(
        `${JSON.stringify({ ...summary(poisoned), error: poisoned.error, event: event ?? null }, null, 2)}\n`,
      );
      return 0;
    }
    if (command === 'skip') {
      await projections.skipPoisoned(id);
      process.stdout.write(`Skipped poisoned event ${id} (${poisoned.eventType} in ${poisoned.projection}).\n`);
      return 0;
    }
    const result = await projections.replayPoisoned(id);
    switch (result.kind) {
      case 'replayed':
        process.stdout.write(`Replayed poisoned event ${id} (${poisoned.eventType}) into ${poisoned.projection}.\n`);
        return 0;
      case 'already_replayed':
        process.stdout.write(`Poisoned event ${id} was already replayed.\n`);
        return 0;
      case 'still_failing':
        process.stderr.write(`Poisoned event ${id} still fails in ${poisoned.projection}: ${result.error}\n`);
        return 1;
      case 'not_found':
        return notFound(id);
    }
  } finally {
    await runtime.close();
  }
}

function summary(p: PoisonedEvent) {
  return {
    id: p.id,
    projection: p.projection,
    status: p.status,
    event_type: p.eventType,
    event_id: p.eventId,
    stream: p.streamId,
    position: p.globalPosition,
    attempts: p.attempts,
    first_seen: p.firstSeenAt.toISOString(),
    last_seen: p.lastSeenAt.toISOString(),
    error: p.error.length > 80 ? `${p.error.slice(0, 77)}...` : p.error,
  };
}

function usage(): number {
  process.stderr.write(USAGE);
  return 2;
}

function notFound(id: number): number {
  process.stderr.write(`No poisoned event ${id}. See: npm run projections:poisoned -- list --all\n`);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
