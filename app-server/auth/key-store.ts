import { randomUUID } from 'node:crypto';
import { type CryptoKey, type JWK, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { SecretBox } from './secrets.ts';
import type { AuthTables } from './tables.ts';

/** The one signing algorithm: fixed here, never read from a token (FACTS.md, JWT allow-list). */
export const SIGNING_ALG = 'ES256';

/** Signing keys in the database, shared by every API instance and kept across restarts. */
export interface KeyStore {
  /** The key new tokens are signed with; makes one when there is none or the current one is due for rotation. */
  current(): Promise<{ kid: string; privateKey: CryptoKey }>;
  /** The public key for a kid, if it is still published; null for unknown or withdrawn keys. */
  publicKey(kid: string): Promise<CryptoKey | null>;
  /** The published public keys (current and recently retired). */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Makes a new current key now; the previous one stays published until its tokens have expired. */
  rotate(): Promise<string>;
}

export interface KeyStoreOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly box: SecretBox;
  readonly rotateAfterDays: number;
  /** How long a retired key stays published: the access-token lifetime plus a margin. */
  readonly publishRetiredForSeconds: number;
}

type LoadedKey = { kid: string; createdAt: Date; retiredAt: Date | null; publicJwk: JWK; privateSealed: string };

/** A KeyStore over the auth_signing_keys table; private keys are sealed with the SecretBox. */
export function createKeyStore(options: KeyStoreOptions): KeyStore {
  const db = options.db.withTables<AuthTables>();
  let cache: LoadedKey[] | null = null;
  const privateKeys = new Map<string, CryptoKey>();
  const publicKeys = new Map<string, CryptoKey>();

  async function load(): Promise<LoadedKey[]> {
    const rows = await db.selectFrom('auth_signing_keys').selectAll().orderBy('created_at', 'desc').execute();
    cache = rows.map((r) => ({
      kid: r.kid,
      createdAt: new Date(r.created_at),
      retiredAt: r.retired_at ? new Date(r.retired_at) : null,
      publicJwk: r.public_jwk as JWK,
      privateSealed: r.private_key_enc,
    }));
    return cache;
  }

  function published(keys: LoadedKey[]): LoadedKey[] {
    const now = options.clock.now().getTime();
    return keys.filter((k) => !k.retiredAt || k.retiredAt.getTime() + options.publishRetiredForSeconds * 1000 > now);
  }

  async function create(): Promise<string> {
    const now = options.clock.now();
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: 'sig', key_ops: ['verify'] };
    const privateJwk = await exportJWK(privateKey);
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('auth_signing_keys').set({ retired_at: now }).where('retired_at', 'is', null).execute();
      await tx
        .insertInto('auth_signing_keys')
        .values({
          kid,
          alg: SIGNING_ALG,
          public_jwk: JSON.stringify(publicJwk),
          private_key_enc: options.box.seal(JSON.stringify(privateJwk)),
          created_at: now,
        })
        .execute();
    });
    cache = null;
    return kid;
  }

  async function current() {
    const keys = cache ?? (await load());
    let active = keys.find((k) => !k.retiredAt);
    const maxAgeMs = options.rotateAfterDays * 86_400_000;
    if (!active || options.clock.now().getTime() - active.createdAt.getTime() > maxAgeMs) {
      await create();
      active = (await load()).find((k) => !k.retiredAt)!;
    }
    let privateKey = privateKeys.get(active.kid);
    if (!privateKey) {
      privateKey = (await importJWK(JSON.parse(options.box.open(active.privateSealed)), SIGNING_ALG)) as CryptoKey;
      privateKeys.set(active.kid, privateKey);
    }
    return { kid: active.kid, privateKey };
  }

  return {
    current,
    async publicKey(kid) {
      let key = published(cache ?? (await load())).find((k) => k.kid === kid);
      // Another instance may have rotated since we last looked.
      if (!key) key = published(await load()).find((k) => k.kid === kid);
      if (!key) return null;
      let imported = publicKeys.get(kid);
      if (!imported) {
        imported = (await importJWK(key.publicJwk, SIGNING_ALG)) as CryptoKey;
        publicKeys.set(kid, imported);
      }
      return imported;
    },
    async jwks() {
      await current();
      return { keys: published(await load()).map((k) => k.publicJwk) };
    },
    rotate: create,
  };
}
