// Whether a server's memory stayed flat over a soak (bench/soak), from readings taken through it.
import { median } from './statistics';

/** One reading of resident memory, `at` seconds after the soak began. */
export interface MemoryReading {
  at: number;
  mb: number;
}

/**
 * Memory after warm-up against memory at the end: the median reading of the windows of the second
 * quarter (the first quarter is warm-up) and of the last quarter, and the slope of a least-squares
 * line through every reading after warm-up. With fewer than four windows the quarters are one
 * window each: the second and the last (with two, there is no warm-up: the first and the second).
 */
export function flatness(windows: readonly (readonly MemoryReading[])[]): {
  early: number;
  late: number;
  growth: number;
  slopePerMinute: number;
} {
  if (windows.length < 2) throw new Error('flatness needs at least two windows');
  const quarter = Math.max(1, Math.floor(windows.length / 4));
  const warmUp = windows.length >= 3 ? quarter : 0;
  const early = median(
    windows
      .slice(warmUp, warmUp + quarter)
      .flat()
      .map((r) => r.mb),
  );
  const late = median(
    windows
      .slice(-quarter)
      .flat()
      .map((r) => r.mb),
  );
  const after = windows.slice(warmUp).flat();
  const meanAt = after.reduce((sum, r) => sum + r.at, 0) / after.length;
  const meanMb = after.reduce((sum, r) => sum + r.mb, 0) / after.length;
  let covariance = 0;
  let variance = 0;
  for (const r of after) {
    covariance += (r.at - meanAt) * (r.mb - meanMb);
    variance += (r.at - meanAt) ** 2;
  }
  const slopePerSecond = variance > 0 ? covariance / variance : 0;
  return { early, late, growth: (late - early) / early, slopePerMinute: slopePerSecond * 60 };
}
