/**
 * zod 4 tries `new Function('')` once to choose its compiled fast path for objects. Under the app's
 * Content-Security-Policy (no 'unsafe-eval': app-server/http/security-headers.ts) the attempt fails, zod falls back,
 * and the browser still reports a CSP violation. Its global settings live on `globalThis.__zod_globalConfig`
 * (zod/v4/core/core.js reuses what it finds there): `jitless` set before any schema loads skips the attempt, and
 * this module loads no zod code. Imported first by the web entries.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });
