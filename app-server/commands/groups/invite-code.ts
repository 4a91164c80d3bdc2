import { randomInt } from 'node:crypto';

// No 0/O, 1/I/L: a code read aloud or copied by hand is not mistyped. 31^8 ≈ 8.5e11 codes, drawn with a CSPRNG.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** How long an issued invite code works (§3 invite_expires_at); the owner rotates it for a fresh one. */
export const INVITE_CODE_TTL_DAYS = 14;

/** An unguessable 8-character invite code. */
export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** When a code issued at `now` stops working. */
export function inviteExpiry(now: Date): string {
  return new Date(now.getTime() + INVITE_CODE_TTL_DAYS * 86_400_000).toISOString();
}
