import { ConfigError } from '../config.ts';

/**
 * What operator commands (`npm run audit:stakes`, `surge`, `projections:*`) share: a problem the operator can act on
 * is printed as one sentence saying what to do, with a non-zero exit code, never as a stack trace. The usual one:
 * `npm start` holds the embedded PGlite database (one process at a time; its pid file names the holder), and the
 * command must wait until the server stops, or both must use a PostgreSQL server (DATABASE_URL).
 */

/** A failure the operator can fix: printed as its message alone. */
export class OperatorError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'OperatorError';
    this.exitCode = exitCode;
  }
}

/** Runs a command's `main` and sets the exit code: its own, 2 for a configuration problem, 1 for an OperatorError. */
export async function runOperatorCommand(main: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await main();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof OperatorError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = error instanceof OperatorError ? error.exitCode : 2;
      return;
    }
    throw error;
  }
}
