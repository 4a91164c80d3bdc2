import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { createRuntime, type Runtime } from '../runtime.ts';
import { OperatorError } from './operator-command.ts';

/**
 * Opens the product's database for a command. Failing to open it (the embedded database held by a running server,
 * PostgreSQL unreachable) is the operator's to fix, so it becomes an OperatorError carrying the reason.
 */
export async function openOperatorDatabase(config: Config): Promise<Database> {
  try {
    return await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new OperatorError(`Cannot open the database: ${reason}`);
  }
}

/** The whole runtime (migrations, event store, projections; no workers) on a database opened as above. */
export async function operatorRuntime(config: Config): Promise<Runtime> {
  const database = await openOperatorDatabase(config);
  try {
    const runtime = await createRuntime(config, { database });
    return {
      ...runtime,
      async close() {
        await runtime.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * Whether `table` exists: the read-only commands run on any database, also one no server has started yet (no event
 * log, no charities), where they report nothing instead of creating tables.
 */
export async function tableExists(database: Database, table: string): Promise<boolean> {
  const { rows } = await sql<{ t: string | null }>`SELECT to_regclass(${table})::text AS t`.execute(database.db);
  return rows[0]?.t != null;
}
