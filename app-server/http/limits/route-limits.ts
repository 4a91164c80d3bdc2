/*
 * ONE limit policy per route of the API, declared beside the route: every RouteDoc (route-docs.ts,
 * product-route-docs.ts) must name its `limit`, so a new route without a policy does not compile, and the mounted
 * apps that are not described route by route (/auth/v1, /dev) declare theirs in MOUNTED_LIMITS. The rate-limit
 * middleware (middleware/rate-limit.ts) finds the matched route's policy and counts the request; the OpenAPI document
 * shows it on each operation as `x-rate-limit`.
 *
 * A policy names a class. Each class counts per signed-in user (when the request carries a valid bearer token) and
 * per client address, in fixed windows; both counts are taken in one statement, and the request is refused with 429
 * and Retry-After when either is over its maximum. Classes share their counter across routes: all the reads of one
 * user count together, all the writes together.
 */

/** A window's budget: at most `max` requests per `windowSeconds`. */
export interface Budget {
  readonly max: number;
  readonly windowSeconds: number;
}

/**
 * Where a class counts. `database`: one shared counter for every API instance (atomic upsert, limit-counter.ts).
 * `memory`: a counter per instance — only the hot reads, whose limits are generous (see READ_COUNTING below).
 */
export type CountedIn = 'database' | 'memory';

export interface LimitClass {
  /** Per signed-in user; absent for routes nobody signs in to. */
  readonly perUser?: Budget;
  /** Per client address (`clientIp`, honouring AUTH_TRUST_PROXY). */
  readonly perAddress: Budget;
  readonly countedIn: CountedIn;
  readonly description: string;
}

const minute = 60;
const hour = 60 * minute;

/*
 * READ_COUNTING — why reads count in memory. Measured on this machine (README "Request limits"): counting every GET
 * in the database adds one upsert (a write, a WAL record, a row lock on the user's hot counter row) to a read that
 * is otherwise one indexed SELECT, and on the embedded PGlite — one session shared by every request — it serialises
 * every read behind a write. Reads change nothing, and their budget is generous (it only stops one account from
 * monopolising an instance), so they count per instance: with N instances a client may read N × the budget, which
 * is still bounded. Everything that writes, creates, guesses or opens a stream counts in the database, so every
 * instance counts together and a parallel burst gets exactly `max`.
 */
export const LIMIT_CLASSES = {
  /** Signed-in reads: lists, details, stats. */
  read: {
    perUser: { max: 600, windowSeconds: minute },
    perAddress: { max: 2400, windowSeconds: minute },
    countedIn: 'memory',
    description: 'Signed-in reads',
  },
  /** Reads anyone may make (health, this document, badge definitions, surges, charities, payment config). */
  public: {
    perAddress: { max: 600, windowSeconds: minute },
    countedIn: 'memory',
    description: 'Public reads, per address',
  },
  /** Changes: saving runs, editing, deleting, reacting, preferences, leaving a group. */
  write: {
    perUser: { max: 60, windowSeconds: minute },
    perAddress: { max: 300, windowSeconds: minute },
    countedIn: 'database',
    description: 'Writes',
  },
  /** GPS uploads while tracking: a phone posts its fixes every few seconds. */
  tracking: {
    perUser: { max: 120, windowSeconds: minute },
    perAddress: { max: 600, windowSeconds: minute },
    countedIn: 'database',
    description: 'GPS tracking uploads',
  },
  /** Creating something that lasts or costs: groups, goals, stakes, cards, joining, invite codes, syncs. */
  create: {
    perUser: { max: 30, windowSeconds: hour },
    perAddress: { max: 150, windowSeconds: hour },
    countedIn: 'database',
    description: 'Creations',
  },
  /** Work done for the user elsewhere: test notifications, push registrations. */
  notify: {
    perUser: { max: 10, windowSeconds: hour },
    perAddress: { max: 50, windowSeconds: hour },
    countedIn: 'database',
    description: 'Notifications sent or registered',
  },
  /** Opening a live-update stream (besides the cap on open streams, REALTIME_MAX_STREAMS_PER_USER). */
  stream: {
    perUser: { max: 30, windowSeconds: minute },
    perAddress: { max: 120, windowSeconds: minute },
    countedIn: 'database',
    description: 'Opening live-update streams',
  },
  /** Provider webhooks (Stripe, Strava): unsigned in or signed, unauthenticated; high enough for a provider's burst. */
  webhook: {
    perAddress: { max: 3000, windowSeconds: minute },
    countedIn: 'database',
    description: "Provider webhooks, per address (Stripe's and Strava's retries arrive in bursts)",
  },
  /** Development-only routes (the dev mailbox, the local card gateway's stand-in). */
  dev: {
    perAddress: { max: 300, windowSeconds: minute },
    countedIn: 'memory',
    description: 'Development-only routes',
  },
} as const satisfies Record<string, LimitClass>;

