import { hash, verify } from '@node-rs/argon2';

/** Hashes and checks passwords. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Whether `password` matches `hashed`. With no hash (an unknown account, or one without a password) it checks
   * against a dummy hash and answers false: the same call and the same Argon2 work on both paths, so neither the
   * time taken nor the work done tells which e-mails exist.
   */
  verify(hashed: string | null, password: string): Promise<boolean>;
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
      dummy ??= hash('not-a-real-password', options);
      const against = hashed ?? (await dummy);
      const matches = await verify(against, password).catch(() => false);
      return hashed !== null && matches;
    },
  };
}
