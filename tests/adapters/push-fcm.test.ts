import { describe, expect, it } from 'vitest';
import { createFcmPushSender, type FcmMessagingClient } from '../../app-server/adapters/push/fcm-push-sender.ts';
import { createPushSender } from '../../app-server/adapters/push/create-push-sender.ts';

type Sent = Parameters<FcmMessagingClient['sendEach']>[0];

/** A stand-in for firebase-admin's Messaging: answers per token as FCM would. */
function fakeMessaging(answers: Record<string, string | null>, calls: Sent[]): FcmMessagingClient {
  return {
    async sendEach(messages) {
      calls.push(messages);
      const responses = messages.map((m) => {
        const code = answers[(m as { token: string }).token] ?? null;
        return code === null
          ? { success: true, messageId: `projects/p/messages/${(m as { token: string }).token}` }
          : { success: false, error: { code, message: code } };
      });
      return {
        responses,
        successCount: responses.filter((r) => r.success).length,
        failureCount: responses.filter((r) => !r.success).length,
      } as Awaited<ReturnType<FcmMessagingClient['sendEach']>>;
    },
  };
}

describe('FCM push sender', () => {
  it('sends title, body and string data per token and maps dead tokens', async () => {
    const calls: Sent[] = [];
    const sender = createFcmPushSender(
      fakeMessaging(
        {
          dead: 'messaging/registration-token-not-registered',
          bad: 'messaging/invalid-registration-token',
          busy: 'messaging/internal-error',
        },
        calls,
      ),
    );
    const message = (token: string) => ({
      token,
      title: 'Hi',
      body: 'There',
      data: { url: '/goals', type: 'upcoming_goal' },
    });
    const outcomes = await sender.send(['ok', 'dead', 'bad', 'busy'].map(message));
    expect(outcomes).toEqual(['sent', 'invalid_token', 'invalid_token', 'failed']);
    expect(calls[0]?.[0]).toEqual({
      token: 'ok',
      notification: { title: 'Hi', body: 'There' },
      data: { url: '/goals', type: 'upcoming_goal' },
    });
  });

  it('batches by 500 and reports a failed call as failed, not thrown', async () => {
    const calls: Sent[] = [];
    const sender = createFcmPushSender(fakeMessaging({}, calls));
    const many = Array.from({ length: 501 }, (_, i) => ({ token: `t${i}`, title: 't', body: 'b', data: {} }));
    expect((await sender.send(many)).filter((o) => o === 'sent')).toHaveLength(501);
    expect(calls.map((c) => c.length)).toEqual([500, 1]);
    const broken = createFcmPushSender({
      sendEach: async () => {
        throw new Error('network down');
      },
    });
    expect(await broken.send([{ token: 'x', title: 't', body: 'b', data: {} }])).toEqual(['failed']);
  });

  it('is in-app only without a service account', () => {
    expect(createPushSender({ FIREBASE_SERVICE_ACCOUNT: undefined }).kind).toBe('in_app');
  });
});
