// The key store: the SAML identity provider's RSA key with its self-signed X.509 certificate, and
// the ES256 key that signs the JWTs handed to framed applications.
//
// Each key comes from configuration (SAML_SIGNING_KEY with SAML_SIGNING_CERTIFICATE, and
// JWT_SIGNING_KEY: PEM text or a file path) or, when none is configured, from DATA_DIR/keys, where
// it is created on first start. A created file is written in full under a temporary name and then
// linked into place, so two instances starting together never pair one's key with the other's
// certificate: the loser of the race reads the winner's file. Several instances that do not share
// DATA_DIR must be configured with the same keys. Key material is never logged.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  webcrypto,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import type * as X509 from '@peculiar/x509';
import type { Config } from '../config';

export interface SamlSigningKey {
  readonly privateKey: KeyObject;
  /** PEM of the self-signed (or configured) certificate. */
  readonly certificatePem: string;
  /** The certificate's DER in base64, as ds:X509Certificate and metadata carry it. */
  readonly certificateBase64: string;
}

export interface JwtSigningKey {
  readonly privateKey: KeyObject;
  /** RFC 7638 thumbprint of the public key: the JWT header's kid. */
  readonly kid: string;
  /** The public key as published at /.well-known/jwks.json. */
  readonly publicJwk: JWK;
}

export interface SigningKeys {
  readonly saml: SamlSigningKey;
  readonly jwt: JwtSigningKey;
}

export type SigningKeyConfig = Pick<
  Config,
  'dataDir' | 'publicUrl' | 'samlSigningKey' | 'samlSigningCertificate' | 'jwtSigningKey'
>;

const MIN_RSA_BITS = 2048;
const SAML_FILE = 'saml-signing.pem';
const JWT_FILE = 'jwt-signing.pem';
const CERTIFICATE_YEARS = 10;

export class SigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

/** The configured keys, or those in DATA_DIR/keys (created there when absent). */
export async function loadSigningKeys(config: SigningKeyConfig): Promise<SigningKeys> {
  const dir = path.join(config.dataDir, 'keys');
  const saml =
    config.samlSigningKey !== null
      ? samlKeyFrom(
          readPem(config.samlSigningKey, 'SAML_SIGNING_KEY'),
          readPem(config.samlSigningCertificate ?? '', 'SAML_SIGNING_CERTIFICATE'),
          'SAML_SIGNING_KEY',
        )
      : await storedSamlKey(dir, config.publicUrl);
  const jwt =
    config.jwtSigningKey !== null
      ? await jwtKeyFrom(readPem(config.jwtSigningKey, 'JWT_SIGNING_KEY'), 'JWT_SIGNING_KEY')
      : await storedJwtKey(dir);
  return { saml, jwt };
}

/** Fresh keys that are never written anywhere (tests, tools). */
export async function generateSigningKeys(publicUrl = 'http://localhost'): Promise<SigningKeys> {
  const saml = await newSamlKeyPem(publicUrl);
  return {
    saml: samlKeyFrom(saml, saml, 'generated key'),
    jwt: await jwtKeyFrom(newJwtKeyPem(), 'generated key'),
  };
}

/** A configured value is PEM text itself, or the path of a file that holds it. */
function readPem(value: string, variable: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  try {
    return readFileSync(value, 'utf8');
  } catch (error) {
    throw new SigningKeyError(
      `${variable}: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

function pemBlocks(text: string, label: string): string[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----[\\s\\S]+?-----END ${label}-----`, 'g');
  return text.match(pattern) ?? [];
}

function samlKeyFrom(keyText: string, certificateText: string, source: string): SamlSigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(keyText);
  } catch {
    throw new SigningKeyError(`${source}: not a PEM private key`);
  }
  const details = privateKey.asymmetricKeyDetails;
  if (privateKey.asymmetricKeyType !== 'rsa' || (details?.modulusLength ?? 0) < MIN_RSA_BITS) {
    throw new SigningKeyError(
      `${source}: the SAML signing key must be an RSA key of ${MIN_RSA_BITS} bits or more`,
    );
  }
  const [certificatePem] = pemBlocks(certificateText, 'CERTIFICATE');
  if (!certificatePem)
    throw new SigningKeyError(`${source}: no PEM certificate found for the SAML signing key`);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    throw new SigningKeyError(`${source}: the SAML signing certificate cannot be read`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new SigningKeyError(`${source}: the SAML signing certificate does not belong to the key`);
  }
  return {
    privateKey,
    certificatePem: certificate.toString(),
    certificateBase64: certificate.raw.toString('base64'),
  };
}

