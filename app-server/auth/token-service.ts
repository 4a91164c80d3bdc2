import { BoundedMap } from '../bounded-map.ts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.ts';
import { authErrors } from './auth-error.ts';
import { type KeyStore, SIGNING_ALG } from './key-store.ts';

/** What an access token says: who, for which session, at which assurance level, until when. */
export type AccessClaims = {
  sub: string;
  aud: string;
  iss: string;
  exp: number;
  iat: number;
  email: string;
  phone: string;
  role: 'authenticated';
  aal: 'aal1' | 'aal2';
  amr: { method: string; timestamp: number }[];
  session_id: string;
  is_anonymous: false;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
};

/** Issues and verifies access tokens (JWT, ES256, with kid/aud/iss/exp). */
export interface TokenService {
  issue(claims: Omit<AccessClaims, 'aud' | 'iss' | 'exp' | 'iat' | 'role' | 'is_anonymous' | 'phone'>): Promise<{
    token: string;
    expiresAt: number;
    expiresIn: number;
  }>;
  /** The verified claims; throws the client's bad_jwt error for anything else. */
  verify(token: string): Promise<AccessClaims>;
}

export interface TokenServiceOptions {
  readonly keys: KeyStore;
  readonly clock: Clock;
  readonly issuer: string;
  readonly audience: string;
  readonly ttlSeconds: number;
  /** How many verified tokens to remember (0: verify every time). */
  readonly verifiedCacheSize?: number;
}

/**
 * Verified tokens remembered, so a client's every request does not pay an ECDSA verification. Safe to keep: what
 * a signature proves never changes, and a hit re-checks what can (the expiry, and that the signing key is still
 * published). Revocation is not decided here: the caller checks the session in the database on every request.
 */
class VerifiedTokens {
  // First in, first out: a hit does not keep a token longer.
  readonly #entries: BoundedMap<string, { claims: AccessClaims; kid: string }>;

  constructor(capacity: number) {
    this.#entries = new BoundedMap(capacity);
  }

  get(token: string): { claims: AccessClaims; kid: string } | undefined {
    return this.#entries.get(token);
  }

  remember(token: string, claims: AccessClaims, kid: string): void {
    this.#entries.set(token, { claims, kid });
  }

  forget(token: string): void {
    this.#entries.delete(token);
  }
}

/** A TokenService signing with the store's current key and verifying only against published keys. */
export function createTokenService(options: TokenServiceOptions): TokenService {
  const verified = new VerifiedTokens(options.verifiedCacheSize ?? 10_000);

  /** The remembered claims if they still hold now (as jwtVerify would judge them), else null. */
  async function stillValid(token: string): Promise<AccessClaims | null> {
    const hit = verified.get(token);
    if (!hit) return null;
    const nowSeconds = Math.floor(options.clock.now().getTime() / 1000);
    if (hit.claims.exp <= nowSeconds) {
      verified.forget(token);
      throw authErrors.badJwt('token has invalid claims: token is expired');
    }
    if (!(await options.keys.publicKey(hit.kid))) {
      verified.forget(token);
      throw authErrors.badJwt('signing key not found');
    }
    return hit.claims;
  }

  return {
    async issue(claims) {
      const { kid, privateKey } = await options.keys.current();
      const iat = Math.floor(options.clock.now().getTime() / 1000);
      const exp = iat + options.ttlSeconds;
      const token = await new SignJWT({ ...claims, phone: '', role: 'authenticated', is_anonymous: false })
        .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(privateKey);
      return { token, expiresAt: exp, expiresIn: options.ttlSeconds };
    },
    async verify(token) {
      const remembered = await stillValid(token);
      if (remembered) return remembered;
      try {
        const { payload, protectedHeader } = await jwtVerify(
          token,
          async (header) => {
            // The key comes from our store by kid, never from the token (no jwk/jku/x5u headers honoured).
            const key = header.kid ? await options.keys.publicKey(header.kid) : null;
            if (!key) throw authErrors.badJwt('signing key not found');
            return key;
          },
          {
            algorithms: [SIGNING_ALG],
            issuer: options.issuer,
            audience: options.audience,
            currentDate: options.clock.now(),
            requiredClaims: ['exp', 'iat', 'sub', 'session_id'],
          },
        );
        const claims = payload as unknown as AccessClaims;
        if (protectedHeader.kid) verified.remember(token, claims, protectedHeader.kid);
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired)
          throw authErrors.badJwt('token has invalid claims: token is expired');
        if (error instanceof joseErrors.JOSEError) throw authErrors.badJwt(error.message);
        if (error instanceof Error && error.name === 'AuthApiError') throw error;
        throw authErrors.badJwt('token is malformed');
      }
    },
  };
}
