// The SAML identity provider's own endpoints (outside /rest/ui/: browsers and SPs reach them
// directly): metadata, and single sign-on by the HTTP-Redirect and HTTP-POST bindings.
//
// An accepted AuthnRequest becomes the context of the browser's session and the browser goes to
// the portal: '/' to sign in, or '/single-sign-on' when already signed in. A POST from an SP's
// site arrives without the portal's SameSite=Lax cookie, so it is answered with a redirect to the
// same request in the Redirect binding's form (a top-level GET, which carries the cookie) and is
// only checked and taken there; a signed POST keeps its enveloped signature through the hop.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuse } from '../../domain/errors';
import { samlMessages } from '../../domain/handoff/messages';
import {
  decodePostSamlRequest,
  decodeQueryValue,
  decodeRedirectSamlRequest,
  encodeRedirectSamlRequest,
  rawQueryParameters,
  readAuthnRequest,
  SamlRequestError,
} from '../../domain/handoff/saml-request';
import { MAX_RELAY_STATE_LENGTH } from '../../domain/handoff/service';
import { ownSessionOf, setSessionCookie } from '../session-cookie';

/** Form posts from SPs: base64 XML of up to 64 KiB, plus RelayState. */
const FORM_BODY_LIMIT_BYTES = 128 * 1024;

export const SAML_METADATA_PATH = '/saml/metadata';
export const SAML_SSO_PATH = '/saml/sso';

function refusal(error: unknown): unknown {
  if (!(error instanceof SamlRequestError)) return error;
  return error.status === 400
    ? refuse.invalid([{ fieldName: 'SAMLRequest', message: error.message }], error.message)
    : refuse.unprocessable(error.message);
}

function relayStateOf(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (value.length > MAX_RELAY_STATE_LENGTH) {
    throw refuse.invalid(
      [{ fieldName: 'RelayState', message: samlMessages.relayStateTooLong }],
      samlMessages.relayStateTooLong,
    );
  }
  return value;
}

/** Form fields of an application/x-www-form-urlencoded body; a repeated field is refused. */
export function formFields(body: unknown): Record<string, string> {
  return typeof body === 'object' && body !== null ? (body as Record<string, string>) : {};
}

/**
 * Registers a urlencoded body parser in the given (encapsulated) scope only: the /rest/ui/ calls
 * keep taking JSON alone.
 */
export function acceptFormPosts(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const fields: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of new URLSearchParams(body as string)) {
        if (name in fields) {
          done(refuse.invalid([{ fieldName: name, message: `${name} is repeated` }]), undefined);
          return;
        }
        fields[name] = value;
      }
      done(null, fields);
    },
  );
}

export async function samlRoutes(app: FastifyInstance): Promise<void> {
  const services = app.services;
  const { handoff, config } = services;
  const rateLimit = { max: config.rateLimitPerMinute, timeWindow: 60_000 };

  await app.register(async (scope) => {
    acceptFormPosts(scope);

    scope.get(SAML_METADATA_PATH, { config: { rateLimit } }, async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=300')
        .type('application/samlmetadata+xml; charset=utf-8')
        .send(handoff.metadata()),
    );

    // No automatic HEAD: a prefetch must not take the request's id.
    scope.get(
      SAML_SSO_PATH,
      { config: { rateLimit }, exposeHeadRoute: false },
      async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          const rawQuery = request.raw.url?.split('?', 2)[1] ?? '';
          const parameters = rawQueryParameters(rawQuery);
          const samlRequest = parameters.get('SAMLRequest');
          if (!samlRequest) {
            throw refuse.invalid(
              [{ fieldName: 'SAMLRequest', message: samlMessages.missingRequest }],
              samlMessages.missingRequest,
            );
          }
          const relayRaw = parameters.get('RelayState');
          const relayState = relayStateOf(relayRaw === undefined ? undefined : decodeQueryValue(relayRaw));
          const xml = decodeRedirectSamlRequest(decodeQueryValue(samlRequest));
          const checked = await handoff.checkAuthnRequest(xml, parameters);
          const existing = await ownSessionOf(request, services);
          const { issued, landing } = await handoff.acceptAuthnRequest(existing, checked, relayState);
          if (issued) setSessionCookie(reply, config, issued);
          return reply.header('cache-control', 'no-store').redirect(landing, 303);
        } catch (error) {
          throw refusal(error);
        }
      },
    );

    scope.post(SAML_SSO_PATH, { config: { rateLimit } }, async (request, reply) => {
      try {
        const fields = formFields(request.body);
        if (!fields.SAMLRequest) {
          throw refuse.invalid(
            [{ fieldName: 'SAMLRequest', message: samlMessages.missingRequest }],
            samlMessages.missingRequest,
          );
        }
        const relayState = relayStateOf(fields.RelayState);
        const xml = decodePostSamlRequest(fields.SAMLRequest);
        // Only readable requests make the hop; everything else is checked after it.
        readAuthnRequest(xml);
        const query = new URLSearchParams({ SAMLRequest: encodeRedirectSamlRequest(xml) });
        if (relayState !== null) query.set('RelayState', relayState);
        return reply.header('cache-control', 'no-store').redirect(`${SAML_SSO_PATH}?${query}`, 303);
      } catch (error) {
        throw refusal(error);
      }
    });
  });
}
