/** Whether the device may show push notifications; 'unsupported' where the platform has no push (the web app). */
export type PushPermission = 'granted' | 'denied' | 'prompt' | 'unsupported';

/** A device's push token and the platform the server sends it through (POST /notifications/register, §7). */
export interface PushRegistration {
  readonly token: string;
  readonly platform: 'ios' | 'android' | 'web';
}

/** The data a tapped notification carries: its type and what the route needs (groupId), as strings. */
export type NotificationData = Readonly<Record<string, string>>;

/**
 * The push capability the web app owns (capacitor-plugins style): the web implementation (Web Push, web-push.ts) and
 * the native one in native/src, chosen by the platform factory. The in-app notifications work without either.
 */
export interface PushMessaging {
  /** The current permission, without asking. */
  checkPermission(): Promise<PushPermission>;
  /** Asks the user (once per install on iOS; Android 13+ shows its dialog). */
  requestPermission(): Promise<PushPermission>;
  /** Registers with APNs/FCM and resolves the device token; rejects when the platform refuses. */
  register(): Promise<PushRegistration>;
  /** Calls the handler with each tapped notification's data; returns a function that stops listening. */
  onNotificationTap(handler: (data: NotificationData) => void): () => void;
}
