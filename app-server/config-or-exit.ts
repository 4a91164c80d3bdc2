import { type Config, ConfigError, loadConfig } from './config.ts';

/**
 * The configuration for a process entry point (API, worker): a problem with it stops the process with exit code 2
 * and a message naming each variable at fault, rather than a stack trace.
 */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
