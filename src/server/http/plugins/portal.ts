// Serves the built portal (PORTAL_DIST): hashed assets with immutable caching, and index.html for
// every other page path (the SPA routes itself and shows /not-found). index.html's
// `__CSP_NONCE__` placeholder becomes the request's CSP style nonce. Without a build, page requests
// answer 503 asking for `npm run build`; the API keeps working.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../../../contract/call';
import { NOT_FOUND_MESSAGE } from '../../domain/messages';
import { sendError } from '../errors';

export const NONCE_PLACEHOLDER = '__CSP_NONCE__';
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

export async function installPortal(app: FastifyInstance, dist: string): Promise<void> {
  const indexFile = path.join(dist, 'index.html');
  const built = existsSync(indexFile);
  let cached: { mtimeMs: number; html: string } | undefined;

  async function indexHtml(): Promise<string> {
    const info = await stat(indexFile);
    if (!cached || cached.mtimeMs !== info.mtimeMs) {
      cached = { mtimeMs: info.mtimeMs, html: await readFile(indexFile, 'utf8') };
    }
    return cached.html;
  }

  async function sendPage(request: FastifyRequest, reply: FastifyReply) {
    if (!built || !existsSync(indexFile)) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(PORTAL_NOT_BUILT_MESSAGE);
    }
    const html = (await indexHtml()).replaceAll(NONCE_PLACEHOLDER, request.cspNonce);
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  }

  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      wildcard: true,
      index: false,
      serveDotFiles: false,
      // index.html is only ever sent with its nonce filled in.
      allowedPath: (pathname) => pathname !== '/index.html',
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
