import type { PushOutcome, PushSender } from './push-sender.ts';
import { isWebPushToken } from './web-push-subscription.ts';

/**
 * Sends each message through the sender that can reach its token: Web Push subscriptions (the web app) through
 * `webPush`, every other token (APNs/FCM registration tokens of the native apps) through `fcm`. A token no
 * configured sender can reach fails, and stays registered for when one is configured.
 */
export function createPushRouter(senders: {
  readonly fcm: PushSender | null;
  readonly webPush: PushSender | null;
}): PushSender {
  return {
    kind: 'routed',
    async send(messages) {
      const outcomes: PushOutcome[] = messages.map(() => 'failed');
      const groups = [
        { sender: senders.webPush, indexes: [] as number[] },
        { sender: senders.fcm, indexes: [] as number[] },
      ] as const;
      for (const [i, m] of messages.entries()) groups[isWebPushToken(m.token) ? 0 : 1].indexes.push(i);
      await Promise.all(
        groups.map(async ({ sender, indexes }) => {
          if (!sender || indexes.length === 0) return;
          const sent = await sender.send(indexes.map((i) => messages[i]!));
          for (const [j, messageIndex] of indexes.entries()) outcomes[messageIndex] = sent[j] ?? 'failed';
        }),
      );
      return outcomes;
    },
  };
}
