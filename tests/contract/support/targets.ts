import type { EventStore, Upcaster } from '../../../domain/shared/event-store.ts';
import { createKurrentDbEventStore } from '../../../app-server/adapters/event-store/kurrentdb/kurrentdb-event-store.ts';
import { createPostgresEventStore } from '../../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { type Database, openDatabase } from '../../../app-server/db/database.ts';
import type { PostgresEventStoreTx } from '../../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { migrateEventStore } from './migrate-event-store.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { emptyClusterImage } from '../../support/pglite-image.ts';

/** One adapter under contract: its store, the PostgreSQL database holding checkpoints and side effects. */
export interface OpenTarget {
  readonly database: Database;
  readonly store: EventStore<PostgresEventStoreTx>;
  /** A second store on the same data with upcasters. */
  withUpcasters(upcasters: readonly Upcaster[]): EventStore<PostgresEventStoreTx>;
  /** Whether appends can join a caller's transaction (PostgreSQL adapters). */
  readonly transactionalAppends: boolean;
  close(): Promise<void>;
}

export interface ContractTarget {
  readonly name: string;
  open(): Promise<OpenTarget>;
}

/** PGlite always; PostgreSQL when DATABASE_URL is set; KurrentDB when EVENTSTORE_URL is set. */
export function contractTargets(env: NodeJS.ProcessEnv = process.env): ContractTarget[] {
  const targets: ContractTarget[] = [{ name: 'pglite', open: () => openPostgresTarget(undefined) }];
  const databaseUrl = env.DATABASE_URL;
  if (databaseUrl) targets.push({ name: 'postgres', open: () => openPostgresTarget(databaseUrl) });
  const eventStoreUrl = env.EVENTSTORE_URL;
  if (eventStoreUrl) targets.push({ name: 'kurrentdb', open: () => openKurrentTarget(eventStoreUrl, databaseUrl) });
  return targets;
}

async function openCheckpointDatabase(databaseUrl: string | undefined) {
  const scratch = databaseUrl ? await createScratchDatabase(databaseUrl, 'es_contract') : null;
  const database = await openDatabase({
    databaseUrl: scratch?.url,
    dataDir: 'memory',
    pgliteImage: emptyClusterImage(),
    poolSize: 12,
  });
  await migrateEventStore(database.db);
  return {
    database,
    async close() {
      await database.close();
      await scratch?.drop();
    },
  };
}

async function openPostgresTarget(databaseUrl: string | undefined): Promise<OpenTarget> {
  const { database, close } = await openCheckpointDatabase(databaseUrl);
  const stores: EventStore<PostgresEventStoreTx>[] = [];
  const make = (upcasters?: readonly Upcaster[]) => {
    const store = createPostgresEventStore(database, { upcasters: upcasters ?? [] });
    stores.push(store);
    return store;
  };
  return {
    database,
    store: make(),
    withUpcasters: make,
    transactionalAppends: true,
    async close() {
      for (const store of stores) await store.close();
      await close();
    },
  };
}

async function openKurrentTarget(connectionString: string, databaseUrl: string | undefined): Promise<OpenTarget> {
  const { database, close } = await openCheckpointDatabase(databaseUrl);
  const stores: EventStore<PostgresEventStoreTx>[] = [];
  const make = (upcasters?: readonly Upcaster[]) => {
    const store = createKurrentDbEventStore({ connectionString, upcasters: upcasters ?? [] });
    stores.push(store);
    return store;
  };
  return {
    database,
    store: make(),
    withUpcasters: make,
    transactionalAppends: false,
    async close() {
      for (const store of stores) await store.close();
      await close();
    },
  };
}
