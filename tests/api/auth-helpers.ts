import type { TestRuntime } from '../support/test-runtime.ts';

let counter = 0;

/** A fresh client address per call, so rate limits of one test never leak into another. */
export function freshIp(): string {
  counter += 1;
  return `10.0.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
}

/** Requests to the auth API from one client address. */
export function authClient(runtime: TestRuntime, ip = freshIp()) {
  return (method: string, path: string, options: { body?: unknown; token?: string } = {}) =>
    runtime.request(method, path, { ...options, headers: { 'x-forwarded-for': ip } });
}

/** The newest development mail to an address. */
export async function lastMail(runtime: TestRuntime, to: string) {
  const res = await runtime.request('GET', `/dev/mail?to=${encodeURIComponent(to)}`);
  return res.body.mail[0] as { to: string; subject: string; text: string; links: string[]; sent_at: string };
}

/** The 6-digit code of the newest mail to an address. */
export async function lastCode(runtime: TestRuntime, to: string): Promise<string> {
  const mail = await lastMail(runtime, to);
  return /(\d{6})/.exec(mail.text.split('code')[1] ?? '')?.[1] ?? '';
}

/** Signs up, confirms through the mailed code and signs in; returns the session. */
export async function signedInUser(runtime: TestRuntime, name: string, password = 'correct horse battery') {
  const call = authClient(runtime);
  const email = `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signup = await call('POST', '/auth/v1/signup', {
    body: { email, password, data: { display_name: name, timezone: 'Europe/Paris' } },
  });
  if (signup.status !== 200) throw new Error(`signup failed: ${signup.text}`);
  const verify = await call('POST', '/auth/v1/verify', {
    body: { type: 'signup', email, token: await lastCode(runtime, email) },
  });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.text}`);
  return {
    email,
    password,
    call,
    session: verify.body as { access_token: string; refresh_token: string; user: { id: string } },
  };
}