export type LimitClassName = keyof typeof LIMIT_CLASSES;

/**
 * A route's policy: counted in one of the classes above, or the auth service's own limits (the GoTrue-compatible
 * /auth/v1 counts sign-ins, sign-ups, mails and codes itself: app-server/auth/rate-limiter.ts, docs/auth.md).
 */
export type RouteLimit = { readonly class: LimitClassName } | { readonly class: 'auth-service' };

/** The policies, by name, for the route declarations. */
export const LIMIT = {
  read: { class: 'read' },
  public: { class: 'public' },
  write: { class: 'write' },
  tracking: { class: 'tracking' },
  create: { class: 'create' },
  notify: { class: 'notify' },
  stream: { class: 'stream' },
  webhook: { class: 'webhook' },
  dev: { class: 'dev' },
  authService: { class: 'auth-service' },
} as const satisfies Record<string, RouteLimit>;

/** Mounted apps whose routes are not described one by one (not in ROUTE_DOCS): their policy, by path prefix. */
export const MOUNTED_LIMITS: readonly { readonly prefix: string; readonly limit: RouteLimit }[] = [
  { prefix: '/auth/v1/', limit: LIMIT.authService },
  { prefix: '/dev/', limit: LIMIT.dev },
];

/** Wrong invite codes (POST /groups/join): counted before the code is checked, given back when it was right. */
export const INVITE_GUESSES = {
  perUser: { max: 10, windowSeconds: 15 * minute },
  /** Higher than per user: a household or an office shares an address; sign-ups per address are limited too. */
  perAddress: { max: 30, windowSeconds: 15 * minute },
} as const satisfies Record<string, Budget>;

/** New Idempotency-Keys one user may use (each is remembered as long as the account lives). */
export const IDEMPOTENCY_KEYS_PER_USER: Budget = { max: 300, windowSeconds: hour };

/** A budget scaled by RATE_LIMIT_MULTIPLIER (never below 1 request); null when limits are off (multiplier 0). */
export function scaled(budget: Budget, multiplier: number): Budget | null {
  if (multiplier === 0) return null;
  return { max: Math.max(1, Math.round(budget.max * multiplier)), windowSeconds: budget.windowSeconds };
}

/** The policy of the route Hono matched (`method` upper- or lower-case, `path` in Hono's form), or null. */
export function mountedLimit(path: string): RouteLimit | null {
  return MOUNTED_LIMITS.find((m) => path.startsWith(m.prefix) || `${path}/` === m.prefix)?.limit ?? null;
}

/** How the OpenAPI document shows a policy (`x-rate-limit`), with the limits in force. */
export function describeLimit(limit: RouteLimit, multiplier: number): Record<string, unknown> {
  if (limit.class === 'auth-service') {
    return { class: 'auth-service', description: "The auth service's own limits (docs/auth.md)" };
  }
  const spec: LimitClass = LIMIT_CLASSES[limit.class];
  const budget = (b: Budget | undefined) => {
    const s = b ? scaled(b, multiplier) : null;
    return s ? { max: s.max, window_seconds: s.windowSeconds } : null;
  };
  return {
    class: limit.class,
    description: spec.description,
    per_user: budget(spec.perUser),
    per_address: budget(spec.perAddress),
    shared_across_instances: spec.countedIn === 'database',
  };
}
