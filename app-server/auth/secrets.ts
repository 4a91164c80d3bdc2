import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants as zlib, inflateRawSync } from 'node:zlib';

const brotliCompressInPool = promisify(brotliCompress);

/** A URL-safe random secret with 256 bits of entropy (refresh tokens, e-mailed link tokens, auth codes). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A 6-digit code for e-mail OTPs and reauthentication nonces. */
export function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** SHA-256 in hex: secrets are stored only as their hash, so a leaked table yields no usable token. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares two strings in time independent of where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Encrypts small secrets at rest (signing keys, TOTP secrets) with AES-256-GCM. */
export interface SecretBox {
  seal(plaintext: string): string;
  /**
   * `seal`, the same output, with the compression of a long plaintext done on libuv's thread pool: a track sealed on
   * POST /runs no longer holds the API's one JavaScript thread for its brotli pass (about 150 µs a run).
   */
  sealAsync(plaintext: string | Uint8Array): Promise<string>;
  open(sealed: string): string;
  /** What `open` reads, as the bytes sealed (for a plaintext that is not text: privacy/personal-value.ts). */
  openBytes(sealed: string): Buffer;
}

// Development only (config refuses production without AUTH_ENCRYPTION_KEY): lets `npm start` work with no setup.
const DEVELOPMENT_SECRET = 'stridestake-development-only-secret-do-not-use-in-production';

/**
 * Plaintexts at least this long are compressed before they are encrypted (`v3`). A GPS track (kilobytes of JSON
 * numbers) shrinks about five times, and with it every write, read and copy of the event that holds it. Short
 * secrets are left as they are (`v1`). Compressing first lets the ciphertext's length say how compressible the
 * plaintext was; for tracks at rest, read only by their owner, that says nothing an attacker could use.
 */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Brotli at quality 1: on a run's track (540 fixes, 57 KB of JSON) it took 155 µs where raw deflate at level 3 took
 * 335 µs, and the result was 12% smaller (docs/PERFORMANCE.md). Sealing a track is on every POST /runs.
 */
const BROTLI_FAST = { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } };

/**
 * A SecretBox keyed by SHA-256 of the configured secret (AES-256-GCM); output is `v1.<iv>.<tag>.<ciphertext>` in
 * base64url, or `v3.…` when the plaintext was compressed with brotli first. `v2.…` (raw deflate, sealed before
 * 2026-11-28) still opens, as every version does.
 */
export function createSecretBox(secret: string | undefined): SecretBox {
  const key = createHash('sha256')
    .update(secret ?? DEVELOPMENT_SECRET)
    .digest();
  /** `v1`/`v3`, iv, tag and ciphertext of `payload` (compressed already when `compressed`). */
  const encrypt = (payload: Uint8Array, compressed: boolean): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(payload), cipher.final()]);
    return [compressed ? 'v3' : 'v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  };
  /** The bytes a `v1`–`v3` sealed text holds. */
  const openBytes = (sealed: string): Buffer => {
    const [version, iv, tag, body] = sealed.split('.');
    if ((version !== 'v1' && version !== 'v2' && version !== 'v3') || !iv || !tag || body === undefined)
      throw new Error('Unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const opened = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    return version === 'v3' ? brotliDecompressSync(opened) : version === 'v2' ? inflateRawSync(opened) : opened;
  };
  return {
    seal(plaintext) {
      const bytes = Buffer.from(plaintext, 'utf8');
      const compress = bytes.length >= COMPRESS_FROM_BYTES;
      return encrypt(compress ? brotliCompressSync(bytes, BROTLI_FAST) : bytes, compress);
    },
    async sealAsync(plaintext) {
      const bytes = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
      if (bytes.length < COMPRESS_FROM_BYTES) return encrypt(bytes, false);
      return encrypt(await brotliCompressInPool(bytes, BROTLI_FAST), true);
    },
    open: (sealed) => openBytes(sealed).toString('utf8'),
    openBytes,
  };
}
