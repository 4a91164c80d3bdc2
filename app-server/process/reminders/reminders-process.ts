import { Temporal } from 'temporal-polyfill';
import type { PushSender } from '../../adapters/push/push-sender.ts';
import { deliverNotification, retryPendingPushes } from '../../commands/notifications/deliver.ts';
import type { ProcessManager } from '../process-manager.ts';
import { loadReminderInputs } from './reminder-inputs.ts';
import { isDue, planReminders } from './reminder-plan.ts';

/**
 * Goal reminders (§9 Notification defaults) on every clock tick. Each due reminder is delivered under its
 * deterministic id (user + type + goal or week): the notification row is inserted before the push and only by the
 * call that inserted it, so a repeated tick, a restart or a second worker never sends it twice. Ticks run under
 * the host's advisory lock (one worker at a time on PostgreSQL).
 */
export function createRemindersProcess(deps: { readonly push: PushSender }): ProcessManager {
  return {
    name: 'reminders',
    async tick({ db, now }) {
      await retryPendingPushes(db, deps.push, now);
      const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
      for (const input of await loadReminderInputs(db, now)) {
        for (const plan of planReminders(input, instant)) {
          if (!isDue(plan, instant)) continue;
          const { dueAt: _due, windowEnd: _end, ...notification } = plan;
          await deliverNotification(db, deps.push, notification, now);
        }
      }
    },
  };
}
