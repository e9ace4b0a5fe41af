// The TREASURY demo application: a page on an origin of its own (a second listener, DEMO_SP_PORT)
// that frames the portal's framed entry point, takes the JWT the portal posts to it, accepts it only
// from the portal's exact origin, has its own server verify it against the portal's JWKS, and
// shows the claims. Its registered frame origin (apps.frame_origin) is this listener's URL, so the
// portal lets exactly this origin frame it; another origin (the same listener reached by another
// host name) is refused by the portal's frame-ancestors and never sees a token.
import Fastify, { type FastifyInstance } from 'fastify';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import * as v from 'valibot';
import { DEMO_STYLES, html, page } from './html';

export const TREASURY_PATH = '/demo-sp/TREASURY';
const APP_CODE = 'TREASURY';

export interface TreasuryDemoOptions {
  host: string;
  port: number;
  /** PUBLIC_URL: the portal the page frames, whose origin alone may post the token. */
  publicUrl: string;
  /** Where this server fetches the portal's keys (the portal's /.well-known/jwks.json). */
  jwksUrl: string;
}

export interface TreasuryDemo {
  readonly app: FastifyInstance;
  /** The port bound. */
  readonly port: number;
  close(): Promise<void>;
}

const VerifyRequest = v.strictObject({ token: v.pipe(v.string(), v.minLength(1), v.maxLength(8192)) });

/** The page's script: kept small and dependency-free; it never evaluates what it receives. */
const SCRIPT = `
const main = document.querySelector('main');
const portalOrigin = main.dataset.portalOrigin;
const frame = document.getElementById('portal-frame');
const status = document.getElementById('status');
const claims = document.getElementById('claims');
const ignored = document.getElementById('ignored-messages');

function show(text, state) {
  status.textContent = text;
  status.dataset.state = state;
}

function row(name, value) {
  const dt = document.createElement('dt');
  dt.textContent = name;
  const dd = document.createElement('dd');
  dd.id = 'claim-' + name;
  dd.textContent = value;
  claims.append(dt, dd);
}

window.addEventListener('message', async (event) => {
  // Only the portal's exact origin, and only from the frame this page opened.
  if (event.origin !== portalOrigin || event.source !== frame.contentWindow) {
    const item = document.createElement('li');
    item.textContent = 'Ignored a message from ' + event.origin;
    ignored.append(item);
    return;
  }
  const data = event.data;
  if (!data || data.type !== 'jwt' || typeof data.jwt !== 'string') return;
  show('Verifying the token against the portal\\u2019s published keys\\u2026', 'pending');
  try {
    const response = await fetch('${TREASURY_PATH}/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: data.jwt }),
    });
    const body = await response.json();
    if (!response.ok) {
      show('Token rejected: ' + body.reason, 'rejected');
      return;
    }
    claims.replaceChildren();
    for (const [name, value] of Object.entries(body.claims)) {
      row(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    claims.hidden = false;
    show('Token verified: signed by the portal for Treasury.', 'verified');
  } catch (error) {
    show('The token could not be verified: ' + error.message, 'rejected');
  }
});
`;

export async function startTreasuryDemo(options: TreasuryDemoOptions): Promise<TreasuryDemo> {
  const portalOrigin = new URL(options.publicUrl).origin;
  const keys = createRemoteJWKSet(new URL(options.jwksUrl));
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });

  app.addHook('onSend', async (_request, reply) => {
    reply.header(
      'content-security-policy',
      [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        `frame-src ${portalOrigin}`,
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });

  app.get('/', async (_request, reply) => reply.redirect(TREASURY_PATH, 302));

  app.get(TREASURY_PATH, async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        page({
          title: 'Treasury (demo application)',
          styleNonce: null,
          stylesheet: `${TREASURY_PATH}/treasury.css`,
          script: `${TREASURY_PATH}/treasury.js`,
          mainAttributes: { 'data-portal-origin': portalOrigin },
          body: html`<h1>Treasury</h1>
            <p class="demo-note">
              A demo application on an origin of its own. It signs you in through the portal in the frame
              below; the portal posts a signed token to this page, which verifies it against the portal's
              published keys.
            </p>
            <h2>Token</h2>
            <p id="status" role="status" data-state="waiting">Waiting for the portal to sign you in.</p>
            <dl id="claims" hidden></dl>
            <h2>Ignored messages</h2>
            <ul id="ignored-messages"></ul>
            <iframe
              id="portal-frame"
              title="Portal sign-in"
              src="${options.publicUrl}/sso/jwt/${APP_CODE}"
            ></iframe>`,
        }),
      ),
  );

  app.get(`${TREASURY_PATH}/treasury.js`, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(SCRIPT),
  );

  app.get(`${TREASURY_PATH}/treasury.css`, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(DEMO_STYLES),
  );

  app.post(`${TREASURY_PATH}/verify`, async (request, reply) => {
    const parsed = v.safeParse(VerifyRequest, request.body);
    if (!parsed.success) return reply.code(400).send({ reason: 'Send the token as {"token": "..."}' });
    try {
      const { payload, protectedHeader } = await jwtVerify(parsed.output.token, keys, {
        issuer: options.publicUrl,
        audience: APP_CODE,
        algorithms: ['ES256'],
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      // Signed and fresh is not enough: the user may have signed out of all devices since.
      const revocation = await fetch(
        new URL(`/jwt/valid-after/${encodeURIComponent(payload.sub ?? '')}`, options.jwksUrl),
        { headers: { authorization: `Bearer ${parsed.output.token}` } },
      );
      const validity = (await revocation.json()) as { tokenValid?: boolean; message?: string };
      if (!revocation.ok || validity.tokenValid !== true) {
        const reason = revocation.ok
          ? 'The user signed out of all devices after this token was issued'
          : `The portal did not confirm the token: ${validity.message ?? revocation.status}`;
        return reply.code(401).send({ reason });
      }
      const at = (seconds: number | undefined) =>
        seconds === undefined ? '' : new Date(seconds * 1000).toISOString();
      return reply.send({
        claims: {
          sub: payload.sub,
          username: payload.username,
          name: payload.name,
          email: payload.email ?? '',
          iss: payload.iss,
          aud: payload.aud,
          iat: at(payload.iat),
          exp: at(payload.exp),
          jti: payload.jti,
          kid: protectedHeader.kid,
        },
      });
    } catch (error) {
      const reason =
        error instanceof joseErrors.JOSEError
          ? `${error.code}: ${error.message}`
          : 'The token cannot be verified';
      return reply.code(401).send({ reason });
    }
  });

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { app, port, close: () => app.close() };
}
