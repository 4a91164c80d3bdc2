import { hash, verify } from '@node-rs/argon2';

/** Hashes and checks passwords. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
  /** Spends the same time as a real check, for unknown accounts (no timing oracle on which e-mails exist). */
  verifyDummy(password: string): Promise<void>;
}

// FACTS.md / OWASP: Argon2id, 19 MiB, 2 iterations, parallelism 1. `2` is Algorithm.Argon2id (a const enum that
// isolatedModules cannot read from the .d.ts).
const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The Argon2id hasher at the FACTS.md parameters. */
export function createArgon2Hasher(): PasswordHasher {
  let dummy: Promise<string> | null = null;
  return {
    hash: (password) => hash(password, options),
    async verify(hashed, password) {
      try {
        return await verify(hashed, password);
      } catch {
        return false;
      }
    },
    async verifyDummy(password) {
      dummy ??= hash('not-a-real-password', options);
      await verify(await dummy, password).catch(() => false);
    },
  };
}
