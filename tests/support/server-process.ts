import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** A node process of ours (the API or the worker), its output collected. */
export interface NodeProcess {
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** False once it exited (for whatever reason). */
  alive(): boolean;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The API as a real operating-system process (`node app-server/main.ts`, what `npm start` runs). */
export interface ServerProcess extends NodeProcess {
  readonly url: string;
}

/** `node <script>` from the repository's root with `env` over the test's environment. */
function spawnNode(script: string, env: Record<string, string>): NodeProcess {
  let output = '';
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    alive,
    stop: () =>
      new Promise((done) => {
        if (!alive()) return done(child.exitCode);
        child.once('exit', (code) => done(code));
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A free-looking port per call. Prefer `freePort()`: a random one collides now and then with another test process's
 * server (EADDRINUSE, seen in CI-like runs), and one collision is a red run.
 */
export function randomPort(): number {
  return 40_000 + Math.floor(Math.random() * 20_000);
}

/** A port no one listens on now: the system picks it (port 0), it is released, and the caller binds it next. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '0.0.0.0', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Starts the server with `env` over the test's environment and waits until GET /health answers 200. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    ...spawnNode('app-server/main.ts', { WEB_PORT: String(await freePort()), LOG_LEVEL: 'info', ...env, PORT: port }),
  };
  const { child, output } = server;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && server.alive()) {
    try {
      if ((await fetch(`${url}/health`)).ok) return server;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output()}`);
}

/**
 * Signs a user up through the public auth API of a running server: sign-up, the code from the development mailbox,
 * verify. `ip` is sent as X-Forwarded-For (start the server with AUTH_TRUST_PROXY=true) so per-IP limits do not bite.
 */
export async function signUpOverHttp(url: string, name: string, ip: string): Promise<{ id: string; token: string }> {
  const email = `${name}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': ip };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  await post('/auth/v1/signup', {
    email,
    password: 'correct horse battery',
    data: { display_name: name, timezone: 'Europe/Paris' },
  });
  const mail = (await (await fetch(`${url}/dev/mail?to=${encodeURIComponent(email)}`)).json()) as {
    mail: { text: string }[];
  };
  const code = /(\d{6})/.exec(mail.mail[0]?.text.split('code')[1] ?? '')?.[1] ?? '';
  const verified = (await post('/auth/v1/verify', { type: 'signup', email, token: code })) as {
    access_token: string;
    user: { id: string };
  };
  return { id: verified.user.id, token: verified.access_token };
}

/** A Server-Sent-Events stream being read: every event received so far, in order. */
export interface EventStream {
  readonly events: { event: string; data: unknown }[];
  close(): void;
}

/** Opens `url` as an SSE stream and collects its events (comments such as heartbeats are skipped). */
export async function openEventStream(url: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
  const events: { event: string; data: unknown }[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: ?(.*)$/m.exec(block)?.[1];
          const data = /^data: ?(.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) events.push({ event, data: JSON.parse(data) });
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close(), or the server went away: the events so far stay readable.
    }
  })();
  return { events, close: () => abort.abort() };
}

/** `node app-server/worker.ts` (the log's workers alone); resolves once it says it runs, rejects if it exits first. */
export function startWorkerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<NodeProcess> {
  const worker = spawnNode('app-server/worker.ts', { LOG_LEVEL: 'info', ...env, RUN_WORKERS: 'true' });
  const { child } = worker;
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`worker did not start:\n${worker.output()}`));
    }, timeoutMs);
    const onData = () => {
      if (worker.output().includes('StrideStake worker running')) {
        clearTimeout(timer);
        ready(worker);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`worker exited with ${code} during start-up:\n${worker.output()}`));
    });
  });
}
