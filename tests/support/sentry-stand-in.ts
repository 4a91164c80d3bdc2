import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One envelope as it arrived: the path (project, key) and the body as text. */
export interface ReceivedEnvelope {
  readonly path: string;
  readonly body: string;
  /** The item types in the envelope (event, transaction, replay_event, replay_recording, session…). */
  readonly itemTypes: readonly string[];
}

/** The types of an envelope's items: every line that is a JSON object with a `type` (item headers). */
function itemTypesOf(body: string): string[] {
  const types: string[] = [];
  for (const line of body.split('\n')) {
    if (!line.startsWith('{"type"') && !line.startsWith('{"length"')) continue;
    try {
      const header = JSON.parse(line) as { type?: unknown };
      if (typeof header.type === 'string') types.push(header.type);
    } catch {
      // A payload line that happens to start like a header: not one.
    }
  }
  return types;
}

/**
 * A local stand-in for Sentry's ingest: records every envelope a browser or server SDK posts to
 * `/api/<project>/envelope/`, answering as Sentry does (200, CORS open: the browser SDK posts from the app's origin).
 */
export class SentryStandIn {
  readonly envelopes: ReceivedEnvelope[] = [];
  private server: Server | null = null;
  url = '';

  /** The DSN that points an SDK here. */
  dsn(project = 1): string {
    const { host } = new URL(this.url);
    return `http://publickey@${host}/${project}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
        'access-control-expose-headers': 'x-sentry-rate-limits, retry-after',
      };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body =
          req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
        this.envelopes.push({ path: req.url ?? '', body, itemTypes: itemTypesOf(body) });
        res.writeHead(200, { 'content-type': 'application/json', ...cors }).end('{}');
      });
    });
    const server = this.server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }

  /** Waits until an envelope matches, or fails after `timeoutMs`. */
  async waitFor(match: (e: ReceivedEnvelope) => boolean, timeoutMs = 30_000): Promise<ReceivedEnvelope> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.envelopes.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`No such envelope; got: ${this.envelopes.map((e) => e.itemTypes.join('+')).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
