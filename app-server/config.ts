import { z } from 'zod';

/**
 * The whole runtime configuration, read once from the environment at start-up.
 * Every variable is optional so that `npm start` works on a fresh machine: the embedded PGlite database and the
 * local development adapters stand in until a real service is configured.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(1).max(65_535).default(3001),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL server; when unset the embedded PGlite database under DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /** Where the embedded database keeps its files. */
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Optional KurrentDB / EventStoreDB connection string (kurrentdb:// or esdb://) for the alternative event store. */
  EVENTSTORE_URL: z
    .string()
    .regex(/^(kurrentdb|kdb|esdb|esdb\+discover|kurrentdb\+discover):\/\//, {
      message: 'must be a kurrentdb:// or esdb:// connection string',
    })
    .optional(),
  /** The public address of this API, used in e-mailed links. */
  PUBLIC_URL: z.string().url({ message: 'must be a URL' }).default('http://localhost:3001'),
  /** The web app's address, where auth redirects land. */
  APP_URL: z.string().url({ message: 'must be a URL' }).default('http://localhost:5173'),
  /** Run projections and process managers inside the API process (one-box deployments and tests). */
  RUN_WORKERS: booleanFlag.default(true),
  SENTRY_DSN: z.string().url({ message: 'must be a URL' }).optional(),
});

export type Config = z.infer<typeof configSchema>;

/** A configuration problem, naming every variable at fault so an operator can fix them in one go. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Parses the environment; throws a ConfigError naming each invalid or missing variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set": shells and compose files often export VAR= for optional settings.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = configSchema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
}
