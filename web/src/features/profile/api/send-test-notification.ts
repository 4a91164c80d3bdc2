import { api } from '../../../lib/api.ts';

/** POST /notifications/test: a push to the user's own devices, to check that reminders arrive. */
export const sendTestNotification = () =>
  api<unknown>('/notifications/test', {
    method: 'POST',
    body: {
      title: 'StrideStake test',
      message: 'Notifications are working. See you on your next run!',
      type: 'upcoming_goal',
    },
  });
