import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throw-away PostgreSQL database beside the one in `baseUrl`; drop() removes it (and its connections). */
export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates `<prefix>_<random>` on the server of `baseUrl` (tests and benches never touch the named database). */
export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(baseUrl, `drop database if exists ${name} with (force)`),
  };
}

async function admin(baseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
