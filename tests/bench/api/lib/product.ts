import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { type Config, loadConfig } from '../../../../app-server/config.ts';
import { options } from './bench-options.ts';
import { freePort, type ServerProcess, startBackgroundProcess, startServer } from './server-process.ts';

const ROOT = resolve(import.meta.dirname, '../../../..');

/**
 * The product as it runs in production, for every process the bench starts, and the same sealing key for its
 * in-process helpers (seeds, session minting, settlement), so data keys and signing keys sealed by one are opened by
 * the other. The measured routes need no card processor, so the server runs without one, as production refuses the
 * local gateway; the in-process settlement runs on the local gateway as development does (a Stripe test account
 * would measure Stripe's latency, not ours).
 */
export const productEnv = {
  NODE_ENV: 'production',
  AUTH_ENCRYPTION_KEY: 'stridestake-bench-only-key-not-a-secret-0000',
  RUN_WORKERS: 'true',
  HOST: '127.0.0.1',
  // One public address for the server (on whatever port it got) and the in-process session minter: access tokens
  // name it as their issuer, and the server refuses tokens of another issuer.
  PUBLIC_URL: 'http://127.0.0.1:3001',
  LOG_LEVEL: options.logLevel,
  // The request limits are counted on every request, as in production, but scaled out of reach: the bench drives
  // thousands of requests a minute from each reader and one address, and measures the routes, not 429s.
  RATE_LIMIT_MULTIPLIER: '1000',
};
export const inProcessConfig: Config = loadConfig({
  ...productEnv,
  NODE_ENV: 'development',
  PAYMENTS_LOCAL_GATEWAY: 'true',
  LOG_LEVEL: 'silent',
});

/**
 * Starts the product on a database as production runs it: by default as docker-compose.yml deploys it, the API
 * (`node app-server/main.ts`, RUN_WORKERS=false) and one worker (`node app-server/worker.ts`: projections and process
 * managers), so the worker's batches never hold the API's event loop; with BENCH_WORKERS=inprocess, one process
 * running both (`npm start`'s way). With `cpuProfileDir` each process runs under `--cpu-prof` and writes its profile
 * there when it stops (tests/bench/api/profile.ts reads them). `pids` and `rssBytes` cover every process.
 */
export async function startProduct(databaseUrl: string, cpuProfileDir?: string): Promise<ServerProcess> {
  const [port, webPort] = [await freePort(), await freePort()];
  const nodeArgs = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const env = { ...productEnv, DATABASE_URL: databaseUrl, WEB_PORT: String(webPort) };
  if (options.workers === 'inprocess')
    return startServer('app-server/main.ts', env, { port, healthPath: '/health', nodeArgs });
  const worker = await startBackgroundProcess('app-server/worker.ts', env, { nodeArgs });
  try {
    const api = await startServer(
      'app-server/main.ts',
      { ...env, RUN_WORKERS: 'false' },
      { port, healthPath: '/health', nodeArgs },
    );
    return {
      ...api,
      pids: [api.pid, worker.pid],
      rssBytes: () => api.rssBytes() + worker.rssBytes(),
      stop: async () => {
        await api.stop();
        await worker.stop();
      },
    };
  } catch (error) {
    await worker.stop();
    throw error;
  }
}

/** `npm run projections:rebuild -- --all` on the database, timed from start to exit. */
export function timeRebuild(databaseUrl: string): Promise<{ seconds: number; output: string }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['app-server/cli/projections-rebuild.ts', '--all'], {
      cwd: ROOT,
      env: { ...process.env, ...productEnv, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) =>
      code === 0
        ? done({ seconds: (performance.now() - started) / 1000, output })
        : fail(new Error(`rebuild failed:\n${output}`)),
    );
  });
}
