import { api } from '../../../lib/api.ts';
import { platform } from '../../../lib/platform/index.ts';
import type { ConnectionHandOver } from '../connection-return.ts';

/**
 * GET /api/integrations/auth/{provider}/start: the provider's OAuth address, which the app then leaves for (§4).
 * A refusal throws the server's reason (the second service answers that it is not implemented, §1).
 */
export async function startConnection(provider: string): Promise<string> {
  // The shell asks for the hand-over by deep link: the provider's page opens in the system browser, not the app.
  const returnTo = platform().shell.connectionReturn;
  const { authUrl } = await api<{ authUrl?: string }>(
    `/api/integrations/auth/${encodeURIComponent(provider)}/start?return=${returnTo}`,
  );
  if (!authUrl) throw new Error(`Failed to connect to ${provider}`);
  return authUrl;
}

/**
 * POST /api/integrations/auth/{provider}/complete: the code and state the callback handed over, sent with this
 * session's token. The API links the account only when this very session started the round trip (once, within 10
 * minutes); a refusal throws an ApiError whose `code` is the return error to show (invalid_state, access_denied…).
 */
export async function completeConnection(handOver: ConnectionHandOver): Promise<void> {
  const { provider, ...body } = handOver;
  await api<unknown>(`/api/integrations/auth/${encodeURIComponent(provider)}/complete`, { method: 'POST', body });
}
