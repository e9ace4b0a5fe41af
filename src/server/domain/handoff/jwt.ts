// The JWT handed to a framed application (context type JWT): ES256, signed with the key store's
// key, its kid the key's thumbprint so the app finds it at /.well-known/jwks.json.
//
// Claims: iss = PUBLIC_URL, aud = the app's code, sub = the identity's id (stable: a username can
// change when duplicate accounts are merged, the id never does), iat, nbf, exp a few minutes
// ahead, jti unique per token, plus username, name and email for display.
import { SignJWT } from 'jose';
import type { JwtSigningKey } from '../../adapters/signing-keys';

/** How long a handed-off token is valid: long enough to reach the app, short enough not to matter. */
export const JWT_LIFETIME_SECONDS = 5 * 60;

export interface JwtInput {
  key: JwtSigningKey;
  issuer: string;
  audience: string;
  subject: string;
  jti: string;
  now: Date;
  claims: { username: string; name: string; email: string | null };
}

export async function issueHandoffJwt(input: JwtInput): Promise<string> {
  const iat = Math.floor(input.now.getTime() / 1000);
  return new SignJWT({ ...input.claims })
    .setProtectedHeader({ alg: 'ES256', kid: input.key.kid, typ: 'JWT' })
    .setIssuer(input.issuer)
    .setAudience(input.audience)
    .setSubject(input.subject)
    .setJti(input.jti)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + JWT_LIFETIME_SECONDS)
    .sign(input.key.privateKey);
}

/** The JSON Web Key Set of /.well-known/jwks.json. */
export function jwks(key: JwtSigningKey): { keys: object[] } {
  return { keys: [key.publicJwk] };
}
