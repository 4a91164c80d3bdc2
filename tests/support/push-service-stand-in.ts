import { execFileSync } from 'node:child_process';
import { createECDH, type ECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A push request as the stand-in received it. */
export interface ReceivedPush {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A browser's side of a subscription: the keys it gave the server, and the private half to read pushes with. */
export interface BrowserSubscription {
  readonly json: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Decrypts a push body (RFC 8291, aes128gcm) as the browser would. */
  decrypt(body: Buffer): string;
}

// http_ece is the encryption library `web-push` itself uses; the test reads with it what the sender wrote.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer;
};

/**
 * A browser push service on a local HTTPS port (the `web-push` library only speaks HTTPS), with a self-signed
 * certificate made by openssl. Answers by path: `/gone/…` 410 (unsubscribed), `/busy/…` 500, anything else 201.
 * `agent` trusts its certificate.
 */
export class PushServiceStandIn {
  readonly received: ReceivedPush[] = [];
  agent!: Agent;
  url = '';
  #server: Server | null = null;

  async start(): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'push-stand-in-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const key = readFileSync(join(dir, 'key.pem'));
      const cert = readFileSync(join(dir, 'cert.pem'));
      this.agent = new Agent({ ca: cert });
      this.#server = createServer({ key, cert }, async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(path.startsWith('/gone/') ? 410 : path.startsWith('/busy/') ? 500 : 201).end();
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.agent?.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** A new browser subscription whose endpoint is `path` on this service. */
  subscribe(path: string): BrowserSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    return {
      json: {
        endpoint: `${this.url}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
      },
      decrypt: (body) => ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret }).toString('utf8'),
    };
  }
}
