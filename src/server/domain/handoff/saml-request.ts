// Reading an SP's AuthnRequest: the HTTP-Redirect binding (DEFLATE, base64, URL parameters, a
// detached signature over the query string) and the HTTP-POST binding (base64, an enveloped XML
// signature). Nothing here trusts the request before its issuer is known and, when that SP has a
// registered signing certificate, before its signature is checked against that certificate only
// (a certificate inside the request is never used).
import { verify as verifySignature, X509Certificate } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import {
  BINDING_HTTP_POST,
  DIGEST_SHA256,
  ENVELOPED_SIGNATURE,
  EXC_C14N,
  RSA_SHA256,
  RSA_SHA512,
  SAML_ASSERTION_NS,
  SAML_PROTOCOL_NS,
  XMLDSIG_NS,
} from './saml-constants';
import { childElements, MAX_REQUEST_XML_BYTES, parseStrictXml, textOf, XmlInputError } from './xml';

export interface AuthnRequest {
  id: string;
  issueInstant: Date;
  issuer: string;
  /** AssertionConsumerServiceURL, when the SP named one. */
  acsUrl: string | null;
  /** Destination, when the SP named one. */
  destination: string | null;
  protocolBinding: string | null;
  forceAuthn: boolean;
  isPassive: boolean;
}

/** A request that cannot be read at all (400) or that this IdP will not answer (422). */
export class SamlRequestError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 422 = 422,
  ) {
    super(message);
    this.name = 'SamlRequestError';
  }
}

const MAX_PARAMETER_LENGTH = 96 * 1024;
const DIGEST_SHA512 = 'http://www.w3.org/2001/04/xmlenc#sha512';
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const SIGNATURE_HASHES: Readonly<Record<string, string>> = { [RSA_SHA256]: 'sha256', [RSA_SHA512]: 'sha512' };
const ALLOWED_TRANSFORMS = new Set([ENVELOPED_SIGNATURE, EXC_C14N, C14N]);
const ALLOWED_DIGESTS = new Set([DIGEST_SHA256, DIGEST_SHA512]);
/** SAML's xs:ID is an NCName; quotes could never be part of one (and would break an XPath). */
const ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,255}$/;

function base64Bytes(value: string): Buffer {
  const compact = value.replace(/\s+/g, '');
  if (
    compact.length === 0 ||
    compact.length > MAX_PARAMETER_LENGTH ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)
  ) {
    throw new SamlRequestError('SAMLRequest is not base64', 400);
  }
  return Buffer.from(compact, 'base64');
}

/** HTTP-Redirect: base64 of the DEFLATE (raw) of the XML. */
export function decodeRedirectSamlRequest(value: string): string {
  try {
    return inflateRawSync(base64Bytes(value), { maxOutputLength: MAX_REQUEST_XML_BYTES }).toString('utf8');
  } catch (error) {
    if (error instanceof SamlRequestError) throw error;
    throw new SamlRequestError('SAMLRequest cannot be inflated', 400);
  }
}

/** HTTP-POST: base64 of the XML. */
export function decodePostSamlRequest(value: string): string {
  const bytes = base64Bytes(value);
  if (bytes.length > MAX_REQUEST_XML_BYTES) throw new SamlRequestError('SAMLRequest is too large', 400);
  return bytes.toString('utf8');
}

/** The XML of a request as the Redirect binding carries it (for converting a POST into one). */
export function encodeRedirectSamlRequest(xml: string): string {
  return deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64');
}

function attribute(element: Element, name: string): string | null {
  return element.hasAttribute(name) ? element.getAttribute(name) : null;
}

function parseInstant(value: string | null): Date {
  // xs:dateTime in UTC, as SAML requires ("Z"), with optional fractions of a second.
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/.test(value)) {
    throw new SamlRequestError('The AuthnRequest has no valid IssueInstant', 400);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new SamlRequestError('The AuthnRequest has no valid IssueInstant', 400);
  return date;
}

function isTrue(value: string | null): boolean {
  return value === 'true' || value === '1';
}

/** Reads the AuthnRequest's fields; throws SamlRequestError (400) when it is not one. */
export function readAuthnRequest(xml: string): AuthnRequest {
  let root: Element;
  try {
    root = parseStrictXml(xml).documentElement!;
  } catch (error) {
    if (error instanceof XmlInputError)
      throw new SamlRequestError(`SAMLRequest is not valid XML (${error.message})`, 400);
    throw error;
  }
  if (root.namespaceURI !== SAML_PROTOCOL_NS || root.localName !== 'AuthnRequest') {
    throw new SamlRequestError('SAMLRequest is not an AuthnRequest', 400);
  }
  if (attribute(root, 'Version') !== '2.0')
    throw new SamlRequestError('The AuthnRequest is not SAML 2.0', 400);
  const id = attribute(root, 'ID');
  if (!id || !ID_PATTERN.test(id)) throw new SamlRequestError('The AuthnRequest has no valid ID', 400);
  const issuers = childElements(root, SAML_ASSERTION_NS, 'Issuer');
  const issuer = issuers.length === 1 ? textOf(issuers[0]!) : '';
  if (!issuer) throw new SamlRequestError('The AuthnRequest has no Issuer', 400);
  return {
    id,
    issueInstant: parseInstant(attribute(root, 'IssueInstant')),
    issuer,
    acsUrl: attribute(root, 'AssertionConsumerServiceURL'),
    destination: attribute(root, 'Destination'),
    protocolBinding: attribute(root, 'ProtocolBinding'),
    forceAuthn: isTrue(attribute(root, 'ForceAuthn')),
    isPassive: isTrue(attribute(root, 'IsPassive')),
  };
}

