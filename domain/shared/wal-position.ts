/*
 * A PostgreSQL WAL position (`16/B374D848`), the token of read-your-writes across a primary and its streaming replica
 * (app-server/db/read-replica.ts): a write's answer names the primary's position after it, the client sends it back on
 * its reads. Shared by the server, which compares it with the replica's replay, and the web app, which keeps the
 * latest one it was given. Parsed exactly and compared as a number ('9/0' < '10/0', which text comparison gets wrong).
 */

/** A WAL position as one comparable number: high 32 bits, then low 32 bits. */
export type WalPosition = bigint;

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** Parses PostgreSQL's text form of a WAL position exactly; null for anything else. */
export function parseWalPosition(text: string): WalPosition | null {
  const match = LSN.exec(text);
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** PostgreSQL's text form of a WAL position. */
export function formatWalPosition(position: WalPosition): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}
