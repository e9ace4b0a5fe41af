// A demo SAML service provider (LOANS, PAYROLL) built on @node-saml/node-saml, an SP library
// independent of our IdP code. It knows only what a real SP would: its own entity id and ACS URL,
// and the IdP's metadata (entity id, SSO URL, signing certificate) as published at /saml/metadata.
//
// node-saml checks the signatures, Conditions (time, Audience) and InResponseTo. What it leaves to
// the application is checked here: before node-saml reads the document, that it is one well-formed
// samlp:Response with no DTD, entity, comment, CDATA or processing instruction (so nothing the
// signatures skip, such as a comment splitting a NameID, can change what is read); after it, the
// Status, both Issuers, Destination, and a bearer confirmation for this ACS that has not expired;
// last, that the assertion was not accepted before (replay), through `AssertionLedger`.
//
// The ids of the requests this SP sent live in a cookie scoped to the SP's path (not in process
// memory), so any server instance can finish the round trip.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import {
  CM_BEARER,
  NAMEID_PERSISTENT,
  SAML_ASSERTION_NS,
  SAML_METADATA_NS,
  SAML_PROTOCOL_NS,
  STATUS_SUCCESS,
  XMLDSIG_NS,
} from '../../domain/handoff/saml-constants';

export interface DemoSamlSpConfig {
  /** The app code the SP stands for (LOANS, PAYROLL). */
  code: string;
  entityId: string;
  acsUrl: string;
  /** The IdP's metadata document. */
  idpMetadata: string;
}

export interface IdpFromMetadata {
  entityId: string;
  ssoUrl: string;
  certificate: string;
}

/** Reads what an SP needs from IdP metadata. */
export function readIdpMetadata(xml: string): IdpFromMetadata {
  const document = new DOMParser().parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (!root || root.namespaceURI !== SAML_METADATA_NS || root.localName !== 'EntityDescriptor') {
    throw new Error('Not SAML metadata');
  }
  const sso = Array.from(root.getElementsByTagNameNS(SAML_METADATA_NS, 'SingleSignOnService')).find(
    (e) => e.getAttribute('Binding') === 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  );
  const certificate = root.getElementsByTagNameNS(XMLDSIG_NS, 'X509Certificate')[0]?.textContent?.trim();
  const entityId = root.getAttribute('entityID');
  if (!sso || !certificate || !entityId) throw new Error('The IdP metadata lacks an endpoint or certificate');
  return { entityId, ssoUrl: sso.getAttribute('Location') ?? '', certificate };
}

/** Request ids this SP has sent, with their instants: what the cookie carries. */
export type SentRequests = Record<string, string>;

/** node-saml's request-id cache over the cookie's content for one request. */
class CookieCache implements CacheProvider {
  constructor(readonly sent: SentRequests) {}
  async saveAsync(key: string, value: string) {
    this.sent[key] = value;
    return { value, createdAt: Date.now() };
  }
  async getAsync(key: string) {
    return this.sent[key] ?? null;
  }
  async removeAsync(key: string | null) {
    if (key === null || !(key in this.sent)) return null;
    const value = this.sent[key]!;
    delete this.sent[key];
    return value;
  }
}

/** How long this SP waits for the answer to a request it sent. */
export const REQUEST_WAIT_MS = 10 * 60_000;
/** How far this SP's clock and the IdP's may disagree. */
const CLOCK_SKEW_MS = 5_000;

function samlFor(config: DemoSamlSpConfig, sent: SentRequests) {
  const idp = readIdpMetadata(config.idpMetadata);
  return {
    idp,
    saml: new SAML({
      entryPoint: idp.ssoUrl,
      issuer: config.entityId,
      callbackUrl: config.acsUrl,
      audience: config.entityId,
      idpIssuer: idp.entityId,
      idpCert: idp.certificate,
      identifierFormat: NAMEID_PERSISTENT,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: true,
      validateInResponseTo: ValidateInResponseTo.ifPresent,
      requestIdExpirationPeriodMs: REQUEST_WAIT_MS,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      cacheProvider: new CookieCache(sent),
    }),
  };
}

/** The IdP URL that carries a new AuthnRequest (HTTP-Redirect binding); `sent` gains its id. */
export async function authnRequestUrl(
  config: DemoSamlSpConfig,
  sent: SentRequests,
  relayState: string,
): Promise<string> {
  return samlFor(config, sent).saml.getAuthorizeUrlAsync(relayState, undefined, {});
}

