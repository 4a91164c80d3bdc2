import { Hono } from 'hono';
import type { DevMailbox } from './dev-mailbox.ts';

/**
 * `GET /dev/mail[?to=&limit=]`: the development mailbox as JSON, newest first, so a local user can finish sign-up
 * without an SMTP server. Mounted only outside production (see auth-module.ts).
 */
export function devMailRoutes(mailbox: DevMailbox) {
  return new Hono().get('/mail', async (c) => {
    const to = c.req.query('to');
    const limitRaw = Number(c.req.query('limit') ?? 50);
    const limit = Number.isInteger(limitRaw) && limitRaw > 0 ? Math.min(limitRaw, 200) : 50;
    return c.json({ mail: await mailbox.list({ ...(to ? { to } : {}), limit }) });
  });
}
