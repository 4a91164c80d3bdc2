import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
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
}

/** A TokenService signing with the store's current key and verifying only against published keys. */
export function createTokenService(options: TokenServiceOptions): TokenService {
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
      try {
        const { payload } = await jwtVerify(
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
        return payload as unknown as AccessClaims;
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
