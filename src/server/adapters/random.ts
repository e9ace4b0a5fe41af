// Randomness for tokens, ids, captcha answers and nonces: injected so tests can make it exact.
import { randomBytes, randomFillSync } from 'node:crypto';

export interface Random {
  /** `n` bytes; must come from a CSPRNG outside tests. */
  bytes(n: number): Buffer;
}

// Each call to the CSPRNG costs about 5 µs on this kind of machine, whatever its size (4 KiB cost
// hardly more than 16 bytes), and every response takes a 16-byte CSP nonce. So small requests are
// served from a 4 KiB pool of CSPRNG bytes, refilled when used up, as Node's randomUUID does:
// every byte is handed out once, copied into a buffer of its own.
const POOL_BYTES = 4096;
const POOLED_AT_MOST = 64;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function pooledBytes(n: number): Buffer {
  if (n > POOLED_AT_MOST) return randomBytes(n);
  if (poolOffset + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    poolOffset = 0;
  }
  const out = Buffer.allocUnsafe(n);
  pool.copy(out, 0, poolOffset, poolOffset + n);
  poolOffset += n;
  return out;
}

export const cryptoRandom: Random = { bytes: pooledBytes };

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
