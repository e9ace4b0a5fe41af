// The captcha: a real JPEG, drawn from the bitmap font, held server-side per session, fixed by
// CAPTCHA_FIXED_ANSWER outside production; and the JPEG encoder behind it.
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPTCHA_HEIGHT,
  CAPTCHA_WIDTH,
  createCaptchaRenderer,
} from '../../src/server/adapters/captcha-image';
import { encodeJpeg } from '../../src/server/adapters/jpeg-encoder';
import { seededRandom } from '../../src/server/adapters/random';
import { CAPTCHA_ALPHABET, CAPTCHA_LENGTH } from '../../src/server/domain/captcha';
import { hashSessionToken } from '../../src/server/domain/sessions';
import { API, startServer, type TestServer } from './support/server';
import { targets } from './support/targets';

const isJpeg = (bytes: Buffer) =>
  bytes[0] === 0xff && bytes[1] === 0xd8 && bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9;

describe('JPEG encoder', () => {
  it('round-trips a gradient through an independent decoder', () => {
    const w = 37;
    const h = 21;
    const rgba = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        rgba[i] = Math.round((x / (w - 1)) * 255);
        rgba[i + 1] = Math.round((y / (h - 1)) * 255);
        rgba[i + 2] = 128;
        rgba[i + 3] = 255;
      }
    }
    const bytes = encodeJpeg(rgba, w, h, 90);
    expect(isJpeg(bytes)).toBe(true);
    const decoded = jpeg.decode(bytes, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([w, h]);
    let error = 0;
    for (let i = 0; i < rgba.length; i += 4) {
      for (let k = 0; k < 3; k++) error += Math.abs(decoded.data[i + k]! - rgba[i + k]!);
    }
    expect(error / (w * h * 3)).toBeLessThan(4);
  });

  it('survives noise, flat areas and 0xFF stuffing at low quality', () => {
    const random = seededRandom(42);
    const rgba = new Uint8Array(64 * 48 * 4);
    for (let i = 0; i < rgba.length; i++)
      rgba[i] = i % 4 === 3 ? 255 : i < rgba.length / 2 ? random.bytes(1)[0]! : 255;
    for (const quality of [1, 30, 100]) {
      const decoded = jpeg.decode(encodeJpeg(rgba, 64, 48, quality), { useTArray: true });
      expect([decoded.width, decoded.height]).toEqual([64, 48]);
    }
  });
});

describe('captcha renderer', () => {
  it('draws different images for different texts, and for the same text twice', () => {
    const renderer = createCaptchaRenderer(seededRandom(7));
    const a = renderer.render('ACDEF');
    const b = renderer.render('HJKMN');
    const c = renderer.render('ACDEF');
    for (const image of [a, b, c]) {
      expect(isJpeg(image)).toBe(true);
      const decoded = jpeg.decode(image, { useTArray: true });
      expect([decoded.width, decoded.height]).toEqual([CAPTCHA_WIDTH, CAPTCHA_HEIGHT]);
    }
    expect(a.equals(b)).toBe(false);
    expect(a.equals(c)).toBe(false);
  });

  it('puts dark ink where the characters are', () => {
    const renderer = createCaptchaRenderer(seededRandom(3));
    const decoded = jpeg.decode(renderer.render('MMMMM'), { useTArray: true });
    let dark = 0;
    for (let i = 0; i < decoded.data.length; i += 4) {
      const luma = 0.299 * decoded.data[i]! + 0.587 * decoded.data[i + 1]! + 0.114 * decoded.data[i + 2]!;
      if (luma < 110) dark++;
    }
    // Five wide glyphs cover well over 5% of the picture.
    expect(dark / (CAPTCHA_WIDTH * CAPTCHA_HEIGHT)).toBeGreaterThan(0.05);
  });
});

describe.each(targets)('captcha over HTTP on $name', (target) => {
  let server: TestServer;
  let fixed: TestServer;

  beforeAll(async () => {
    [server, fixed] = await Promise.all([
      startServer(target),
      startServer(target, { env: { CAPTCHA_FIXED_ANSWER: 'w3xk9' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), fixed?.close()]);
  });

  it('serves a real JPEG that decodes, uncached, and starts a session for it', async () => {
    const client = server.client();
    const res = await client.get(`/captcha.jpg?${Date.now()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.bytes[0]).toBe(0xff);
    expect(res.bytes[1]).toBe(0xd8);
    expect(isJpeg(res.bytes)).toBe(true);
    const decoded = jpeg.decode(res.bytes, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([CAPTCHA_WIDTH, CAPTCHA_HEIGHT]);

    const token = client.cookie('sam_session');
    expect(token).toBeDefined();
    const challenge = await server.db
      .selectFrom('captcha_challenges')
      .selectAll()
      .where('session_id_hash', '=', hashSessionToken(token!))
      .executeTakeFirstOrThrow();
    // Only a hash of the answer is stored; it expires in five minutes.
    expect(challenge.answer_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.answer_hash).not.toContain(server.captcha.last);
    const ttl = challenge.expires_at.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });

  it('draws random answers from the unambiguous alphabet, replacing the previous challenge', async () => {
    const client = server.client();
    for (let i = 0; i < 5; i++) await client.get(`/captcha.jpg?${i}`);
    const answers = server.captcha.answers.slice(-5);
    for (const answer of answers) {
      expect(answer).toHaveLength(CAPTCHA_LENGTH);
      for (const ch of answer) expect(CAPTCHA_ALPHABET).toContain(ch);
    }
    expect(new Set(answers).size).toBeGreaterThan(1);
    const rows = await server.db
      .selectFrom('captcha_challenges')
      .select('session_id_hash')
      .where('session_id_hash', '=', hashSessionToken(client.cookie('sam_session')!))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps the session the browser already has', async () => {
    const client = server.client();
    await client.get(`${API}anonymous/context`);
    await client.get('/captcha.jpg?a');
    const first = client.cookie('sam_session');
    const second = await client.get('/captcha.jpg?b');
    expect(second.setCookies).toEqual([]);
    expect(client.cookie('sam_session')).toBe(first);
  });

  it('with CAPTCHA_FIXED_ANSWER (outside production) every captcha has that answer', async () => {
    expect(fixed.config.captchaFixedAnswer).toBe('w3xk9');
    const client = fixed.client();
    for (let i = 0; i < 3; i++) {
      const res = await client.login('C10001', 'wrong-password');
      expect(res.status).toBe(422);
    }
    await client.get('/captcha.jpg?1');
    expect(fixed.captcha.last).toBe('W3XK9');
    const ok = await client.login('C10001', undefined, { captchaCode: 'W3XK9' });
    expect(ok.status).toBe(200);
  });
});
