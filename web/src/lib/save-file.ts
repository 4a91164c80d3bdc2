import { apiFile } from './api.ts';

/**
 * Saves a file the API answers (a run as GPX, the account's zip) under `name`: fetched with the session (a plain
 * link would carry no token), then handed to the browser as a download.
 */
export async function saveApiFile(path: string, name: string): Promise<void> {
  const blob = await apiFile(path);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
