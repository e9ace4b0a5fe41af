// The demo service providers' pages on the portal's own listener (part of `npm start` with
// SEED_DEMO): /demo-sp lists them; /demo-sp/LOANS and /demo-sp/PAYROLL each have a start page
// whose link sends an AuthnRequest (HTTP-Redirect) to /saml/sso, and an ACS page that validates
// the posted response and shows what it says, or why it was refused. /demo-sp/TREASURY lives on
// the demo listener's own origin (treasury.ts); here it only points there. Lower-case paths
// (/demo-sp/loans) redirect to the upper-case ones.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findAppByCode } from '../../db/repositories/handoff';
import { acceptFormPosts, formFields } from '../../http/routes/saml';
import { DEMO_APPS, type DemoApp } from '../data';
import { html, page, type SafeHtml } from './html';
import { assertionLedger } from './ledger';
import {
  authnRequestUrl,
  decodeSentRequests,
  encodeSentRequests,
  validateResponse,
  type AcceptedAssertion,
  type DemoSamlSpConfig,
} from './saml-sp';

export const DEMO_SP_BASE = '/demo-sp';
const REQUESTS_COOKIE = 'demo_sp_requests';

function samlDemoApp(code: string): DemoApp | undefined {
  return DEMO_APPS.find((a) => a.code === code && a.contextType === 'SAML');
}

export async function demoSpRoutes(app: FastifyInstance): Promise<void> {
  const { config, handoff, db } = app.services;

  const spConfig = (demo: DemoApp): DemoSamlSpConfig => ({
    code: demo.code,
    entityId: `${config.publicUrl}${demo.spPath}`,
    acsUrl: `${config.publicUrl}${demo.spPath}/acs`,
    idpMetadata: handoff.metadata(),
  });

  const sendPage = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

  /** Answers the canonical (upper-case) demo app for the path's code, or redirects to it. */
  const resolve = (request: FastifyRequest, reply: FastifyReply): DemoApp | null => {
    const code = (request.params as { code: string }).code;
    const demo = samlDemoApp(code.toUpperCase());
    if (!demo) {
      void reply.callNotFound();
      return null;
    }
    if (code !== demo.code) {
      const target = request.url.replace(`${DEMO_SP_BASE}/${code}`, demo.spPath);
      void reply.redirect(target, request.method === 'GET' || request.method === 'HEAD' ? 301 : 308);
      return null;
    }
    return demo;
  };

  await app.register(async (scope) => {
    acceptFormPosts(scope);

    scope.get(DEMO_SP_BASE, async (request, reply) => {
      const links = DEMO_APPS.map((demo) =>
        demo.contextType === 'SAML'
          ? html`<li>
              <a href="${demo.spPath}">${demo.name}</a> (SAML,
              ${demo.facilityHandoff === 'NONE' ? 'no facility' : 'facility chosen before handoff'})
            </li>`
          : html`<li>
              <a href="${demo.spPath}">${demo.name}</a> (JWT to a parent frame, on an origin of its own)
            </li>`,
      );
      return sendPage(
        reply,
        200,
        page({
          title: 'Demo service providers',
          styleNonce: request.cspNonce,
          body: html`<h1>Demo service providers</h1>
            <p class="demo-note">Applications that trust the portal's sign-in, for trying the handoffs.</p>
            <ul>
              ${links}
            </ul>
            <p><a href="${config.publicUrl}/">Go to the portal</a></p>`,
        }),
      );
    });

    scope.get(`${DEMO_SP_BASE}/:code`, async (request, reply) => {
      // The framed demo is served on the demo listener's origin (the app's registered frame origin).
      if ((request.params as { code: string }).code.toUpperCase() === 'TREASURY') {
        const treasury = await findAppByCode(db, 'TREASURY');
        if (!treasury?.frame_origin) return reply.callNotFound();
        return reply.redirect(`${treasury.frame_origin}${DEMO_SP_BASE}/TREASURY`, 302);
      }
      const demo = resolve(request, reply);
      if (!demo) return reply;
      return sendPage(
        reply,
        200,
        page({
          title: `${demo.name} (demo service provider)`,
          styleNonce: request.cspNonce,
          body: html`<h1>${demo.name}</h1>
            <p class="demo-note">
              A demo service provider that trusts the portal's SAML sign-in. Signing in here sends an
              AuthnRequest to the portal; the portal answers with a signed response that this page validates.
            </p>
            <p class="actions">
              <a href="${demo.spPath}/login">Sign in to ${demo.name} with the portal</a>
            </p>`,
        }),
      );
    });

    scope.get(`${DEMO_SP_BASE}/:code/login`, { exposeHeadRoute: false }, async (request, reply) => {
      const demo = resolve(request, reply);
      if (!demo) return reply;
      const sent = decodeSentRequests(request.cookies[REQUESTS_COOKIE]);
      const url = await authnRequestUrl(spConfig(demo), sent, demo.spPath);
      reply.setCookie(REQUESTS_COOKIE, encodeSentRequests(sent, Date.now()), {
        path: demo.spPath,
        httpOnly: true,
        sameSite: 'lax',
        secure: config.secureCookies,
      });
      return reply.header('cache-control', 'no-store').redirect(url, 303);
    });

    scope.post(`${DEMO_SP_BASE}/:code/acs`, async (request, reply) => {
      const demo = resolve(request, reply);
      if (!demo) return reply;
      const fields = formFields(request.body);
      const relayState = fields.RelayState ?? null;
      const sent = decodeSentRequests(request.cookies[REQUESTS_COOKIE]);
      const verdict = fields.SAMLResponse
        ? await validateResponse(spConfig(demo), sent, fields.SAMLResponse, assertionLedger(db, demo.code))
        : ({ ok: false, reason: 'No SAMLResponse was posted' } as const);
      reply.setCookie(REQUESTS_COOKIE, encodeSentRequests(sent, Date.now()), {
        path: demo.spPath,
        httpOnly: true,
        sameSite: 'lax',
        secure: config.secureCookies,
      });
      const body = verdict.ok
        ? accepted(demo, verdict.assertion, relayState)
        : html`<p class="verdict verdict-rejected" id="verdict">
            ${demo.name} rejected the response: ${verdict.reason}
          </p>`;
      return sendPage(
        reply,
        verdict.ok ? 200 : 400,
        page({
          title: `${demo.name}: ${verdict.ok ? 'signed in' : 'sign-in rejected'} (demo service provider)`,
          styleNonce: request.cspNonce,
          body: html`<h1>${demo.name}</h1>
            ${body}
            <p class="actions">
              <a href="${demo.spPath}/login">Sign in to ${demo.name} again</a>
              <a href="${config.publicUrl}/">Go to the portal</a>
            </p>`,
        }),
      );
    });
  });
}

