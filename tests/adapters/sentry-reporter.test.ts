import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErrorReporter, silentReporter } from '../../app-server/adapters/error-reporting/error-reporter.ts';

describe('error reporting through the Sentry SDK, against a local server standing in for Sentry', () => {
  const envelopes: { path: string; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
      envelopes.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  it('sends an unexpected error with its request id to the project envelope endpoint', async () => {
    const reporter = createErrorReporter({ dsn: `http://publickey@127.0.0.1:${port}/42`, environment: 'test' });
    reporter.capture(new Error('settlement exploded'), { requestId: 'req-123' });
    expect(await reporter.flush(5000)).toBe(true);
    const envelope = envelopes.find((e) => e.body.includes('settlement exploded'));
    expect(envelope?.path).toContain('/api/42/envelope/');
    expect(envelope?.body).toContain('"requestId":"req-123"');
    expect(envelope?.body).toContain('"environment":"test"');
  });

  it('reports nothing without a DSN', async () => {
    expect(createErrorReporter({ environment: 'test' })).toBe(silentReporter);
  });
});
