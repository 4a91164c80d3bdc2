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
