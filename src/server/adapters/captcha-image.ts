// Draws a captcha: the answer's characters from the bitmap font, each scaled, rotated and sheared,
// the whole text warped by two sine waves, over a noisy background crossed by lines and speckles,
// encoded as a JPEG by our own small encoder.
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphOf } from './captcha-font';
import { encodeJpeg } from './jpeg-encoder';
import type { Random } from './random';

export const CAPTCHA_WIDTH = 200;
export const CAPTCHA_HEIGHT = 70;

export interface CaptchaRenderer {
  /** A JPEG image showing `text`. */
  render(text: string): Buffer;
}

/** mulberry32: a fast generator for the visual noise only, seeded from the CSPRNG. */
function noiseGenerator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface PlacedChar {
  glyph: readonly (readonly boolean[])[];
  cx: number;
  cy: number;
  /** Inverse transform: output offset -> glyph cell coordinates. */
  a: number;
  b: number;
  c: number;
  d: number;
  color: [number, number, number];
}

export function createCaptchaRenderer(random: Random, quality = 55): CaptchaRenderer {
  return {
    render(text) {
      const rnd = noiseGenerator(random.bytes(4).readUInt32BE(0));
      const between = (lo: number, hi: number) => lo + (hi - lo) * rnd();
      const w = CAPTCHA_WIDTH;
      const h = CAPTCHA_HEIGHT;
      const data = Buffer.alloc(w * h * 4);

      // Background: a soft two-colour gradient with per-pixel grain.
      const bg1 = [between(205, 250), between(205, 250), between(205, 250)];
      const bg2 = [between(190, 245), between(190, 245), between(190, 245)];
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const t = x / w;
          const i = (y * w + x) * 4;
          const grain = between(-18, 18);
          for (let k = 0; k < 3; k++) data[i + k] = clamp(bg1[k]! * (1 - t) + bg2[k]! * t + grain);
          data[i + 3] = 255;
        }
      }

      // Background clutter drawn before the text: faint arcs of random colour.
      for (let n = 0; n < 4; n++) {
        const color = randomColor(between, 120, 200);
        const cx = between(0, w);
        const cy = between(0, h);
        const r = between(20, 70);
        const start = between(0, Math.PI * 2);
        for (let s = 0; s < 160; s++) {
          const angle = start + (s / 160) * Math.PI;
          plot(data, w, h, cx + r * Math.cos(angle), cy + r * Math.sin(angle), color, 1);
        }
      }

      // Characters: 5.2 to 6.4 px per cell, rotation up to ~17 degrees, some shear.
      const chars = [...text];
      const step = (w - 24) / Math.max(chars.length, 1);
      const placed: PlacedChar[] = chars.map((ch, i) => {
        const scale = between(5.2, 6.4);
        const angle = between(-0.3, 0.3);
        const shear = between(-0.15, 0.15);
        // Forward: offset = R(angle) * Shear * S(scale) * cell. Inverse computed directly.
        const cos = Math.cos(angle);
        const sin = Math.sin(angle);
        // M = R * [[1, shear],[0,1]] * scale
        const m11 = scale * cos;
        const m12 = scale * (cos * shear - sin);
        const m21 = scale * sin;
        const m22 = scale * (sin * shear + cos);
        const det = m11 * m22 - m12 * m21;
        return {
          glyph: glyphOf(ch),
          cx: 12 + step * (i + 0.5) + between(-3, 3),
          cy: h / 2 + between(-6, 6),
          a: m22 / det,
          b: -m12 / det,
          c: -m21 / det,
          d: m11 / det,
          color: randomColor(between, 10, 110),
        };
      });

      const ampX = between(1, 2);
      const ampY = between(2, 4);
      const waveX = between(40, 60);
      const waveY = between(70, 110);
      const phaseX = between(0, Math.PI * 2);
      const phaseY = between(0, Math.PI * 2);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const sx = x + ampX * Math.sin((2 * Math.PI * y) / waveX + phaseX);
          const sy = y + ampY * Math.sin((2 * Math.PI * x) / waveY + phaseY);
          for (const p of placed) {
            const dx = sx - p.cx;
            const dy = sy - p.cy;
            const gx = p.a * dx + p.b * dy + GLYPH_WIDTH / 2;
            const gy = p.c * dx + p.d * dy + GLYPH_HEIGHT / 2;
            if (gx < 0 || gy < 0 || gx >= GLYPH_WIDTH || gy >= GLYPH_HEIGHT) continue;
            if (p.glyph[Math.floor(gy)]![Math.floor(gx)]) {
              const i = (y * w + x) * 4;
              data[i] = p.color[0];
              data[i + 1] = p.color[1];
              data[i + 2] = p.color[2];
              break;
            }
          }
        }
      }

      // Lines across the text, in the text's darkness range so they cannot be filtered by colour.
      for (let n = 0; n < 3; n++) {
        const color = randomColor(between, 20, 140);
        const x0 = between(0, w * 0.3);
        const x1 = between(w * 0.7, w);
        const y0 = between(5, h - 5);
        const y1 = between(5, h - 5);
        const bend = between(-12, 12);
        const thickness = between(0, 1.4);
        for (let s = 0; s <= 400; s++) {
          const t = s / 400;
          const x = x0 + (x1 - x0) * t;
          const y = y0 + (y1 - y0) * t + bend * Math.sin(Math.PI * t);
          plot(data, w, h, x, y, color, thickness);
        }
      }

      // Speckles.
      for (let n = 0; n < 350; n++) {
        const color = randomColor(between, 0, 255);
        plot(data, w, h, between(0, w), between(0, h), color, 0);
      }

      return encodeJpeg(data, w, h, quality);
    },
  };
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

function randomColor(between: (lo: number, hi: number) => number, lo: number, hi: number) {
  return [clamp(between(lo, hi)), clamp(between(lo, hi)), clamp(between(lo, hi))] as [number, number, number];
}

/** A filled square of side ~2*radius centred on (x, y). */
function plot(
  data: Buffer,
  w: number,
  h: number,
  x: number,
  y: number,
  color: readonly [number, number, number],
  radius: number,
) {
  const r = Math.max(0, Math.round(radius));
  const px = Math.round(x);
  const py = Math.round(y);
  for (let yy = py - r; yy <= py + r; yy++) {
    if (yy < 0 || yy >= h) continue;
    for (let xx = px - r; xx <= px + r; xx++) {
      if (xx < 0 || xx >= w) continue;
      const i = (yy * w + xx) * 4;
      data[i] = color[0];
      data[i + 1] = color[1];
      data[i + 2] = color[2];
    }
  }
}
