// Encryption of secrets at rest (TOTP secrets): AES-256-GCM under one data key. The key comes from
// DATA_ENCRYPTION_KEY, or is created once in DATA_DIR/keys/data.key (mode 0600) on first start.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The data key must be 32 bytes');
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split(':');
      if (version !== VERSION || !payload) throw new Error('Unknown sealed secret format');
      const raw = Buffer.from(payload, 'base64url');
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/** The configured key, or the one in `dataDir/keys/data.key`, created there when absent. */
export function loadDataKey(configured: Buffer | null, dataDir: string): Buffer {
  if (configured) return configured;
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, 'data.key');
  try {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // 'wx' fails if another process created it in between; then read theirs.
  try {
    writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  }
}
