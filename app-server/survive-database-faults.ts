import type { Logger } from 'pino';
import { isTransientDatabaseError } from '../projections/transient-error.ts';

/**
 * Last line of defence for a long-running process (API, worker): a promise rejected by a lost database connection
 * that no code awaited must not end the process, as Node does by default for an unhandled rejection. Every client
 * and listener handles its own faults; this only catches what slipped through, logs it, and keeps serving. Any other
 * unhandled rejection is a bug and still ends the process (after logging it), so it cannot go unnoticed.
 */
export function surviveDatabaseFaults(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    if (isTransientDatabaseError(reason)) {
      logger.warn({ err: reason }, 'unhandled rejection from a lost database connection (survived)');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
}
