/** A mail to send: plain text (links are written out in full so the development mailbox can list them). */
export type Mail = { readonly to: string; readonly subject: string; readonly text: string };

/** The mail port: the auth service sends through it without knowing how mail leaves the server. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Every http(s) or app-scheme link in a text, in order of appearance. */
export function extractLinks(text: string): string[] {
  return [...text.matchAll(/\b(?:https?|stridestake):\/\/[^\s<>"']+/g)].map((m) => m[0]);
}
