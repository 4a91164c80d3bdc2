import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the SDK made, with its form body parsed. */
export type RecordedRequest = {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly form: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
};

/** What the stand-in answers: a status and a JSON body. */
export type FakeResponse = { readonly status: number; readonly body: unknown };

/** 'drop' closes the connection without an answer: the request arrived, the response was lost. */
export type FakeHandler = (request: RecordedRequest) => FakeResponse | 'drop' | undefined;

/**
 * A local HTTP server standing in for api.stripe.com: it records every request (path, query, form body, headers)
 * and answers with whatever the test's handler returns; an unhandled request gets Stripe's 404 shape.
 */
export class FakeStripeServer {
  readonly requests: RecordedRequest[] = [];
  #handler: FakeHandler = () => undefined;
  #server: Server | null = null;

  get port(): number {
    const address = this.#server?.address();
    if (!address || typeof address === 'string') throw new Error('The fake Stripe server is not listening.');
    return (address as AddressInfo).port;
  }

  respond(handler: FakeHandler): void {
    this.#handler = handler;
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
          headers: req.headers,
        };
        this.requests.push(recorded);
        const handled = this.#handler(recorded);
        if (handled === 'drop') {
          req.socket.destroy();
          return;
        }
        const answer = handled ?? {
          status: 404,
          body: stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such object' })
            .body,
        };
        res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  /** The last request to `METHOD path`. */
  last(method: string, path: string): RecordedRequest {
    const found = this.requests.filter((r) => r.method === method && r.path === path).at(-1);
    if (!found)
      throw new Error(`no ${method} ${path} among ${this.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    return found;
  }
}

/** The values of a form array, however the SDK indexed it (`name[]` or `name[0]`, `name[1]`…). */
export function formArray(form: URLSearchParams, name: string): string[] {
  const pattern = new RegExp(`^${name.replace(/[[\]]/g, '\\$&')}\\[\\d*\\]$`);
  return [...form.entries()].filter(([key]) => pattern.test(key)).map(([, value]) => value);
}

/** Stripe's error body. */
export function stripeError(status: number, error: Record<string, unknown>): FakeResponse {
  return { status, body: { error } };
}

/** A PaymentIntent as Stripe returns it, with the fields the adapter reads. */
export function paymentIntent(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'pi_123',
    object: 'payment_intent',
    amount: 1000,
    amount_capturable: 0,
    amount_received: 0,
    capture_method: 'manual',
    client_secret: 'pi_123_secret_abc',
    created: 1_763_971_200,
    currency: 'usd',
    customer: 'cus_1',
    last_payment_error: null,
    latest_charge: null,
    metadata: {},
    status: 'requires_capture',
    ...fields,
  };
}

/** An expanded charge whose card reports `capture_before` (unix seconds). */
export function chargeWithDeadline(captureBefore: number | undefined, brand = 'visa'): Record<string, unknown> {
  return {
    id: 'ch_1',
    object: 'charge',
    created: 1_763_971_200,
    payment_method_details: {
      type: 'card',
      card: { brand, ...(captureBefore === undefined ? {} : { capture_before: captureBefore }) },
    },
  };
}
