// TOTP against RFC 6238's own test vectors (appendix B) and RFC 4226's HOTP vectors (appendix D),
// base32 round trips, drift, and the otpauth URI and QR code authenticator apps read.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/server/adapters/random';
import {
  base32Decode,
  base32Encode,
  formatSetupKey,
  hotp,
  matchTotpStep,
  newTotpSecret,
  otpauthUri,
  qrCodeDataUrl,
  totpCode,
  totpStep,
} from '../../src/server/domain/factors/totp';

const SHA1_SEED = Buffer.from('12345678901234567890', 'ascii');
const SHA256_SEED = Buffer.from('12345678901234567890123456789012', 'ascii');
const SHA512_SEED = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii');

// RFC 6238 appendix B: time (s), then the 8-digit codes for SHA-1, SHA-256 and SHA-512.
const RFC6238: Array<[number, string, string, string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('RFC 6238 test vectors', () => {
  it.each(RFC6238)('at %i s', (seconds, sha1, sha256, sha512) => {
    const at = new Date(seconds * 1000);
    expect(totpCode(SHA1_SEED, at, { digits: 8 })).toBe(sha1);
    expect(totpCode(SHA256_SEED, at, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
    expect(totpCode(SHA512_SEED, at, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
    // The 6-digit code authenticator apps show is the same number's last six digits.
    expect(totpCode(SHA1_SEED, at)).toBe(sha1.slice(2));
  });
});

describe('RFC 4226 HOTP vectors', () => {
  const expected = [
    '755224',
    '287082',
    '359152',
    '969429',
    '338314',
    '254676',
    '287922',
    '162583',
    '399871',
    '520489',
  ];
  it('gives the ten codes of appendix D', () => {
    expect(expected.map((_, counter) => hotp(SHA1_SEED, counter))).toEqual(expected);
  });
});

describe('base32', () => {
  it('encodes RFC 4648 test vectors without padding', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
  });

  it('decodes as people type: lower case, spaces, padding', () => {
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow();
  });

  it('reads the demo secret JBSWY3DPEHPK3PXP as the bytes authenticator apps use ("Hello!" 0xDEADBEEF)', () => {
    expect(base32Decode('JBSWY3DPEHPK3PXP').toString('hex')).toBe('48656c6c6f21deadbeef');
  });

  it('makes 160-bit secrets that round-trip', () => {
    const secret = newTotpSecret(seededRandom(42));
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
    expect(formatSetupKey(secret)).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  });
});

describe('matching a typed code', () => {
  const secret = base32Decode('JBSWY3DPEHPK3PXP');
  const at = new Date('2026-03-01T10:00:15Z');
  const step = totpStep(at);

  it('accepts the current step and one step either side, naming the step', () => {
    expect(matchTotpStep(secret, hotp(secret, step), at)).toBe(step);
    expect(matchTotpStep(secret, hotp(secret, step - 1), at)).toBe(step - 1);
    expect(matchTotpStep(secret, hotp(secret, step + 1), at)).toBe(step + 1);
  });

  it('refuses codes two steps away, wrong codes and malformed input', () => {
    expect(matchTotpStep(secret, hotp(secret, step - 2), at)).toBeNull();
    expect(matchTotpStep(secret, hotp(secret, step + 2), at)).toBeNull();
    const wrong = String((Number(hotp(secret, step)) + 1) % 1_000_000).padStart(6, '0');
    expect(matchTotpStep(secret, wrong, at)).toBeNull();
    expect(matchTotpStep(secret, '12345', at)).toBeNull();
    expect(matchTotpStep(secret, 'abcdef', at)).toBeNull();
  });

  it('ignores spaces people type between the groups', () => {
    const code = hotp(secret, step);
    expect(matchTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, at)).toBe(step);
  });
});

describe('otpauth URI and QR code', () => {
  it('names issuer and account, with the secret and the defaults spelled out', () => {
    const uri = otpauthUri({ issuer: 'Identity Portal', account: 'C10004', secret: 'JBSWY3DPEHPK3PXP' });
    expect(uri).toBe(
      'otpauth://totp/Identity%20Portal:C10004?secret=JBSWY3DPEHPK3PXP&issuer=Identity%20Portal&algorithm=SHA1&digits=6&period=30',
    );
  });

  it('draws the URI as a PNG data URL', async () => {
    const url = await qrCodeDataUrl('otpauth://totp/X:Y?secret=JBSWY3DPEHPK3PXP&issuer=X');
    expect(url).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});
