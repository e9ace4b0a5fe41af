// Randomness for tokens, ids, captcha answers and nonces: injected so tests can make it exact.
import { randomBytes } from 'node:crypto';

export interface Random {
  /** `n` bytes; must come from a CSPRNG outside tests. */
  bytes(n: number): Buffer;
}

export const cryptoRandom: Random = { bytes: (n) => randomBytes(n) };

/** An unbiased integer in [0, max) from `random`. */
export function randomInt(random: Random, max: number): number {
  if (!Number.isInteger(max) || max <= 0 || max > 0x1_0000_0000) throw new RangeError(`bad max ${max}`);
  const limit = Math.floor(0x1_0000_0000 / max) * max;
  for (;;) {
    const n = random.bytes(4).readUInt32BE(0);
    if (n < limit) return n % max;
  }
}

/** A version 4 UUID from `random`. */
export function randomUuid(random: Random): string {
  const b = Buffer.from(random.bytes(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A deterministic generator (xorshift-based) for tests only: never for secrets. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 1;
  return {
    bytes(n) {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i++) {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        out[i] = state & 0xff;
      }
      return out;
    },
  };
}
