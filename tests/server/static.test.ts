// The portal's pages and assets: index.html for page paths with the CSP nonce filled in, the
// prerendered sign-in page (sign-in.html) at the sign-in route for a visitor without a session
// cookie, hashed assets cached for good and sent compressed to browsers that accept it, JSON 404s
// elsewhere, and a clear 503 when the portal is not built.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_ROUTE } from '../../machines/routes';
import { NOT_FOUND_MESSAGE } from '../../src/server/domain/messages';
import { frameSessionCookieName, sessionCookieName } from '../../src/server/http/session-cookie';
import { PORTAL_NOT_BUILT_MESSAGE, SIGN_IN_PAGE_PATH } from '../../src/server/http/plugins/portal';
import { API, DEMO_PASSWORD, startServer, type TestResponse, type TestServer } from './support/server';
import { targets } from './support/targets';

const INDEX = `<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__">
<script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;
const SIGN_IN = `<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__">
<style nonce="__CSP_NONCE__">#portal-prerender~#root{display:none}</style></head><body>
<div id="portal-prerender" inert><h1>Sign in</h1></div><div id="root"></div></body></html>`;
const SCRIPT = 'console.log("portal");';

const isSignInPage = (res: TestResponse) => res.text.includes('<div id="portal-prerender" inert>');
const isShell = (res: TestResponse) =>
  res.text.includes('<div id="root"></div>') && !res.text.includes('portal-prerender');

function styleNonce(res: TestResponse): string {
  const csp = res.headers.get('content-security-policy') ?? '';
  const match = /style-src 'self' 'nonce-([^']+)'/.exec(csp);
  if (!match?.[1]) throw new Error(`No style nonce in ${csp}`);
  return match[1];
}

describe.each(targets)('portal pages on $name', (target) => {
  let server: TestServer;
  let unbuilt: TestServer;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'sign-in.html'), SIGN_IN);
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), SCRIPT);
    // The compressed copies the build writes next to each asset (scripts/compress-portal.ts).
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js.gz'), gzipSync(SCRIPT));
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    [server, unbuilt] = await Promise.all([
      startServer(target, { env: { PORTAL_DIST: dist } }),
      startServer(target, { env: { SEED_DEMO: 'false' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), unbuilt?.close()]);
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html with the request’s CSP nonce in place of the placeholder', async () => {
    const res = await server.client().get('/profile');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text).not.toContain('__CSP_NONCE__');
    expect(res.text).toContain(`<meta name="csp-nonce" content="${styleNonce(res)}">`);
  });

  it('serves the prerendered sign-in page at the sign-in route to a visitor without a session cookie', async () => {
    expect(SIGN_IN_PAGE_PATH).toBe(SIGN_IN_ROUTE);
    for (const page of ['/', '/?username=c10001']) {
      const res = await server.client().get(page);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(isSignInPage(res), page).toBe(true);
      expect(res.text).not.toContain('__CSP_NONCE__');
      // Both the meta and the copy's style element carry the request's nonce.
      expect(res.text.split(`"${styleNonce(res)}"`)).toHaveLength(3);
    }
  });

  it('serves the plain shell at the sign-in route to a signed-in visitor', async () => {
    const client = server.client();
    const login = await client.login('C10001', DEMO_PASSWORD);
    expect(login.status).toBe(200);
    expect(client.cookie(sessionCookieName(server.config))).toBeDefined();
    const res = await client.get('/');
    expect(res.status).toBe(200);
    expect(isShell(res)).toBe(true);
    expect(res.text).toContain(`content="${styleNonce(res)}"`);
  });

  it('serves the plain shell at the sign-in route whenever a session cookie comes, framed or not', async () => {
    for (const name of [sessionCookieName(server.config), frameSessionCookieName(server.config)]) {
      const client = server.client();
      client.cookies.set(name, 'whatever-it-holds');
      const res = await client.get('/');
      expect(res.status).toBe(200);
      expect(isShell(res), name).toBe(true);
    }
    // Another cookie is no session.
    const other = server.client();
    other.cookies.set('unrelated', '1');
    expect(isSignInPage(await other.get('/'))).toBe(true);
  });

  it('never serves the prerendered sign-in page on another route, nor the file by its own name', async () => {
    for (const page of ['/registration', '/password-reset', '/profile', '/not-found', '/sign-in.html']) {
      const res = await server.client().get(page);
      expect(res.status, page).toBe(200);
      expect(isShell(res), page).toBe(true);
    }
  });

  it('sends pages gzipped to a browser that accepts it, the nonce filled in', async () => {
    const plain = await server.client().get('/', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    // fetch undoes the gzip: the header says it was there, the text is the page.
    const zipped = await server.client().get('/', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(isSignInPage(zipped)).toBe(true);
    expect(zipped.text).toContain(`content="${styleNonce(zipped)}"`);
  });

  it('sends an asset as its brotli or gzip copy to a browser that accepts one, the file otherwise', async () => {
    const br = await server.client().get('/assets/index-AbC123.js', { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.text).toBe(SCRIPT);
    const gz = await server
      .client()
      .get('/assets/index-AbC123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.text).toBe(SCRIPT);
    const plain = await server
      .client()
      .get('/assets/index-AbC123.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.text).toBe(SCRIPT);
  });

  it('answers index.html for any page path (the SPA routes, /not-found included)', async () => {
    for (const page of [
      '/profile/my-applications',
      '/password-reset/set-password',
      '/no/such/page',
      '/index.html',
    ]) {
      const res = await server.client().get(page);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<div id="root"></div>');
      expect(res.text).toContain(`content="${styleNonce(res)}"`);
    }
  });

  it('serves hashed assets with immutable caching, other files revalidated', async () => {
    const asset = await server.client().get('/assets/index-AbC123.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("portal");');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-application-version')).not.toBeNull();
    const icon = await server.client().get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('answers a missing asset and unknown reserved paths with a JSON 404, never index.html', async () => {
    for (const p of [
      '/assets/missing-123.js',
      `${API}unknown`,
      '/saml/nothing',
      '/.well-known/nothing',
      '/dev/x',
    ]) {
      const res = await server.client().get(p);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: NOT_FOUND_MESSAGE });
    }
    const post = await server.client().post('/profile', {});
    expect(post.status).toBe(404);
  });

  it('without a build, answers pages with a 503 that says to run npm run build, and the API still works', async () => {
    const page = await unbuilt.client().get('/profile');
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(page.text).toBe(PORTAL_NOT_BUILT_MESSAGE);
    expect(page.text).toContain('npm run build');
    const root = await unbuilt.client().get('/');
    expect(root.status).toBe(503);
    const api = await unbuilt.client().get(`${API}anonymous/context`);
    expect(api.status).toBe(200);
    expect((await unbuilt.client().get('/health')).status).toBe(200);
  });
});