function accepted(demo: DemoApp, a: AcceptedAssertion, relayState: string | null): SafeHtml {
  const attribute = (name: string) => a.attributes.find((x) => x.name === name)?.value ?? null;
  const facility = a.facilityCode
    ? (demo.facilities.find((f) => f.code === a.facilityCode)?.name ?? a.facilityCode)
    : null;
  const rows = a.attributes.map(
    (x) =>
      html`<tr>
        <th scope="row">${x.name}</th>
        <td>${x.value}</td>
      </tr>`,
  );
  return html`<p class="verdict verdict-ok" id="verdict">
      ${demo.name} validated the response: signed by the portal, meant for this service provider.
    </p>
    <h2>Signed in</h2>
    <dl>
      <dt>Username</dt>
      <dd id="username">${attribute('username') ?? ''}</dd>
      <dt>Name</dt>
      <dd id="name">${attribute('name') ?? ''}</dd>
      <dt>Email</dt>
      <dd id="email">${attribute('email') ?? ''}</dd>
      <dt>Facility</dt>
      <dd id="facility">${a.facilityCode ? `${a.facilityCode} (${facility})` : 'None'}</dd>
      <dt>Subject (NameID)</dt>
      <dd id="subject">${a.nameId}</dd>
      <dt>Started by</dt>
      <dd id="started-by">
        ${a.inResponseTo ? `${demo.name} (in response to ${a.inResponseTo})` : 'The portal (IdP-initiated)'}
      </dd>
      <dt>Issuer</dt>
      <dd>${a.issuer}</dd>
      <dt>Authentication</dt>
      <dd>${a.authnContext ?? ''}</dd>
      <dt>Valid until</dt>
      <dd>${a.notOnOrAfter ?? ''}</dd>
      <dt>RelayState</dt>
      <dd id="relay-state">${relayState ?? 'None'}</dd>
    </dl>
    <h2>Attributes</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
}
