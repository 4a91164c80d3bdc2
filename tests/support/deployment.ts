import { createScratchDatabase } from './scratch-database.ts';
import { freePort, type NodeProcess, type ServerProcess } from './server-process.ts';

/**
 * A deployment as docker-compose.yml makes one, for tests that start real processes: a scratch PostgreSQL database,
 * one public address (tokens name it as their issuer, whichever API replica answers), and the processes started on
 * it, stopped together with the database dropped at the end.
 */
export interface Deployment {
  /** The environment every process of the deployment shares. */
  readonly env: Readonly<Record<string, string>>;
  /** The port of the public address: give it to the API that should answer there. */
  readonly port: string;
  readonly apis: ServerProcess[];
  readonly workers: NodeProcess[];
  /** Stops every process (SIGTERM) and drops the database. */
  close(): Promise<void>;
}

export async function scratchDeployment(
  baseUrl: string,
  prefix: string,
  env: Record<string, string> = {},
): Promise<Deployment> {
  const scratch = await createScratchDatabase(baseUrl, prefix);
  const port = String(await freePort());
  const apis: ServerProcess[] = [];
  const workers: NodeProcess[] = [];
  return {
    env: {
      DATABASE_URL: scratch.url,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'development',
      AUTH_TRUST_PROXY: 'true',
      DATABASE_POOL_SIZE: '4',
      ...env,
    },
    port,
    apis,
    workers,
    async close() {
      await Promise.all([...apis, ...workers].map((p) => p.stop()));
      await scratch.drop();
    },
  };
}
