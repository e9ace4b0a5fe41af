// A signed SAML 2.0 Response with one Assertion, for the HTTP-POST binding.
//
// The XML is built with xmlbuilder2, never from string templates, so every value (a name holding
// `<b>&"x</b>` included) is escaped as text. The Assertion is signed first and then the Response
// around it (RSA-SHA256, exclusive c14n, enveloped): an SP that checks either signature finds it,
// and the Response signature covers the signed Assertion, Destination and InResponseTo.
import { create } from 'xmlbuilder2';
import { SignedXml } from 'xml-crypto';
import type { Random } from '../../adapters/random';
import type { SamlSigningKey } from '../../adapters/signing-keys';
import {
  AC_PASSWORD_PROTECTED_TRANSPORT,
  AC_REFEDS_MFA,
  ATTRNAME_BASIC,
  CM_BEARER,
  DIGEST_SHA256,
  ENVELOPED_SIGNATURE,
  EXC_C14N,
  NAMEID_PERSISTENT,
  RESPONSE_LIFETIME_MS,
  RSA_SHA256,
  SAML_ASSERTION_NS,
  SAML_PROTOCOL_NS,
  STATUS_SUCCESS,
} from './saml-constants';
import { xmlText } from './xml';

export interface SamlAttribute {
  name: string;
  value: string;
}

export interface SamlResponseInput {
  /** This identity provider's entity id (Issuer). */
  idpEntityId: string;
  /** The SP's registered entity id (Audience). */
  spEntityId: string;
  /** The SP's registered ACS URL (Destination and Recipient). */
  acsUrl: string;
  /** The AuthnRequest's ID when the SP asked (SP-initiated); null when the portal started it. */
  inResponseTo: string | null;
  /** Persistent, opaque subject identifier. */
  nameId: string;
  attributes: readonly SamlAttribute[];
  /** When the user signed in. */
  authnInstant: Date;
  /** Whether the sign-in passed a second factor. */
  multiFactor: boolean;
  now: Date;
  random: Random;
  key: SamlSigningKey;
  lifetimeMs?: number;
}

export interface SamlResponse {
  xml: string;
  /** What the browser posts as SAMLResponse. */
  base64: string;
  responseId: string;
  assertionId: string;
}

/** An xs:ID: a letter or underscore first, then 160 bits from the CSPRNG. */
export function newSamlId(random: Random): string {
  return `_${random.bytes(20).toString('hex')}`;
}

/** SAML's xs:dateTime in UTC with milliseconds. */
export function samlInstant(date: Date): string {
  return date.toISOString();
}

export function buildSamlResponse(input: SamlResponseInput): SamlResponse {
  const responseId = newSamlId(input.random);
  const assertionId = newSamlId(input.random);
  const now = input.now;
  const issueInstant = samlInstant(now);
  const notOnOrAfter = samlInstant(new Date(now.getTime() + (input.lifetimeMs ?? RESPONSE_LIFETIME_MS)));
  // A little slack before now, for SPs whose clock runs slightly behind ours.
  const notBefore = samlInstant(new Date(now.getTime() - 30_000));
  const inResponseTo = input.inResponseTo ? { InResponseTo: input.inResponseTo } : {};

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SAML_PROTOCOL_NS, 'samlp:Response', {
    'xmlns:saml': SAML_ASSERTION_NS,
    ID: responseId,
    Version: '2.0',
    IssueInstant: issueInstant,
    Destination: input.acsUrl,
    ...inResponseTo,
  });
  root.ele(SAML_ASSERTION_NS, 'saml:Issuer').txt(xmlText(input.idpEntityId));
  root.ele(SAML_PROTOCOL_NS, 'samlp:Status').ele(SAML_PROTOCOL_NS, 'samlp:StatusCode', {
    Value: STATUS_SUCCESS,
  });

  const assertion = root.ele(SAML_ASSERTION_NS, 'saml:Assertion', {
    ID: assertionId,
    Version: '2.0',
    IssueInstant: issueInstant,
  });
  assertion.ele(SAML_ASSERTION_NS, 'saml:Issuer').txt(xmlText(input.idpEntityId));
  const subject = assertion.ele(SAML_ASSERTION_NS, 'saml:Subject');
  subject
    .ele(SAML_ASSERTION_NS, 'saml:NameID', {
      Format: NAMEID_PERSISTENT,
      NameQualifier: input.idpEntityId,
      SPNameQualifier: input.spEntityId,
    })
    .txt(xmlText(input.nameId));
  subject
    .ele(SAML_ASSERTION_NS, 'saml:SubjectConfirmation', { Method: CM_BEARER })
    .ele(SAML_ASSERTION_NS, 'saml:SubjectConfirmationData', {
      NotOnOrAfter: notOnOrAfter,
      Recipient: input.acsUrl,
      ...inResponseTo,
    });
  assertion
    .ele(SAML_ASSERTION_NS, 'saml:Conditions', { NotBefore: notBefore, NotOnOrAfter: notOnOrAfter })
    .ele(SAML_ASSERTION_NS, 'saml:AudienceRestriction')
    .ele(SAML_ASSERTION_NS, 'saml:Audience')
    .txt(xmlText(input.spEntityId));
  assertion
    .ele(SAML_ASSERTION_NS, 'saml:AuthnStatement', {
      AuthnInstant: samlInstant(input.authnInstant),
      SessionIndex: assertionId,
    })
    .ele(SAML_ASSERTION_NS, 'saml:AuthnContext')
    .ele(SAML_ASSERTION_NS, 'saml:AuthnContextClassRef')
    .txt(input.multiFactor ? AC_REFEDS_MFA : AC_PASSWORD_PROTECTED_TRANSPORT);
  if (input.attributes.length > 0) {
    const statement = assertion.ele(SAML_ASSERTION_NS, 'saml:AttributeStatement');
    for (const attribute of input.attributes) {
      statement
        .ele(SAML_ASSERTION_NS, 'saml:Attribute', { Name: attribute.name, NameFormat: ATTRNAME_BASIC })
        .ele(SAML_ASSERTION_NS, 'saml:AttributeValue')
        .txt(xmlText(attribute.value));
    }
  }

  const unsigned = root.end({ headless: true, wellFormed: true });
  const assertionSigned = sign(
    unsigned,
    input.key,
    "/*[local-name(.)='Response']/*[local-name(.)='Assertion']",
  );
  const xml = sign(assertionSigned, input.key, "/*[local-name(.)='Response']");
  return { xml, base64: Buffer.from(xml, 'utf8').toString('base64'), responseId, assertionId };
}

/** Signs the element `target` selects, placing ds:Signature right after its Issuer (schema order). */
function sign(xml: string, key: SamlSigningKey, target: string): string {
  const signer = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificatePem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  signer.addReference({
    xpath: target,
    transforms: [ENVELOPED_SIGNATURE, EXC_C14N],
    digestAlgorithm: DIGEST_SHA256,
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}
