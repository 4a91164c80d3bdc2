import { api } from '../../../lib/api.ts';

/**
 * GET /api/integrations/auth/{provider}/start: the provider's OAuth address, which the app then leaves for (§4).
 * A refusal throws the server's reason (the second service answers that it is not implemented, §1).
 */
export async function startConnection(provider: string): Promise<string> {
  const { authUrl } = await api<{ authUrl?: string }>(`/api/integrations/auth/${encodeURIComponent(provider)}/start`);
  if (!authUrl) throw new Error(`Failed to connect to ${provider}`);
  return authUrl;
}
