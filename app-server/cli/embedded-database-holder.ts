import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The process holding the embedded database in `dataDir` (the pid file app-server/db/database.ts writes as it opens
 * PGlite), or null when none is alive: how an operator command knows `npm start` is running on that database.
 */
export function embeddedDatabaseHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, 'stridestake.pid'), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