/** What an IdP that only answers by HTTP-POST can answer. */
export function checkAnswerable(request: AuthnRequest): void {
  if (request.protocolBinding !== null && request.protocolBinding !== BINDING_HTTP_POST) {
    throw new SamlRequestError('Only the HTTP-POST binding is supported for responses');
  }
  if (request.isPassive) throw new SamlRequestError('Passive sign-in is not supported');
}

/**
 * The raw (still URL-encoded) query parameters, as the Redirect binding's signature covers them.
 * A repeated parameter is refused: which copy was signed would be anyone's guess.
 */
export function rawQueryParameters(rawQuery: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      throw new SamlRequestError('The query string is malformed', 400);
    }
    if (out.has(name)) throw new SamlRequestError(`The parameter ${name} is repeated`, 400);
    out.set(name, eq < 0 ? '' : part.slice(eq + 1));
  }
  return out;
}

export function decodeQueryValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new SamlRequestError('The query string is malformed', 400);
  }
}

function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function publicKeyOf(certificatePem: string) {
  try {
    return new X509Certificate(certificatePem).publicKey;
  } catch {
    throw new Error('The registered SP signing certificate cannot be read');
  }
}

/**
 * HTTP-Redirect binding signature (SAML bindings 3.4.4.1): over
 * `SAMLRequest=...&RelayState=...&SigAlg=...` exactly as the values were encoded in the URL.
 */
export function verifyRedirectSignature(raw: Map<string, string>, certificatePem: string): void {
  const signature = raw.get('Signature');
  const sigAlgRaw = raw.get('SigAlg');
  if (!signature || !sigAlgRaw) throw new SamlRequestError('The AuthnRequest must be signed');
  const hash = SIGNATURE_HASHES[decodeQueryValue(sigAlgRaw)];
  if (!hash) throw new SamlRequestError('The AuthnRequest signature algorithm is not accepted');
  const names = ['SAMLRequest', 'RelayState', 'SigAlg'].filter((name) => raw.has(name));
  const asSent = names.map((name) => `${name}=${raw.get(name)}`).join('&');
  // Some SPs sign one encoding of the values and send another (spaces as '+' in the URL, %20 in
  // what was signed): the same values, so the same message; those encodings are tried too.
  const reencoded = [encodeURIComponent, rfc3986].map((encode) =>
    names.map((name) => `${name}=${encode(decodeQueryValue(raw.get(name)!))}`).join('&'),
  );
  const key = publicKeyOf(certificatePem);
  const signatureBytes = Buffer.from(decodeQueryValue(signature), 'base64');
  const ok = [asSent, ...reencoded].some((text) =>
    verifySignature(hash, Buffer.from(text, 'utf8'), key, signatureBytes),
  );
  if (!ok) throw new SamlRequestError('The AuthnRequest signature is not valid');
}

/**
 * HTTP-POST binding: one enveloped signature, a direct child of the AuthnRequest, whose one
 * reference is the AuthnRequest itself (no signature-wrapping: the ID must name exactly that
 * element). Answers the XML that was signed, which is all the caller may read from then on.
 */
export function verifyEmbeddedSignature(xml: string, certificatePem: string): string {
  const document = parseStrictXml(xml);
  const root = document.documentElement!;
  const signatures = childElements(root, XMLDSIG_NS, 'Signature');
  if (signatures.length !== 1) throw new SamlRequestError('The AuthnRequest must be signed');
  const signatureElement = signatures[0]!;
  const id = root.getAttribute('ID') ?? '';
  if (!ID_PATTERN.test(id)) throw new SamlRequestError('The AuthnRequest has no valid ID', 400);

  const methods = signatureElement.getElementsByTagNameNS(XMLDSIG_NS, 'SignatureMethod');
  if (methods.length !== 1 || !SIGNATURE_HASHES[methods[0]!.getAttribute('Algorithm') ?? '']) {
    throw new SamlRequestError('The AuthnRequest signature algorithm is not accepted');
  }
  for (const digest of Array.from(signatureElement.getElementsByTagNameNS(XMLDSIG_NS, 'DigestMethod'))) {
    if (!ALLOWED_DIGESTS.has(digest.getAttribute('Algorithm') ?? '')) {
      throw new SamlRequestError('The AuthnRequest digest algorithm is not accepted');
    }
  }
  const transforms = Array.from(signatureElement.getElementsByTagNameNS(XMLDSIG_NS, 'Transform'));
  if (
    transforms.length > 2 ||
    transforms.some((t) => !ALLOWED_TRANSFORMS.has(t.getAttribute('Algorithm') ?? ''))
  ) {
    throw new SamlRequestError('The AuthnRequest signature transforms are not accepted');
  }
  let sameId = 0;
  const all = document.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    const element = all[i]!;
    if (['ID', 'Id', 'id'].some((name) => element.getAttribute(name) === id)) sameId++;
  }
  if (sameId !== 1) throw new SamlRequestError('The AuthnRequest signature is not valid');

  const verifier = new SignedXml({ publicCert: certificatePem });
  verifier.loadSignature(signatureElement.toString());
  const references = verifier.getReferences();
  if (references.length !== 1 || references[0]!.uri !== `#${id}`) {
    throw new SamlRequestError('The AuthnRequest signature does not cover the request');
  }
  let valid: boolean;
  try {
    valid = verifier.checkSignature(xml);
  } catch {
    valid = false;
  }
  const signed = verifier.getSignedReferences();
  if (!valid || signed.length !== 1) throw new SamlRequestError('The AuthnRequest signature is not valid');
  return signed[0]!;
}
