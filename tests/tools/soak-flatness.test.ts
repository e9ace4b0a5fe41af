// The soak's memory verdict (bench/support/memory.ts): a swing of garbage collection is not growth,
// a steady climb is.
import { describe, expect, it } from 'vitest';
import { flatness, type MemoryReading } from '../../bench/support/memory';
import { median } from '../../bench/support/statistics';

/** `count` windows of `perWindow` readings a second apart, each from `mbAt(seconds)`. */
function windows(count: number, perWindow: number, mbAt: (at: number) => number): MemoryReading[][] {
  return Array.from({ length: count }, (_, w) =>
    Array.from({ length: perWindow }, (_, i) => {
      const at = w * perWindow + i;
      return { at, mb: mbAt(at) };
    }),
  );
}

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});

describe('flatness', () => {
  it('reads a sawtooth of garbage collection (151-171 MB) as flat', () => {
    // Heap grows 2 MB a second and is collected every 10 s; the run ends at the top of a tooth.
    const sawtooth = (at: number) => 151 + 2 * (at % 10);
    const result = flatness(windows(40, 30, sawtooth));
    expect(Math.abs(result.growth)).toBeLessThan(0.01);
    expect(Math.abs(result.slopePerMinute)).toBeLessThan(0.1);
  });

  it('reads a steady climb as growth, with its slope', () => {
    // 1 MB a minute over a 20-minute soak: 150 MB to 170 MB.
    const climb = (at: number) => 150 + at / 60;
    const result = flatness(windows(40, 30, climb));
    expect(result.slopePerMinute).toBeCloseTo(1, 5);
    // Second quarter's median about 157.5 MB, last quarter's about 167.5 MB.
    expect(result.early).toBeCloseTo(157.5, 0);
    expect(result.late).toBeCloseTo(167.5, 0);
    expect(result.growth).toBeGreaterThan(0.06);
  });

  it('leaves the first quarter out as warm-up', () => {
    // A large first window (start-up) and flat after it.
    const result = flatness(windows(8, 5, (at) => (at < 10 ? 300 : 160)));
    expect(result.early).toBe(160);
    expect(result.late).toBe(160);
    expect(result.growth).toBe(0);
  });

  it('compares the second window with the last in a short run, and the two windows of the shortest', () => {
    const four = flatness(windows(4, 5, (at) => [200, 150, 160, 165][Math.floor(at / 5)]!));
    expect(four.early).toBe(150);
    expect(four.late).toBe(165);
    expect(four.growth).toBeCloseTo(0.1, 5);
    const two = flatness(windows(2, 5, (at) => (at < 5 ? 100 : 120)));
    expect(two.growth).toBeCloseTo(0.2, 5);
    expect(() => flatness(windows(1, 5, () => 100))).toThrow();
  });
});
