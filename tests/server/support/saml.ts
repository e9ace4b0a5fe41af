// An independent SAML service provider for the server tests: @node-saml/node-saml validates what
// our IdP sends (signatures, Issuer, time, Audience, InResponseTo), and the checks node-saml leaves
// to the application (Destination and the bearer Recipient) are made here with @xmldom/xmldom.
// Also builders of AuthnRequests for the cases node-saml would never produce (old, replayed,
// foreign, tampered).
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { ValidateInResponseTo } from '@node-saml/node-saml';
import { SAML, type Profile } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { create } from 'xmlbuilder2';

export const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
export const DS = 'http://www.w3.org/2000/09/xmldsig#';

export interface IdpInfo {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER, as in the metadata. */
  certificate: string;
  ssoBindings: string[];
}

/** Reads the IdP metadata document. */
export function readMetadata(xml: string): IdpInfo {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
  if (root.namespaceURI !== MD || root.localName !== 'EntityDescriptor') throw new Error('not metadata');
  const services = Array.from(root.getElementsByTagNameNS(MD, 'SingleSignOnService'));
  return {
    entityId: root.getAttribute('entityID') ?? '',
    ssoUrl: services[0]?.getAttribute('Location') ?? '',
    certificate: (root.getElementsByTagNameNS(DS, 'X509Certificate')[0]?.textContent ?? '').trim(),
    ssoBindings: services.map((s) => s.getAttribute('Binding') ?? ''),
  };
}

export interface TestSpOptions {
  entityId: string;
  acsUrl: string;
  idp: IdpInfo;
  /** Signs the AuthnRequests it sends (HTTP-Redirect) with this PEM key. */
  privateKey?: string;
  /** 'always' for SP-initiated round trips. */
  validateInResponseTo?: 'never' | 'ifPresent' | 'always';
}

/** A node-saml SP with an in-memory request cache (it lives as long as the test). */
export function testSp(options: TestSpOptions): SAML {
  return new SAML({
    entryPoint: options.idp.ssoUrl,
    issuer: options.entityId,
    callbackUrl: options.acsUrl,
    audience: options.entityId,
    idpIssuer: options.idp.entityId,
    idpCert: options.idp.certificate,
    identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: (options.validateInResponseTo ?? 'ifPresent') as ValidateInResponseTo,
    ...(options.privateKey ? { privateKey: options.privateKey, signatureAlgorithm: 'sha256' as const } : {}),
  });
}

export function decodeResponse(base64: string): string {
  return Buffer.from(base64, 'base64').toString('utf8');
}

export interface Checked {
  profile: Profile;
  destination: string | null;
  recipients: string[];
  inResponseTo: string | null;
  responseXml: string;
}

/**
 * Validates with node-saml, then requires Destination and every bearer Recipient to be the ACS URL
 * (read from the documents node-saml verified).
 */
export async function validateAtAcs(sp: SAML, acsUrl: string, samlResponse: string): Promise<Checked> {
  const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse });
  if (!profile) throw new Error('no profile');
  const responseXml = profile.getSamlResponseXml!();
  const response = new DOMParser().parseFromString(responseXml, 'text/xml').documentElement!;
  const assertion = new DOMParser().parseFromString(profile.getAssertionXml!(), 'text/xml').documentElement!;
  const destination = response.getAttribute('Destination');
  const recipients = Array.from(assertion.getElementsByTagNameNS(SAML_NS, 'SubjectConfirmationData')).map(
    (e) => e.getAttribute('Recipient') ?? '',
  );
  if (destination !== acsUrl) throw new Error(`Destination ${destination} is not ${acsUrl}`);
  if (recipients.length === 0 || recipients.some((r) => r !== acsUrl)) {
    throw new Error(`Recipient ${recipients.join(',')} is not ${acsUrl}`);
  }
  return {
    profile,
    destination,
    recipients,
    inResponseTo: response.getAttribute('InResponseTo') || null,
    responseXml,
  };
}

export interface AuthnRequestFields {
  id?: string;
  issuer: string;
  issueInstant?: Date;
  acsUrl?: string | null;
  destination?: string | null;
  protocolBinding?: string | null;
  forceAuthn?: boolean;
  isPassive?: boolean;
}

export function newRequestId(): string {
  return `_${randomBytes(16).toString('hex')}`;
}

/** An AuthnRequest document (unsigned). */
export function authnRequestXml(fields: AuthnRequestFields): string {
  const attributes: Record<string, string> = {
    'xmlns:saml': SAML_NS,
    ID: fields.id ?? newRequestId(),
    Version: '2.0',
    IssueInstant: (fields.issueInstant ?? new Date()).toISOString(),
  };
  if (fields.destination) attributes.Destination = fields.destination;
  if (fields.acsUrl) attributes.AssertionConsumerServiceURL = fields.acsUrl;
  if (fields.protocolBinding !== null) {
    attributes.ProtocolBinding = fields.protocolBinding ?? 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
  }
  if (fields.forceAuthn) attributes.ForceAuthn = 'true';
  if (fields.isPassive) attributes.IsPassive = 'true';
  const root = create().ele(SAMLP, 'samlp:AuthnRequest', attributes);
  root.ele(SAML_NS, 'saml:Issuer').txt(fields.issuer);
  return root.end({ headless: true });
}

/** The query string of the HTTP-Redirect binding for a document (unsigned). */
export function redirectQuery(xml: string, relayState?: string): string {
  const query = new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64') });
  if (relayState !== undefined) query.set('RelayState', relayState);
  return query.toString();
}

/** An enveloped RSA-SHA256 signature over the AuthnRequest, after its Issuer (HTTP-POST binding). */
export function signAuthnRequest(xml: string, privateKey: string): string {
  const signer = new SignedXml({
    privateKey,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: "/*[local-name(.)='AuthnRequest']",
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: "/*[local-name(.)='AuthnRequest']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return signer.getSignedXml();
}

/** The path and query of an absolute URL (the test server listens elsewhere than PUBLIC_URL). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
