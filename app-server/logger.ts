import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

/** JSON logs to stdout (one line per event), quiet in tests unless LOG_LEVEL says otherwise. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: { service: 'stridestake-api' },
    redact: { paths: ['req.headers.authorization', '*.password', '*.refresh_token', '*.access_token'], remove: true },
  });
}
