/** One push to one device. `data` values are strings (FCM's data payload takes strings only). */
export interface PushMessage {
  readonly token: string;
  readonly title: string;
  readonly body: string;
  readonly data: Readonly<Record<string, string>>;
}

/** What became of one message: delivered to the push service, refused because the token is dead, or failed. */
export type PushOutcome = 'sent' | 'invalid_token' | 'failed';

/**
 * The push port. Delivery to devices is best-effort on top of the in-app notification row, which is the record;
 * a dead token is reported so the caller can forget it.
 */
export interface PushSender {
  /** 'in_app' sends nothing (no push service configured); 'routed' picks FCM or Web Push per token. */
  readonly kind: 'fcm' | 'web_push' | 'routed' | 'in_app';
  /** One outcome per message, in order. Never throws for a per-message failure. */
  send(messages: readonly PushMessage[]): Promise<PushOutcome[]>;
}

/** Development and tests without Firebase: nothing leaves the server; notifications are in-app only. */
export const inAppOnlyPushSender: PushSender = {
  kind: 'in_app',
  async send(messages) {
    return messages.map(() => 'failed' as const);
  },
};
