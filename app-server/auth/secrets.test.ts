import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secrets.ts';

const box = createSecretBox('a test secret');

/** A value sealed the way every version before compression did (`v1`), to prove old rows still open. */
function sealV1(secret: string, plaintext: string): string {
  const key = createHash('sha256').update(secret).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** A value sealed as from the first compression until 2026-11-28 (`v2`: raw deflate), to prove those rows still open. */
function sealV2(secret: string, plaintext: string): string {
  const key = createHash('sha256').update(secret).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([
    cipher.update(deflateRawSync(Buffer.from(plaintext, 'utf8'), { level: 3 })),
    cipher.final(),
  ]);
  return ['v2', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** A GPS track as runs carry it: the JSON the protected event store seals. */
const track = (fixes: number) =>
  JSON.stringify(
    Array.from({ length: fixes }, (_, i) => ({
      latitude: 48.85 + i * 0.00003,
      longitude: 2.35 + i * 0.00002,
      timestamp: 1_795_677_224_650 + i * 3000,
      accuracy: 3 + (i % 5),
    })),
  );

describe('SecretBox', () => {
  it('opens whatever it sealed, short or long, any text (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ minLength: 1000, maxLength: 5000 })),
        (text) => {
          expect(box.open(box.seal(text))).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sealAsync seals as seal does: same version, same length, opened by open (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'grapheme' }),
          fc.string({ minLength: 1000, maxLength: 5000 }),
          fc.constant(track(600)),
        ),
        async (text) => {
          const sealed = await box.sealAsync(text);
          const bySync = box.seal(text);
          expect(sealed.slice(0, 3)).toBe(bySync.slice(0, 3));
          // The iv differs; the same compression gives a ciphertext of the same length.
          expect(sealed.length).toBe(bySync.length);
          expect(box.open(sealed)).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('compresses long plaintexts before encrypting them: a track seals at about a third of its JSON', () => {
    const json = track(600);
    const sealed = box.seal(json);
    expect(sealed.startsWith('v3.')).toBe(true);
    expect(sealed.length).toBeLessThan(json.length / 3);
    expect(box.open(sealed)).toBe(json);
    expect(box.seal('a short secret').startsWith('v1.')).toBe(true);
  });

  it('still opens values sealed before compression existed', () => {
    for (const text of ['a TOTP secret', track(600)]) expect(box.open(sealV1('a test secret', text))).toBe(text);
  });

  it('still opens values deflated before brotli (v2), any text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(track(600)), fc.string({ minLength: 1024, maxLength: 5000 })), (text) => {
        expect(box.open(sealV2('a test secret', text))).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a tampered value of either version, and another key', () => {
    for (const sealed of [box.seal('short'), box.seal(track(100)), sealV2('a test secret', track(100))]) {
      const [version, iv, tag, body] = sealed.split('.');
      const flipped = Buffer.from(body!, 'base64url');
      flipped[0]! ^= 1;
      expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
      expect(() => createSecretBox('another secret').open(sealed)).toThrow();
    }
  });
});
