// Serves the built portal (PORTAL_DIST): hashed assets with immutable caching (as the brotli or
// gzip copy the build wrote, to a browser that accepts one), and index.html for every other page
// path (the SPA routes itself and shows /not-found). The sign-in route, to a request without a
// session cookie (an anonymous visitor, for whom the sign-in page is what the route shows), gets
// sign-in.html instead: the same shell with the sign-in page's first view drawn at build time
// (scripts/prerender-sign-in.ts), so it paints before the scripts have loaded. The `__CSP_NONCE__`
// placeholders become the request's CSP style nonce, and pages go gzipped to a browser that
// accepts it. Without a build, page requests answer 503 asking for `npm run build`; the API keeps
// working.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../../../contract/call';
import { NOT_FOUND_MESSAGE } from '../../domain/messages';
import { sendError } from '../errors';
import { frameSessionCookieName, sessionCookieName } from '../session-cookie';

export const NONCE_PLACEHOLDER = '__CSP_NONCE__';
/** The sign-in route of the spec's routing table (section 2.1; the portal's SIGN_IN_ROUTE). */
export const SIGN_IN_PAGE_PATH = '/';
export const PORTAL_NOT_BUILT_MESSAGE =
  'The portal has not been built. Run `npm run build` (or `npm start`, which builds first), then reload this page.';

/** Paths that are never portal pages: an unknown one is a JSON 404, not index.html. */
const NON_PAGE_PREFIXES = [
  API_BASE.replace(/\/$/, ''),
  '/rest',
  '/saml',
  '/sso',
  '/demo-sp',
  '/dev',
  '/.well-known',
  '/health',
  '/ready',
  '/metrics',
  '/captcha.jpg',
  '/assets',
];

function hasPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix + '/');
}

export function isPagePath(pathname: string): boolean {
  return !NON_PAGE_PREFIXES.some((p) => hasPrefix(pathname, p));
}

/** A built page read from disk once, and again whenever the file changes. */
function pageFile(file: string): () => Promise<string | null> {
  let cached: { mtimeMs: number; html: string } | undefined;
  return async () => {
    const info = await stat(file).catch(() => null);
    if (!info) return null;
    if (!cached || cached.mtimeMs !== info.mtimeMs) {
      cached = { mtimeMs: info.mtimeMs, html: await readFile(file, 'utf8') };
    }
    return cached.html;
  };
}

export async function installPortal(app: FastifyInstance, dist: string): Promise<void> {
  const { config } = app.services;
  const indexFile = path.join(dist, 'index.html');
  const built = existsSync(indexFile);
  const indexHtml = pageFile(indexFile);
  const signInHtml = pageFile(path.join(dist, 'sign-in.html'));
  const sessionCookies = [sessionCookieName(config), frameSessionCookieName(config)];

  /** The sign-in page's prerendered copy: at the sign-in route, for a visitor with no session. */
  const prerenderedSignIn = (request: FastifyRequest) =>
    (request.url.split('?', 1)[0] ?? '') === SIGN_IN_PAGE_PATH &&
    sessionCookies.every((name) => request.cookies[name] === undefined);

  async function sendPage(request: FastifyRequest, reply: FastifyReply) {
    const page = built
      ? ((prerenderedSignIn(request) ? await signInHtml() : null) ?? (await indexHtml()))
      : null;
    if (page === null) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(PORTAL_NOT_BUILT_MESSAGE);
    }
    const html = page.replaceAll(NONCE_PLACEHOLDER, request.cspNonce);
    reply
      .header('cache-control', 'no-store')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8');
    // Compressed per request (the nonce differs each time): the sign-in page's 39 KB as some 7 KB.
    if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
      return reply.header('content-encoding', 'gzip').send(gzipSync(html));
    }
    return reply.send(html);
  }

  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      wildcard: true,
      index: false,
      serveDotFiles: false,
      // The .br and .gz copies the build writes (scripts/compress-portal.ts), to a browser that
      // accepts them; the plain file otherwise.
      preCompressed: true,
      // The pages are only ever sent with their nonce filled in.
      allowedPath: (pathname) => pathname !== '/index.html' && pathname !== '/sign-in.html',
      setHeaders(reply, filePath) {
        const relative = path.relative(dist, filePath).split(path.sep).join('/');
        reply.header(
          'cache-control',
          relative.startsWith('assets/')
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }
  app.get('/', sendPage);

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    if ((request.method === 'GET' || request.method === 'HEAD') && isPagePath(pathname)) {
      return sendPage(request, reply);
    }
    return sendError(reply, { status: 404, body: { message: NOT_FOUND_MESSAGE } });
  });
}
