// Cross-cutting request rules: the application version on every response, the security headers
// (Content-Security-Policy with a per-request style nonce, nosniff, Referrer-Policy, HSTS in
// production), and the X-Requested-With check on state-changing API calls: a cross-site form
// cannot set that header, and a cross-site fetch that does needs a CORS preflight this server
// never grants.
import type { ServerResponse } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import {
  API_BASE,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
  VERSION_HEADER,
} from '../../../contract/call';
import { refuse } from '../../domain/errors';
import { MISSING_REQUESTED_WITH_MESSAGE } from '../../domain/messages';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const requestedWith = REQUESTED_WITH_HEADER.toLowerCase();

export async function installSecurity(app: FastifyInstance): Promise<void> {
  const { config, random, appOrigins } = app.services;
  const nonces = new WeakMap<ServerResponse, string>();

  app.decorateRequest('cspNonce', '');

  // Runs before helmet's hook, which reads the nonce and the origins.
  app.addHook('onRequest', async (request, reply) => {
    reply.header(VERSION_HEADER, config.appVersion);
    const nonce = random.bytes(16).toString('base64');
    request.cspNonce = nonce;
    nonces.set(reply.raw, nonce);
    await appOrigins.ensureFresh();
  });

  const listOf = (values: readonly string[]) => values.join(' ');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", (_req, res) => `'nonce-${nonces.get(res as ServerResponse) ?? ''}'`],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'", () => listOf(appOrigins.formActions)],
        frameAncestors: ["'self'", () => listOf(appOrigins.frameAncestors)],
        ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // frame-ancestors governs framing; X-Frame-Options cannot list the apps' origins.
    xFrameOptions: false,
    strictTransportSecurity: config.isProduction
      ? { maxAge: 31_536_000, includeSubDomains: true, preload: false }
      : false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });

  // After helmet's hooks, so refusals carry the security headers too.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const path = request.url.split('?', 1)[0] ?? '';
    const isApi = path.startsWith(API_BASE) || (request.routeOptions.url ?? '').startsWith(API_BASE);
    if (isApi && request.headers[requestedWith] !== REQUESTED_WITH_VALUE) {
      throw refuse.forbidden(MISSING_REQUESTED_WITH_MESSAGE);
    }
  });
}
