// cryptoRandom serves small requests from a pool of CSPRNG bytes (adapters/random.ts): every byte
// is handed out once, each answer is a buffer of its own, and a new pool is drawn when one is used up.
import { describe, expect, it } from 'vitest';
import { cryptoRandom, randomInt, randomUuid } from '../../src/server/adapters/random';

describe('cryptoRandom', () => {
  it('answers exactly the bytes asked for, small and large', () => {
    for (const n of [0, 1, 16, 32, 64, 65, 4096, 10_000]) expect(cryptoRandom.bytes(n)).toHaveLength(n);
  });

  it('never hands out the same bytes twice, across many pool refills', () => {
    const seen = new Set<string>();
    // 20,000 nonces of 16 bytes use up about 78 pools of 4 KiB.
    for (let i = 0; i < 20_000; i++) seen.add(cryptoRandom.bytes(16).toString('hex'));
    expect(seen.size).toBe(20_000);
  });

  it('gives each caller bytes of its own: overwriting one answer leaves the others as they were', () => {
    const answers = Array.from({ length: 300 }, () => cryptoRandom.bytes(16));
    const copies = answers.map((a) => Buffer.from(a));
    for (const answer of answers.filter((_, i) => i % 2 === 0)) answer.fill(0);
    answers.forEach((answer, i) => {
      if (i % 2 === 1) expect(answer.equals(copies[i]!)).toBe(true);
    });
  });

  it('looks uniform: every byte value turns up about equally often', () => {
    const counts = new Array<number>(256).fill(0);
    const samples = 256 * 400;
    for (let i = 0; i < samples / 16; i++) for (const byte of cryptoRandom.bytes(16)) counts[byte]! += 1;
    // Expected 400 each; a fair source stays well within ±40% (about 8 standard deviations).
    expect(Math.min(...counts)).toBeGreaterThan(240);
    expect(Math.max(...counts)).toBeLessThan(560);
  });

  it('feeds randomInt and randomUuid', () => {
    const values = new Set(Array.from({ length: 200 }, () => randomInt(cryptoRandom, 10)));
    expect([...values].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(randomUuid(cryptoRandom)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
