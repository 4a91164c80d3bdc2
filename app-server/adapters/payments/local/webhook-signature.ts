import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from '../payment-errors.ts';

/**
 * Stripe's webhook signature scheme, so the local gateway's events exercise the same verification path:
 * header `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the endpoint secret>`.
 */
export function signWebhook(body: string, secret: string, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, `${timestamp}.${body}`)}`;
}

/** Throws WebhookSignatureError unless one `v1` signature matches and the timestamp is within `toleranceSeconds`. */
export function verifyWebhook(body: string, header: string, secret: string, now: Date, toleranceSeconds = 300): void {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  if (!Number.isInteger(timestamp) || signatures.length === 0) {
    throw new WebhookSignatureError('The signature header is malformed.');
  }
  const expected = Buffer.from(hmac(secret, `${timestamp}.${body}`), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('No signature matches the body.');
  // A replayed old delivery (captured and re-sent by someone else) is refused like Stripe's SDK does.
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError('The signature timestamp is outside the tolerance.');
  }
}

/**
 * Whether one `v1` signature of `header` was made over `body` with `secret`, whatever its age: for refusing events
 * signed with a secret that must never be trusted where they arrive (the local gateway's public one).
 */
export function signedWith(body: string, header: string | null | undefined, secret: string): boolean {
  try {
    verifyWebhook(body, header ?? '', secret, new Date(), Number.POSITIVE_INFINITY);
    return true;
  } catch {
    return false;
  }
}

function hmac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('hex');
}
