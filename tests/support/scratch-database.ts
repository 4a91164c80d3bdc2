import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A throw-away PostgreSQL database on the server named by DATABASE_URL, so test files never share state and a
 * CI run starts clean. Returns its URL and a function that drops it.
 */
export async function createScratchDatabase(
  baseUrl: string,
  prefix = 'ss_test',
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