export interface AcceptedAssertion {
  nameId: string;
  nameIdFormat: string;
  issuer: string;
  /** The request this answers, or null for an IdP-initiated response. */
  inResponseTo: string | null;
  sessionIndex: string | null;
  attributes: Array<{ name: string; value: string }>;
  facilityCode: string | null;
  authnContext: string | null;
  notOnOrAfter: string | null;
}

export type AcsVerdict = { ok: true; assertion: AcceptedAssertion } | { ok: false; reason: string };

function only(values: unknown): string {
  return Array.isArray(values) ? values.map(String).join(', ') : String(values);
}

/** Remembers accepted assertions: `claim` answers false when the assertion was accepted before. */
export interface AssertionLedger {
  claim(assertionId: string, expiresAt: Date): Promise<boolean>;
}

const refused = (reason: string): AcsVerdict => ({ ok: false, reason });

/**
 * Why the document must not be given to a SAML library at all, or null: it must be one
 * samlp:Response and nothing else, without DTD, entities, comments, CDATA sections or processing
 * instructions (only the XML declaration). The signatures' canonicalization drops comments, so a
 * comment could split a signed value (`C10001<!---->.evil`) without breaking a signature.
 */
export function screenDocument(xml: string): string | null {
  // `<!` and `<?` are always markup in well-formed XML (never inside attribute values or text).
  if (xml.includes('<!')) return 'The response carries a DTD, entity, comment or CDATA section';
  if (/<\?/.test(xml.replace(/^\uFEFF?<\?xml\s[^?>]*\?>/, ''))) {
    return 'The response carries a processing instruction';
  }
  let problem: string | null = null;
  const document = new DOMParser({
    onError: (level, message) => {
      problem ??= `The response is not well-formed XML (${level}: ${message.split('\n')[0]})`;
      throw new Error(problem);
    },
  });
  let root: Element | null | undefined;
  try {
    const parsed = document.parseFromString(xml, 'text/xml');
    if (problem) return problem;
    const nodes = Array.from(parsed.childNodes);
    const elements = nodes.filter((n) => n.nodeType === n.ELEMENT_NODE);
    const others = nodes.filter(
      (n) =>
        n.nodeType !== n.ELEMENT_NODE &&
        !(n.nodeType === n.PROCESSING_INSTRUCTION_NODE && n.nodeName === 'xml' && n === nodes[0]),
    );
    if (elements.length !== 1 || others.length > 0) return 'The response must be exactly one element';
    root = parsed.documentElement;
  } catch (error) {
    return problem ?? (error instanceof Error ? error.message : String(error));
  }
  if (root?.namespaceURI !== SAML_PROTOCOL_NS || root.localName !== 'Response') {
    return 'The document is not a SAML Response';
  }
  return null;
}

function children(parent: Element, ns: string, localName: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (n): n is Element =>
      n.nodeType === n.ELEMENT_NODE &&
      (n as Element).namespaceURI === ns &&
      (n as Element).localName === localName,
  );
}

function issuerOf(element: Element): string | null {
  const issuers = children(element, SAML_ASSERTION_NS, 'Issuer');
  return issuers.length === 1 ? (issuers[0]!.textContent ?? '').trim() : null;
}

