import { readdirSync, readFileSync } from 'node:fs';

// CPU time of processes from /proc (Linux): what a bench measures when the machine's speed moves from one run to the
// next and the CPU a piece of work costs moves much less.

export const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** utime and stime of a process, in clock ticks. */
export function cpuTicksOf(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]), system: Number(fields[12]) };
  } catch {
    return { user: 0, system: 0 };
  }
}

/**
 * Read and write system calls a process made so far (`syscr`, `syscw` in /proc/<pid>/io; zeros where it cannot be
 * read). On these virtual machines a socket write costs tens of microseconds of kernel time, and each statement sent
 * to PostgreSQL is one, as is each answer: a change that saves round trips shows in the writes per request.
 */
export function syscallsOf(pid: number): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? 0);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: 0, writes: 0 };
  }
}

/** utime and stime of every `postgres` process of this machine (the server and its backends), in clock ticks. */
export function postgresTicks(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') {
        const ticks = cpuTicksOf(Number(entry));
        total += ticks.user + ticks.system;
      }
    } catch {}
  }
  return total;
}
