import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { freePort, type ServerProcess, signUpOverHttp, startServerProcess } from '../support/server-process.ts';

/**
 * The API remembers verified access tokens (an ECDSA verification per request is the largest cost of an
 * authenticated read) and live sessions, the latter only with the session epoch that every revocation moves and that
 * each request reads afresh (app-server/auth/live-sessions.ts). These tests hold it to exactness with two API
 * processes on one PostgreSQL database, as deployed behind the load balancer: a sign-out or an account erasure
 * through one is refused at once by the other, which has the token and the session in its memory.
 */
const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];

describe.each(postgres)('revocation seen at once by a second API instance (%s)', (baseUrl) => {
  let first: ServerProcess;
  let second: ServerProcess;
  let scratch: { url: string; drop(): Promise<void> };
  let ipCounter = 0;
  const nextIp = () => `10.88.0.${++ipCounter}`;

  beforeAll(async () => {
    scratch = await createScratchDatabase(baseUrl, 'ss_revoke');
    const port = String(await freePort());
    // One public address for both, as behind the load balancer: tokens name it as their issuer.
    const env = {
      DATABASE_URL: scratch.url,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'development',
      AUTH_TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
    };
    first = await startServerProcess({ ...env, PORT: port });
    // The second instance serves requests only, as the compose file's API replicas do.
    second = await startServerProcess({ ...env, RUN_WORKERS: 'false' });
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await scratch?.drop();
  });

  const get = (server: ServerProcess, path: string, token: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  /** Both instances answer the token, several times, so each has verified and remembered it. */
  const warm = async (token: string) => {
    for (const server of [first, second, first, second]) {
      const res = await get(server, '/goals/current', token);
      expect(res.status).toBe(200);
    }
  };

  it('refuses a signed-out session on the other instance on the very next request', async () => {
    const user = await signUpOverHttp(first.url, 'signout', nextIp());
    await warm(user.token);
    const logout = await fetch(`${first.url}/auth/v1/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'x-forwarded-for': nextIp() },
    });
    expect(logout.status).toBe(204);
    const afterwards = await get(second, '/goals/current', user.token);
    expect(afterwards.status).toBe(401);
    expect(await afterwards.json()).toEqual({ error: 'Session expired or signed out' });
    expect((await get(first, '/goals/current', user.token)).status).toBe(401);
  });

  it('refuses an erased account on the other instance on the very next request', async () => {
    const user = await signUpOverHttp(first.url, 'erased', nextIp());
    await warm(user.token);
    const ip = nextIp();
    const reauthenticate = await fetch(`${first.url}/auth/v1/reauthenticate`, {
      headers: { authorization: `Bearer ${user.token}`, 'x-forwarded-for': ip },
    });
    expect(reauthenticate.status).toBe(200);
    const me = (await (await get(first, '/auth/me', user.token)).json()) as { user: { email: string } };
    const mail = (await (await fetch(`${first.url}/dev/mail?to=${encodeURIComponent(me.user.email)}`)).json()) as {
      mail: { text: string }[];
    };
    const nonce = mail.mail.map((m) => /Your code: (\d{6})/.exec(m.text)?.[1]).find(Boolean);
    expect(nonce).toMatch(/^\d{6}$/);
    const erased = await fetch(`${first.url}/auth/me`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ nonce }),
    });
    expect(erased.status).toBe(200);
    const afterwards = await get(second, '/goals/current', user.token);
    expect(afterwards.status).toBe(401);
    expect(await afterwards.json()).toEqual({ error: 'Session expired or signed out' });
  });

  it('refuses every request that reaches the other instance after the sign-out, in a burst of requests', async () => {
    const user = await signUpOverHttp(first.url, 'burst', nextIp());
    await warm(user.token);
    const answers: { sentAt: number; status: number }[] = [];
    let stopping = false;
    // Sixteen clients keep asking the second instance, before, during and after the sign-out on the first.
    const client = async () => {
      while (!stopping) {
        const sentAt = performance.now();
        const res = await get(second, '/goals/current', user.token);
        await res.arrayBuffer();
        answers.push({ sentAt, status: res.status });
      }
    };
    const clients = Array.from({ length: 16 }, client);
    await new Promise((r) => setTimeout(r, 150));
    const logout = await fetch(`${first.url}/auth/v1/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'x-forwarded-for': nextIp() },
    });
    const signedOutAt = performance.now();
    expect(logout.status).toBe(204);
    await new Promise((r) => setTimeout(r, 250));
    stopping = true;
    await Promise.all(clients);
    const sentAfter = answers.filter((a) => a.sentAt > signedOutAt);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(sentAfter.length).toBeGreaterThan(0);
    // Refused, every one: 401, or 429 where sixteen clients outran the user's read limit (the limiter counts before
    // the session is looked at). Never an answer with the signed-out user's data.
    expect(sentAfter.filter((a) => a.status !== 401 && a.status !== 429)).toEqual([]);
    expect(sentAfter.some((a) => a.status === 401)).toBe(true);
  });
});
