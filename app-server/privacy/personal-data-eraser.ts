import type { ProcessManager } from '../process/process-manager.ts';
import type { PersonalKeyVault } from './key-vault.ts';

/**
 * Destroys a user's data key once their account's personal data is erased (the `PersonalDataErased` event of the
 * deletion flow), in the same transaction as its checkpoint: from then on their GPS tracks and notes read as null
 * everywhere, including in rebuilt read models and the auditor's replay.
 */
export function personalDataEraser(vault: PersonalKeyVault): ProcessManager {
  return {
    name: 'personal-data-eraser',
    eventTypes: ['PersonalDataErased'],
    async handle(events, { tx }) {
      for (const event of events) {
        if (event.type !== 'PersonalDataErased') continue;
        const userId = (event.data as { userId?: unknown }).userId;
        if (typeof userId === 'string') await vault.shred(userId, tx);
      }
    },
  };
}