function instant(value: string | null): number | null {
  if (!value || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Validates a posted SAMLResponse; `sent` loses the id it answers. */
export async function validateResponse(
  config: DemoSamlSpConfig,
  sent: SentRequests,
  samlResponse: string,
  ledger: AssertionLedger,
): Promise<AcsVerdict> {
  if (!/^[A-Za-z0-9+/\r\n]+={0,2}\s*$/.test(samlResponse)) return refused('The response is not base64');
  const screened = screenDocument(Buffer.from(samlResponse, 'base64').toString('utf8'));
  if (screened) return refused(screened);

  const { idp, saml } = samlFor(config, sent);
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    return refused(error instanceof Error ? error.message : String(error));
  }
  if (!profile) return refused('The response carries no assertion');

  // The response's root carries the signature node-saml verified (it must be the root and the only
  // element with its ID); the assertion is the one its verified signature covered.
  const responseXml = profile.getSamlResponseXml?.() ?? '';
  const assertionXml = profile.getAssertionXml?.() ?? '';
  let response: Element | null | undefined;
  let assertion: Element | null | undefined;
  try {
    response = new DOMParser().parseFromString(responseXml, 'text/xml').documentElement;
    assertion = new DOMParser().parseFromString(assertionXml, 'text/xml').documentElement;
  } catch {
    return refused('The response cannot be read');
  }
  if (!response || !assertion) return refused('The response cannot be read');

  const status = children(response, SAML_PROTOCOL_NS, 'Status')[0];
  const statusCode = status && children(status, SAML_PROTOCOL_NS, 'StatusCode')[0];
  if (statusCode?.getAttribute('Value') !== STATUS_SUCCESS)
    return refused('The response does not report success');
  const responseIssuer = issuerOf(response);
  if (responseIssuer !== null && responseIssuer !== idp.entityId) {
    return refused(`The response was issued by ${responseIssuer}, not ${idp.entityId}`);
  }
  const assertionIssuer = issuerOf(assertion);
  if (assertionIssuer !== idp.entityId) {
    return refused(`The assertion was issued by ${assertionIssuer ?? 'no one'}, not ${idp.entityId}`);
  }
  const destination = response.getAttribute('Destination');
  if (destination !== config.acsUrl) {
    return refused(`The response is addressed to ${destination || 'no one'}, not to ${config.acsUrl}`);
  }

  // A bearer confirmation for this ACS that has not expired, answering what the response answers.
  const inResponseTo = response.getAttribute('InResponseTo') || null;
  const subject = children(assertion, SAML_ASSERTION_NS, 'Subject')[0];
  const confirmations = subject ? children(subject, SAML_ASSERTION_NS, 'SubjectConfirmation') : [];
  const data = confirmations.map((c) => children(c, SAML_ASSERTION_NS, 'SubjectConfirmationData')[0]);
  const now = Date.now();
  if (
    confirmations.length === 0 ||
    confirmations.some((c) => c.getAttribute('Method') !== CM_BEARER) ||
    data.some((d) => d === undefined)
  ) {
    return refused('The assertion has no bearer confirmation');
  }
  if (data.some((d) => d!.getAttribute('Recipient') !== config.acsUrl)) {
    return refused(`The assertion's Recipient is not ${config.acsUrl}`);
  }
  if (data.some((d) => (d!.getAttribute('InResponseTo') || null) !== inResponseTo)) {
    return refused('The assertion answers another request than the response');
  }
  const confirmationEnds = data.map((d) => instant(d!.getAttribute('NotOnOrAfter')));
  if (confirmationEnds.some((end) => end === null || now - CLOCK_SKEW_MS >= end)) {
    return refused('The bearer confirmation has expired');
  }
  if (data.some((d) => d!.hasAttribute('NotBefore'))) {
    return refused('A bearer confirmation must not carry NotBefore');
  }
  const conditions = children(assertion, SAML_ASSERTION_NS, 'Conditions')[0];
  const conditionsEnd = instant(conditions?.getAttribute('NotOnOrAfter') ?? null);
  if (conditionsEnd === null) return refused('The assertion has no validity period');

  const assertionId = assertion.getAttribute('ID');
  if (!assertionId) return refused('The assertion has no ID');
  const keepUntil = new Date(Math.max(conditionsEnd, ...(confirmationEnds as number[])) + CLOCK_SKEW_MS);
  if (!(await ledger.claim(assertionId, keepUntil))) {
    return refused('The assertion was presented before (replay)');
  }

  const attributes = Object.entries((profile.attributes ?? {}) as Record<string, unknown>).map(
    ([name, value]) => ({
      name,
      value: only(value),
    }),
  );
  return {
    ok: true,
    assertion: {
      nameId: profile.nameID,
      nameIdFormat: profile.nameIDFormat,
      issuer: profile.issuer,
      inResponseTo,
      sessionIndex: profile.sessionIndex ?? null,
      attributes,
      facilityCode: attributes.find((a) => a.name === 'facilityCode')?.value ?? null,
      authnContext:
        assertion.getElementsByTagNameNS(SAML_ASSERTION_NS, 'AuthnContextClassRef')[0]?.textContent?.trim() ??
        null,
      notOnOrAfter: data[0]!.getAttribute('NotOnOrAfter'),
    },
  };
}

/** The cookie's text for the requests still awaited (older ones are dropped). */
export function encodeSentRequests(sent: SentRequests, now: number): string {
  const fresh = Object.entries(sent).filter(([, instant]) => now - Date.parse(instant) < REQUEST_WAIT_MS);
  // A handful at most: a user with many tabs open on the start page.
  return Buffer.from(JSON.stringify(Object.fromEntries(fresh.slice(-5))), 'utf8').toString('base64url');
}

export function decodeSentRequests(value: string | undefined): SentRequests {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const out: SentRequests = {};
    for (const [key, instant] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof instant === 'string' && /^[A-Za-z_][\w.-]{0,255}$/.test(key)) out[key] = instant;
    }
    return out;
  } catch {
    return {};
  }
}
