// Cross-cutting request rules: the application version on every response, the security headers,
// and the X-Requested-With check on the API.
//
// Headers, on every response this listener sends (API JSON, errors and 404s, portal pages and
// assets, /saml/*, /sso/jwt/*, /demo-sp/*):
// - Content-Security-Policy: scripts only from the portal's own origin (no 'unsafe-inline', no
//   'unsafe-eval': the built index.html has no inline script); styles from the origin or a <style>
//   element carrying the request's nonce (index.html's csp-nonce meta: Mantine puts it on the
//   style tags it injects; react-remove-scroll under Mantine's Modal reads it through
//   src/client/app/style-nonce-global.ts). No style-src-attr 'unsafe-inline' is needed: Mantine's
//   style props and React's `style` reach the DOM through CSSOM (element.style.setProperty), which
//   CSP does not govern; only style attributes in parsed markup would be blocked, and the portal
//   has none. object-src and base-uri 'none'; frame-ancestors and form-action list the origins
//   registered in the apps table (a JWT app's frame origin, a SAML app's ACS origin), refreshed
//   from the database at most once a minute.
// - HSTS in production only (NODE_ENV=production), with upgrade-insecure-requests.
// - X-Content-Type-Options: nosniff; Referrer-Policy: no-referrer.
//
// CSRF: every /rest/ui/ call, whatever its method, must carry X-Requested-With: XMLHttpRequest
// (section 7: the portal sends it on every request). A cross-site HTML form (urlencoded,
// multipart or text/plain) cannot set a header, a cross-site fetch that does needs a CORS
// preflight this server never grants, and a top-level cross-site navigation (which carries the
// SameSite=Lax session cookie) sends none: so not even the contract's few state-changing GETs
// (merge skip and continue-sign-in, the setup QR codes) can be forged. The check runs before the
// body is read. /saml/sso and the demo SPs' ACS, outside /rest/ui/, take cross-site form posts by
// design (SAML HTTP-POST binding).
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_BASE,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
  VERSION_HEADER,
} from '../../../contract/call';
import type { Clock } from '../../adapters/clock';
import type { Config } from '../../config';
import { refuse } from '../../domain/errors';
import { MISSING_REQUESTED_WITH_MESSAGE } from '../../domain/messages';
import { sendError, toErrorAnswer } from '../errors';

const requestedWith = REQUESTED_WITH_HEADER.toLowerCase();
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * helmet's headers other than the CSP (nosniff, Referrer-Policy, the cross-origin policies...):
 * the same on every response, so helmet is asked for them once, at start, and the list is set on
 * each response as it is.
 */
export function helmetStaticHeaders(): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name.toLowerCase(), String(value)]);
      return response;
    },
    removeHeader() {},
  };
  let done = false;
  helmet({
    contentSecurityPolicy: false,
    // frame-ancestors governs framing; X-Frame-Options cannot list the apps' origins.
    xFrameOptions: false,
    // HSTS is set below, in production only.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, response as unknown as ServerResponse, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * A registered origin as a CSP source: only what an http(s) origin can hold, so that no value from
 * the apps table can end a directive (;) or start another policy (,).
 */
const CSP_SOURCE = /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/;

/**
 * The Content-Security-Policy: fixed directives, the request's style nonce, and the registered
 * origins (the part after the nonce is rebuilt only when the origins change).
 */
export function cspBuilder(isProduction: boolean) {
  const head = "default-src 'self';script-src 'self';style-src 'self' 'nonce-";
  let formActions: readonly string[] | undefined;
  let frameAncestors: readonly string[] | undefined;
  let tail = '';
  const sources = (origins: readonly string[]) =>
    ["'self'", ...origins.filter((origin) => CSP_SOURCE.test(origin))].join(' ');
  return (nonce: string, origins: { formActions: readonly string[]; frameAncestors: readonly string[] }) => {
    if (origins.formActions !== formActions || origins.frameAncestors !== frameAncestors) {
      formActions = origins.formActions;
      frameAncestors = origins.frameAncestors;
      tail =
        "';img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'none'" +
        `;form-action ${sources(formActions)};frame-ancestors ${sources(frameAncestors)}` +
        (isProduction ? ';upgrade-insecure-requests' : '');
    }
    return head + nonce + tail;
  };
}

/** The headers every response carries apart from the CSP: the version, helmet's, HSTS in production. */
export function fixedHeaders(config: Pick<Config, 'appVersion' | 'isProduction'>): Array<[string, string]> {
  return [
    [VERSION_HEADER, config.appVersion],
    ...helmetStaticHeaders(),
    ...(config.isProduction ? [['strict-transport-security', HSTS] as [string, string]] : []),
  ];
}

export async function installSecurity(app: FastifyInstance): Promise<void> {
  const { config, random, appOrigins } = app.services;
  const fixed = fixedHeaders(config);
  const csp = cspBuilder(config.isProduction);

  app.decorateRequest('cspNonce', '');

  // One synchronous hook for every response's headers and the X-Requested-With check, which
  // comes after them so that refusals carry the headers too. Every method: see the file comment.
  // The route's own path counts too, for a percent-encoded path the router decoded.
  const secure = (request: FastifyRequest, reply: FastifyReply): Error | undefined => {
    for (const [name, value] of fixed) reply.header(name, value);
    const nonce = random.bytes(16).toString('base64');
    request.cspNonce = nonce;
    reply.header('content-security-policy', csp(nonce, appOrigins));
    const path = request.url.split('?', 1)[0] ?? '';
    const isApi = path.startsWith(API_BASE) || (request.routeOptions.url ?? '').startsWith(API_BASE);
    if (isApi && request.headers[requestedWith] !== REQUESTED_WITH_VALUE) {
      return refuse.forbidden(MISSING_REQUESTED_WITH_MESSAGE);
    }
    return undefined;
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (appOrigins.fresh) return done(secure(request, reply));
    // At most once a minute: the origins are read again first. A database hiccup must not cost
    // this response its security headers: the last known origins stay in force and the next
    // request tries again.
    appOrigins
      .ensureFresh()
      .catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not refresh the registered app origins');
      })
      .then(() => done(secure(request, reply)), done);
  });
}

/**
 * Fastify answers a URL it cannot decode (a broken percent-escape) before routing and so before
 * any hook, through its `frameworkErrors` option, which app.ts points here. That answer gets the
 * server's 400 error body, the version and the security headers too: the strictest policy, since
 * a JSON refusal loads nothing and is framed by no one.
 */
export function frameworkErrorHandler(config: Config, clock: Clock) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    request.log.info({ code: error.code }, 'request refused before routing');
    reply.header(VERSION_HEADER, config.appVersion);
    reply.header(
      'content-security-policy',
      "default-src 'none'; base-uri 'none'; object-src 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (config.isProduction) reply.header('strict-transport-security', HSTS);
    const refusal = refuse.invalid([{ fieldName: 'url', message: 'The address cannot be read.' }]);
    void sendError(reply, toErrorAnswer(refusal, clock));
  };
}
