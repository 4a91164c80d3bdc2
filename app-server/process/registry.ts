import type { ProcessManager } from './process-manager.ts';

/** Every process manager the workers run (settlement, holds, goal activation, reminders, awards…). */
export const allProcessManagers: readonly ProcessManager[] = [];