async function jwtKeyFrom(keyText: string, source: string): Promise<JwtSigningKey> {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(keyText);
  } catch {
    throw new SigningKeyError(`${source}: not a PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new SigningKeyError(`${source}: the JWT signing key must be an EC P-256 key (ES256)`);
  }
  const jwk = await exportJWK(createPublicKey(privateKey));
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  return { privateKey, kid, publicJwk: { ...jwk, kid, alg: 'ES256', use: 'sig' } };
}

async function storedSamlKey(dir: string, publicUrl: string): Promise<SamlSigningKey> {
  const file = path.join(dir, SAML_FILE);
  const text = await readOrCreate(file, () => newSamlKeyPem(publicUrl));
  return samlKeyFrom(text, text, file);
}

async function storedJwtKey(dir: string): Promise<JwtSigningKey> {
  const file = path.join(dir, JWT_FILE);
  return jwtKeyFrom(await readOrCreate(file, async () => newJwtKeyPem()), file);
}

async function readOrCreate(file: string, create: () => Promise<string>): Promise<string> {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const text = await create();
  const partial = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(partial, text, { mode: 0o600, flag: 'wx' });
  try {
    // link() fails when the name exists: whoever linked first wins, and everyone reads that file.
    linkSync(partial, file);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8');
  } finally {
    unlinkSync(partial);
  }
}

function newJwtKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

/** A new RSA key and a self-signed certificate for it, both PEM, in one text. */
async function newSamlKeyPem(publicUrl: string): Promise<string> {
  const x509 = await loadX509();
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    // 3072 bits: NIST's size for signatures that must stay trustworthy past 2030; made once.
    modulusLength: 3072,
  };
  const subtle = webcrypto.subtle;
  const keys = (await subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const host = new URL(publicUrl).host;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      // Positive 16-byte serial from the CSPRNG (RFC 5280: at most 20 octets, positive).
      serialNumber: '01' + randomBytes(15).toString('hex'),
      name: `CN=${escapeDnValue(`${host} SAML signing`)}`,
      notBefore: new Date(now - 24 * 3600_000),
      notAfter: new Date(now + CERTIFICATE_YEARS * 365 * 24 * 3600_000),
      signingAlgorithm: algorithm,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ],
    },
    webcrypto as unknown as Crypto,
  );
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();
  return `${keyPem}${certificate.toString('pem')}\n`;
}

function escapeDnValue(value: string): string {
  return value.replace(/[,+"\\<>;=#]/g, (c) => `\\${c}`);
}

/** SHA-256 fingerprint of a certificate (hex, colon-separated), for logs and the metadata page. */
export function certificateFingerprint(certificateBase64: string): string {
  return (
    createHash('sha256')
      .update(Buffer.from(certificateBase64, 'base64'))
      .digest('hex')
      .toUpperCase()
      .match(/../g) ?? []
  ).join(':');
}

type X509Module = typeof X509;

/**
 * @peculiar/x509 resolves its algorithms through tsyringe, which insists on the Reflect metadata
 * API at import time. The three functions tsyringe calls are provided here (only when nobody else
 * did), before the library is imported for the first time.
 */
async function loadX509(): Promise<X509Module> {
  installReflectMetadata();
  return import('@peculiar/x509');
}

function installReflectMetadata(): void {
  const reflect = Reflect as typeof Reflect & {
    getMetadata?: unknown;
    getOwnMetadata?: unknown;
    defineMetadata?: unknown;
  };
  if (typeof reflect.getMetadata === 'function') return;
  const store = new WeakMap<object, Map<unknown, unknown>>();
  const own = (target: object, key: unknown) => store.get(target)?.get(key);
  Object.assign(reflect, {
    defineMetadata(key: unknown, value: unknown, target: object) {
      let map = store.get(target);
      if (!map) store.set(target, (map = new Map()));
      map.set(key, value);
    },
    getOwnMetadata: (key: unknown, target: object) => own(target, key),
    getMetadata(key: unknown, target: object) {
      for (let t: object | null = target; t; t = Object.getPrototypeOf(t) as object | null) {
        const map = store.get(t);
        if (map?.has(key)) return map.get(key);
      }
      return undefined;
    },
  });
}
