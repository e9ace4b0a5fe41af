// Password hashing: argon2id (19 MiB, t=2, p=1, OWASP's baseline) through @node-rs/argon2, which
// computes on the libuv thread pool, off the event loop.
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

export const ARGON2ID_OPTIONS: Readonly<Options> = {
  // Algorithm.Argon2id; the enum is a const enum that isolatedModules cannot inline.
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a hash it cannot read. */
  verify(passwordHash: string, password: string): Promise<boolean>;
}

export const argon2idHasher: PasswordHasher = {
  hash: (password) => hash(password, ARGON2ID_OPTIONS),
  async verify(passwordHash, password) {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  },
};

/** Trimmed and lower-cased: usernames are case-insensitive. */
export function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}
