// The key store: SAML and JWT signing keys created once in DATA_DIR/keys and loaded after, or
// taken from configuration (PEM text or a file), and refused when they are not fit for the job.
import { generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  generateSigningKeys,
  loadSigningKeys,
  SigningKeyError,
  type SigningKeyConfig,
} from '../../src/server/adapters/signing-keys';
import { ConfigError, loadConfig } from '../../src/server/config';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'keys-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function config(dataDir: string, extra: Partial<SigningKeyConfig> = {}): SigningKeyConfig {
  return {
    dataDir,
    publicUrl: 'https://portal.example.com',
    samlSigningKey: null,
    samlSigningCertificate: null,
    jwtSigningKey: null,
    ...extra,
  };
}

describe('signing keys', () => {
  it('creates both keys in DATA_DIR/keys on first start, readable by the owner only, and loads them after', async () => {
    const dataDir = tempDir();
    const first = await loadSigningKeys(config(dataDir));
    for (const file of ['saml-signing.pem', 'jwt-signing.pem']) {
      expect(statSync(path.join(dataDir, 'keys', file)).mode & 0o777).toBe(0o600);
    }
    const second = await loadSigningKeys(config(dataDir));
    expect(second.saml.certificatePem).toBe(first.saml.certificatePem);
    expect(second.jwt.kid).toBe(first.jwt.kid);
    expect(second.saml.privateKey.equals(first.saml.privateKey)).toBe(true);
  });

  it('makes a self-signed RSA certificate of 3072 bits, SHA-256, valid now and for years', async () => {
    const keys = await loadSigningKeys(config(tempDir()));
    const certificate = new X509Certificate(keys.saml.certificatePem);
    expect(certificate.subject).toBe('CN=portal.example.com SAML signing');
    expect(certificate.issuer).toBe(certificate.subject);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    expect(certificate.checkPrivateKey(keys.saml.privateKey)).toBe(true);
    expect(Date.parse(certificate.validFrom)).toBeLessThan(Date.now());
    expect(Date.parse(certificate.validTo) - Date.now()).toBeGreaterThan(9 * 365 * 24 * 3600_000);
    // sha256WithRSAEncryption (1.2.840.113549.1.1.11) signs it; no SHA-1 anywhere.
    expect(certificate.raw.includes(Buffer.from('06092a864886f70d01010b', 'hex'))).toBe(true);
    expect(certificate.raw.includes(Buffer.from('06092a864886f70d010105', 'hex'))).toBe(false);
    expect(keys.saml.certificateBase64).toBe(certificate.raw.toString('base64'));
    expect(keys.jwt.publicJwk).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      use: 'sig',
      kid: keys.jwt.kid,
    });
    expect(keys.jwt.publicJwk).not.toHaveProperty('d');
  });

  it('agrees on one key when two instances start at once on one data folder', async () => {
    const dataDir = tempDir();
    const [a, b] = await Promise.all([loadSigningKeys(config(dataDir)), loadSigningKeys(config(dataDir))]);
    expect(a.saml.certificatePem).toBe(b.saml.certificatePem);
    expect(a.jwt.kid).toBe(b.jwt.kid);
    const onDisk = readFileSync(path.join(dataDir, 'keys', 'saml-signing.pem'), 'utf8');
    expect(onDisk).toContain(a.saml.certificatePem.trim());
  });

  it('takes configured keys as PEM text or as file paths, and writes nothing then', async () => {
    const source = await generateSigningKeys();
    const samlKey = source.saml.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const jwtKey = source.jwt.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const dataDir = tempDir();
    const fromText = await loadSigningKeys(
      config(dataDir, {
        samlSigningKey: samlKey,
        samlSigningCertificate: source.saml.certificatePem,
        // One-line environment values carry newlines as \n.
        jwtSigningKey: jwtKey.replace(/\n/g, '\\n'),
      }),
    );
    expect(fromText.saml.certificatePem).toBe(source.saml.certificatePem);
    expect(fromText.jwt.kid).toBe(source.jwt.kid);
    const files = tempDir();
    writeFileSync(path.join(files, 'saml.key'), samlKey);
    writeFileSync(path.join(files, 'saml.crt'), source.saml.certificatePem);
    writeFileSync(path.join(files, 'jwt.key'), jwtKey);
    const fromFiles = await loadSigningKeys(
      config(dataDir, {
        samlSigningKey: path.join(files, 'saml.key'),
        samlSigningCertificate: path.join(files, 'saml.crt'),
        jwtSigningKey: path.join(files, 'jwt.key'),
      }),
    );
    expect(fromFiles.saml.certificatePem).toBe(source.saml.certificatePem);
    expect(fromFiles.jwt.kid).toBe(source.jwt.kid);
    expect(() => statSync(path.join(dataDir, 'keys'))).toThrow();
  });

  it('refuses keys unfit for the job', async () => {
    const other = await generateSigningKeys();
    const mine = await generateSigningKeys();
    const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const dataDir = tempDir();
    const attempt = (extra: Partial<SigningKeyConfig>) => loadSigningKeys(config(dataDir, extra));

    await expect(
      attempt({
        samlSigningKey: pem(mine.saml.privateKey),
        samlSigningCertificate: other.saml.certificatePem,
      }),
    ).rejects.toThrow('the SAML signing certificate does not belong to the key');
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    await expect(
      attempt({ samlSigningKey: pem(small), samlSigningCertificate: mine.saml.certificatePem }),
    ).rejects.toThrow('must be an RSA key of 2048 bits or more');
    await expect(
      attempt({ samlSigningKey: pem(mine.saml.privateKey), samlSigningCertificate: 'no certificate here' }),
    ).rejects.toThrow(SigningKeyError);
    await expect(attempt({ jwtSigningKey: pem(mine.saml.privateKey) })).rejects.toThrow(
      'must be an EC P-256 key (ES256)',
    );
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    await expect(attempt({ jwtSigningKey: pem(p384) })).rejects.toThrow('must be an EC P-256 key (ES256)');
    await expect(attempt({ jwtSigningKey: path.join(dataDir, 'missing.pem') })).rejects.toThrow(
      /JWT_SIGNING_KEY: cannot read .*missing\.pem \(ENOENT\)/,
    );
  });

  it('requires SAML_SIGNING_KEY and SAML_SIGNING_CERTIFICATE together', () => {
    expect(() => loadConfig({ SAML_SIGNING_KEY: '/keys/saml.key' })).toThrow(ConfigError);
    expect(() => loadConfig({ SAML_SIGNING_CERTIFICATE: '/keys/saml.crt' })).toThrow(
      'SAML_SIGNING_KEY and SAML_SIGNING_CERTIFICATE must be set together',
    );
    const both = loadConfig({
      SAML_SIGNING_KEY: '/k',
      SAML_SIGNING_CERTIFICATE: '/c',
      JWT_SIGNING_KEY: '/j',
    });
    expect(both).toMatchObject({ samlSigningKey: '/k', samlSigningCertificate: '/c', jwtSigningKey: '/j' });
  });

  it('puts the TREASURY demo on the other loopback name and the next port, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ demoSpPort: 8081, demoSpUrl: 'http://127.0.0.1:8081' });
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:9000', PORT: '9000' })).toMatchObject({
      demoSpPort: 9001,
      demoSpUrl: 'http://localhost:9001',
    });
    expect(loadConfig({ PORT: '0' })).toMatchObject({ demoSpPort: 0, demoSpUrl: null });
    expect(
      loadConfig({ DEMO_SP_PORT: '7000', DEMO_SP_URL: 'https://treasury.example.com/path' }),
    ).toMatchObject({ demoSpPort: 7000, demoSpUrl: 'https://treasury.example.com' });
    expect(() => loadConfig({ DEMO_SP_PORT: 'x' })).toThrow('DEMO_SP_PORT must be a whole number');
    expect(() => loadConfig({ DEMO_SP_URL: 'ftp://x' })).toThrow('DEMO_SP_URL must be http or https');
  });
});
