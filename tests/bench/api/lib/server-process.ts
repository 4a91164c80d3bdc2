import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../../..');

/** A server the bench started as its own process (so the load generator never shares its event loop). */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Every process of the product: the API's, and the worker's when it runs on its own (startProduct). */
  readonly pids: readonly number[];
  /** Resident set size now, in bytes (from /proc). */
  rssBytes(): number;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/**
 * Starts `node <script>`, a process that serves no HTTP (the worker): answers its pid once it has run for `settleMs`
 * without exiting (a bad configuration ends it at once), and a stop that ends it as startServer's does.
 */
export async function startBackgroundProcess(
  script: string,
  env: Record<string, string>,
  options: { settleMs?: number; nodeArgs?: readonly string[] } = {},
): Promise<{ pid: number; rssBytes(): number; stop(): Promise<void> }> {
  const child = spawnScript(script, env, options.nodeArgs);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  await new Promise((r) => setTimeout(r, options.settleMs ?? 2_000));
  if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${stderr}`);
  return { pid: child.pid!, rssBytes: () => rssOf(child.pid!), stop: () => stopChild(child) };
}

function spawnScript(script: string, env: Record<string, string>, nodeArgs: readonly string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Resident set size of a process now, in bytes (from /proc). */
/** Resident set size of a process now, in bytes (from /proc). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `node <script>` from the repository root with `env` added (same Node as the bench: process.execPath), and
 * waits until `healthPath` answers 200. Its stdout (the request log) goes nowhere, as to a log shipper; stderr is
 * kept to explain a failed start.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
  options: { port: number; healthPath: string; timeoutMs?: number; nodeArgs?: readonly string[] },
): Promise<ServerProcess> {
  const child = spawnScript(script, { ...env, PORT: String(options.port) }, options.nodeArgs);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${stderr}`);
    try {
      if ((await fetch(`${url}${options.healthPath}`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not answer ${options.healthPath} in time:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    pids: [pid],
    rssBytes: () => rssOf(pid),
    stop: () => stopChild(child),
  };
}
