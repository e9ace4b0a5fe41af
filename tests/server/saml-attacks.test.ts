// Known-bad SAML inputs at the demo service providers' ACS: every variant starts from a genuine
// response our IdP signed (IdP-initiated handoff of C10001 to PAYROLL or LOANS, or an SP-initiated
// round trip), is tampered with, and is posted over real HTTP. Each must be refused without showing
// a signed-in user, and the genuine response must still be accepted afterwards: the refusal came
// from the tampering, and a refused post consumes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import {
  generateSigningKeys,
  type SamlSigningKey,
  type SigningKeys,
} from '../../src/server/adapters/signing-keys';
import { API, startServer, type TestClient, type TestServer } from './support/server';
import { DS, SAML_NS, SAMLP, decodeResponse, pathOf } from './support/saml';
import { targets } from './support/targets';

const PUBLIC_URL = 'http://localhost:8080';
const PAYROLL_ACS = `${PUBLIC_URL}/demo-sp/PAYROLL/acs`;
const LOANS_ACS = `${PUBLIC_URL}/demo-sp/LOANS/acs`;
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

interface HandoffSaml {
  assertionConsumerServiceUrl: string;
  samlResponse: string;
  relayState: string | null;
}

let idpKeys: SigningKeys;
let attackerKeys: SigningKeys;
beforeAll(async () => {
  [idpKeys, attackerKeys] = await Promise.all([generateSigningKeys(PUBLIC_URL), generateSigningKeys()]);
});

// ---- XML surgery -------------------------------------------------------------------------------

const parse = (xml: string): Document => new DOMParser().parseFromString(xml, 'text/xml');
const serialize = (node: Document | Element): string => new XMLSerializer().serializeToString(node);

function one(scope: Document | Element, ns: string, localName: string, index = 0): Element {
  const found = scope.getElementsByTagNameNS(ns, localName)[index];
  if (!found) throw new Error(`No ${localName} #${index}`);
  return found;
}

/** The ds:Signature that is a direct child of `element`. */
function ownSignature(element: Element): Element {
  const signature = Array.from(element.childNodes).find(
    (n): n is Element => n.nodeType === 1 && (n as Element).localName === 'Signature',
  );
  if (!signature) throw new Error(`${element.localName} has no signature`);
  return signature;
}

function attributeValue(scope: Document | Element, name: string): Element {
  const attribute = Array.from(scope.getElementsByTagNameNS(SAML_NS, 'Attribute')).find(
    (a) => a.getAttribute('Name') === name,
  );
  if (!attribute) throw new Error(`No attribute ${name}`);
  return one(attribute, SAML_NS, 'AttributeValue');
}

function setText(element: Element, text: string) {
  while (element.firstChild) element.removeChild(element.firstChild);
  element.appendChild(element.ownerDocument!.createTextNode(text));
}

/** An attacker's copy of the signed assertion: unsigned, another ID, another user. */
function evilAssertion(signed: Element, id = '_evil0000000000000000000000000000000000000'): Element {
  const evil = signed.cloneNode(true) as Element;
  evil.removeChild(ownSignature(evil));
  evil.setAttribute('ID', id);
  setText(one(evil, SAML_NS, 'NameID'), 'attacker-subject');
  setText(attributeValue(evil, 'username'), 'admin1');
  setText(attributeValue(evil, 'name'), 'Mallory');
  return evil;
}

function parts(xml: string) {
  const doc = parse(xml);
  const response = doc.documentElement!;
  const assertion = one(doc, SAML_NS, 'Assertion');
  return { doc, response, assertion };
}

/** Removes every signature and signs the Assertion, then the Response, as the IdP does. */
function resign(doc: Document, key: SamlSigningKey, withKeyInfo = true): string {
  for (const signature of Array.from(doc.getElementsByTagNameNS(DS, 'Signature'))) {
    signature.parentNode!.removeChild(signature);
  }
  const assertionSigned = sign(
    serialize(doc),
    key,
    "/*[local-name(.)='Response']/*[local-name(.)='Assertion']",
    withKeyInfo,
  );
  return sign(assertionSigned, key, "/*[local-name(.)='Response']", withKeyInfo);
}

function sign(xml: string, key: SamlSigningKey, target: string, withKeyInfo: boolean): string {
  const signer = new SignedXml({
    privateKey: key.privateKey,
    publicCert: withKeyInfo ? key.certificatePem : undefined,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  signer.addReference({
    xpath: target,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', EXC_C14N],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
const SIGNATURE = /signature/i;
const COMMENT = /comment/;
const DTD = /DTD, entity/;
const shownText = (html: string, id: string) =>
  new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1]?.trim();

describe.each(targets)('the demo service providers refuse known-bad SAML on $name', (target) => {
  let server: TestServer;
  let user: TestClient;

  beforeAll(async () => {
    server = await startServer(target, { deps: { signingKeys: idpKeys } });
    user = server.client();
    expect((await user.login('C10001')).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A fresh, genuine IdP-initiated response for C10001 (PAYROLL, or LOANS at F001). */
  async function genuine(appCode: 'PAYROLL' | 'LOANS' = 'PAYROLL'): Promise<string> {
    const res = await user.post<{ saml: HandoffSaml }>(`${API}current-user/saml-handoff`, {
      appCode,
      facilityCode: appCode === 'LOANS' ? 'F001' : null,
    });
    expect(res.status).toBe(200);
    return decodeResponse(res.body.saml.samlResponse);
  }

  function post(acsUrl: string, samlResponse: string, client: TestClient = server.client()) {
    return client.request('POST', pathOf(acsUrl), {
      raw: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      requestedWith: false,
    });
  }

  async function expectRefused(xml: string, acsUrl = PAYROLL_ACS, client?: TestClient) {
    const res = await post(acsUrl, base64(xml), client);
    const verdict = shownText(res.text, 'verdict') ?? '';
    expect(res.status, verdict).toBe(400);
    expect(verdict).toMatch(/^(Payroll|Loans) rejected the response: \S/);
    expect(res.text).not.toContain('validated the response');
    expect(res.text).not.toContain('id="username"');
    expect(res.text).not.toContain('id="subject"');
    expect(res.text).not.toContain('Signed in');
    return verdict;
  }

  async function expectAccepted(xml: string, acsUrl = PAYROLL_ACS, client?: TestClient) {
    const res = await post(acsUrl, base64(xml), client);
    expect(res.status, shownText(res.text, 'verdict')).toBe(200);
    expect(shownText(res.text, 'username')).toBe('C10001');
    return res;
  }

  /** Tampers with a fresh genuine response; the result is refused and the original then accepted. */
  async function refusedThenGenuineAccepted(
    tamper: (xml: string) => string,
    reason: RegExp,
    app: 'PAYROLL' | 'LOANS' = 'PAYROLL',
  ): Promise<void> {
    const acs = app === 'LOANS' ? LOANS_ACS : PAYROLL_ACS;
    const original = await genuine(app);
    const tampered = tamper(original);
    expect(tampered).not.toBe(original);
    expect(await expectRefused(tampered, acs)).toMatch(reason);
    await expectAccepted(original, acs);
  }

  it('accepts the genuine response, and the same response re-serialized or re-signed by the IdP key', async () => {
    await expectAccepted(await genuine());
    await expectAccepted(serialize(parse(await genuine())));
    await expectAccepted(resign(parse(await genuine()), idpKeys.saml));
  });

  // The document and signature checks run before the database is touched (only the genuine
  // response's acceptance after each refusal reaches it), so they run on one target; the replay
  // ledger below runs on every target.
  if (target === targets[0]) {
    describe('XML signature wrapping', () => {
      it('refuses a second, unsigned Assertion before the signed one', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response, assertion } = parts(xml);
          response.insertBefore(evilAssertion(assertion), assertion);
          return serialize(doc);
        }, SIGNATURE);
      });

      it('refuses a second, unsigned Assertion after the signed one', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response, assertion } = parts(xml);
          response.appendChild(evilAssertion(assertion));
          return serialize(doc);
        }, SIGNATURE);
      });

      it('refuses an unsigned Assertion carrying the same ID before the signed one', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response, assertion } = parts(xml);
          response.insertBefore(evilAssertion(assertion, assertion.getAttribute('ID')!), assertion);
          return serialize(doc);
        }, SIGNATURE);
      });

      it('refuses an evil Assertion that wraps the signed one', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response, assertion } = parts(xml);
          const evil = evilAssertion(assertion);
          response.replaceChild(evil, assertion);
          evil.appendChild(assertion);
          return serialize(doc);
        }, SIGNATURE);
      });

      it('refuses the signed Assertion moved into samlp:Extensions with an evil one in its place', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response, assertion } = parts(xml);
          const evil = evilAssertion(assertion);
          response.replaceChild(evil, assertion);
          const extensions = doc.createElementNS(SAMLP, 'samlp:Extensions');
          extensions.appendChild(assertion);
          response.insertBefore(extensions, one(response, SAMLP, 'Status'));
          return serialize(doc);
        }, SIGNATURE);
      });

      it('refuses an evil Assertion carrying the signature, the signed one inside its ds:Object', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response, assertion } = parts(xml);
          const evil = evilAssertion(assertion);
          const signature = ownSignature(assertion);
          assertion.removeChild(signature);
          evil.insertBefore(signature, one(evil, SAML_NS, 'Subject'));
          const object = doc.createElementNS(DS, 'ds:Object');
          object.appendChild(assertion);
          signature.appendChild(object);
          response.appendChild(evil);
          return serialize(doc);
        }, SIGNATURE);
      });

      it('refuses an evil Assertion carrying the signature, the signed one after it (same ID)', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response, assertion } = parts(xml);
          const evil = evilAssertion(assertion, assertion.getAttribute('ID')!);
          const signature = ownSignature(assertion);
          assertion.removeChild(signature);
          evil.insertBefore(signature, one(evil, SAML_NS, 'Subject'));
          response.replaceChild(evil, assertion);
          response.appendChild(assertion);
          return serialize(doc);
        }, SIGNATURE);
      });

      it('refuses an evil Response wrapping the signed Response inside its Signature', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { response, assertion } = parts(xml);
          const evil = response.cloneNode(true) as Element;
          evil.setAttribute('ID', '_evilresponse000000000000000000000000000000');
          const evilAssertionElement = one(evil, SAML_NS, 'Assertion');
          evil.replaceChild(evilAssertion(assertion), evilAssertionElement);
          ownSignature(evil).appendChild(response);
          const wrapped = parse('<x/>');
          wrapped.replaceChild(wrapped.importNode(evil, true), wrapped.documentElement!);
          return serialize(wrapped);
        }, SIGNATURE);
      });

      it('refuses an evil Response with the signed Response before its Signature', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { response, assertion } = parts(xml);
          const evil = response.cloneNode(true) as Element;
          evil.setAttribute('ID', '_evilresponse000000000000000000000000000000');
          evil.replaceChild(evilAssertion(assertion), one(evil, SAML_NS, 'Assertion'));
          evil.insertBefore(response, ownSignature(evil));
          const wrapped = parse('<x/>');
          wrapped.replaceChild(wrapped.importNode(evil, true), wrapped.documentElement!);
          return serialize(wrapped);
        }, SIGNATURE);
      });

      it('refuses an unsigned evil Response holding the signed Response in samlp:Extensions', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { response, assertion } = parts(xml);
          const evil = response.cloneNode(true) as Element;
          evil.removeChild(ownSignature(evil));
          evil.setAttribute('ID', '_evilresponse000000000000000000000000000000');
          evil.replaceChild(evilAssertion(assertion), one(evil, SAML_NS, 'Assertion'));
          const extensions = evil.ownerDocument!.createElementNS(SAMLP, 'samlp:Extensions');
          extensions.appendChild(response);
          evil.insertBefore(extensions, one(evil, SAMLP, 'Status'));
          const wrapped = parse('<x/>');
          wrapped.replaceChild(wrapped.importNode(evil, true), wrapped.documentElement!);
          return serialize(wrapped);
        }, SIGNATURE);
      });

      it('refuses the signed Response moved under an evil root of another kind', async () => {
        await refusedThenGenuineAccepted(
          (xml) =>
            `<samlp:Response xmlns:samlp="${SAMLP}" ID="_evilroot" Version="2.0"><samlp:Extensions>` +
            xml.replace(/^<\?xml[^>]*\?>/, '') +
            `</samlp:Extensions></samlp:Response>`,
          SIGNATURE,
        );
      });
    });

    describe('comments and document structure', () => {
      it('refuses a comment inside the NameID and the username (signatures still verify without it)', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc } = parts(xml);
          for (const element of [one(doc, SAML_NS, 'NameID'), attributeValue(doc, 'username')]) {
            const value = element.textContent ?? '';
            while (element.firstChild) element.removeChild(element.firstChild);
            element.appendChild(doc.createTextNode(value.slice(0, 4)));
            element.appendChild(doc.createComment(''));
            element.appendChild(doc.createTextNode(value.slice(4)));
          }
          return serialize(doc);
        }, COMMENT);
      });

      it('refuses C10001<!---->.evil: a longer signed username truncated by a comment', async () => {
        await refusedThenGenuineAccepted((xml) => {
          // As if the IdP had signed an assertion for an account named C10001.evil.
          const signedForEvil = parts(xml);
          setText(attributeValue(signedForEvil.doc, 'username'), 'C10001.evil');
          const { doc } = parts(resign(signedForEvil.doc, idpKeys.saml));
          const username = attributeValue(doc, 'username');
          while (username.firstChild) username.removeChild(username.firstChild);
          username.appendChild(doc.createTextNode('C10001'));
          username.appendChild(doc.createComment(''));
          username.appendChild(doc.createTextNode('.evil'));
          return serialize(doc);
        }, COMMENT);
      });

      it('refuses a processing instruction inside the response', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc } = parts(xml);
          const nameId = one(doc, SAML_NS, 'NameID');
          nameId.insertBefore(doc.createProcessingInstruction('evil', 'x'), nameId.firstChild);
          return serialize(doc);
        }, /processing instruction/);
      });

      it('refuses a second root element after the signed Response', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { response, assertion } = parts(xml);
          const evil = response.cloneNode(true) as Element;
          evil.replaceChild(evilAssertion(assertion), one(evil, SAML_NS, 'Assertion'));
          return `${xml}${serialize(evil)}`;
        }, /not well-formed XML/);
      });

      it('refuses a second root element before the signed Response', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { response, assertion } = parts(xml);
          const evil = response.cloneNode(true) as Element;
          evil.replaceChild(evilAssertion(assertion), one(evil, SAML_NS, 'Assertion'));
          return `${serialize(evil)}${xml.replace(/^<\?xml[^>]*\?>/, '')}`;
        }, /not well-formed XML/);
      });

      it('refuses trailing text after the signed Response', async () => {
        await refusedThenGenuineAccepted((xml) => `${xml}trailing`, /not well-formed XML/);
      });

      it('refuses a document that is not XML, and one that is not a SAML Response', async () => {
        const notXml = await post(PAYROLL_ACS, base64('not xml at all'));
        expect(notXml.status).toBe(400);
        const logout = await post(
          PAYROLL_ACS,
          base64(`<samlp:LogoutRequest xmlns:samlp="${SAMLP}" ID="_x" Version="2.0"/>`),
        );
        expect(logout.status).toBe(400);
        expect(logout.text).not.toContain('id="username"');
      });
    });

    describe('DTDs and entities', () => {
      const withDoctype = (xml: string, subset: string) =>
        `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE samlp:Response [${subset}]>` +
        xml.replace(/^<\?xml[^>]*\?>/, '');

      it('refuses an external entity (XXE) in the NameID', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc } = parts(xml);
          setText(one(doc, SAML_NS, 'NameID'), 'XXE_MARKER');
          return withDoctype(serialize(doc), '<!ENTITY xxe SYSTEM "file:///etc/passwd">').replace(
            'XXE_MARKER',
            '&xxe;',
          );
        }, DTD);
      });

      it('refuses a billion-laughs entity expansion', async () => {
        const laughs = ['<!ENTITY lol0 "lol">'];
        for (let i = 1; i <= 9; i++) {
          laughs.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
        }
        await refusedThenGenuineAccepted(
          (xml) => withDoctype(xml, laughs.join('')).replace(/(<saml:AttributeValue>)([^<]*)/, '$1$2&lol9;'),
          DTD,
        );
      });

      it('refuses a DOCTYPE even when the signed content is untouched', async () => {
        await refusedThenGenuineAccepted((xml) => withDoctype(xml, '<!ENTITY harmless "x">'), DTD);
      });
    });

    describe('keys and signatures', () => {
      it("refuses a response re-signed with an attacker's key whose certificate is in KeyInfo", async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc } = parts(xml);
          setText(attributeValue(doc, 'username'), 'admin1');
          const forged = resign(doc, attackerKeys.saml, true);
          expect(forged).toContain(attackerKeys.saml.certificateBase64);
          return forged;
        }, /Invalid document signature/);
      });

      it('refuses an unchanged response re-signed with another key', async () => {
        await refusedThenGenuineAccepted(
          (xml) => resign(parts(xml).doc, attackerKeys.saml, false),
          /Invalid document signature/,
        );
      });

      it("refuses the IdP's signatures carrying an attacker certificate in KeyInfo", async () => {
        await refusedThenGenuineAccepted((xml) => {
          const forged = parts(xml);
          setText(attributeValue(forged.doc, 'username'), 'admin1');
          const attackerSigned = parts(resign(forged.doc, attackerKeys.saml, true));
          // The attacker's signature values with the IdP certificate's place taken in KeyInfo.
          for (const certificate of Array.from(
            attackerSigned.doc.getElementsByTagNameNS(DS, 'X509Certificate'),
          )) {
            expect(certificate.textContent).toBe(attackerKeys.saml.certificateBase64);
          }
          return serialize(attackerSigned.doc).replaceAll(
            attackerKeys.saml.certificateBase64,
            idpKeys.saml.certificateBase64,
          );
        }, /Invalid document signature/);
      });

      it('refuses an attribute changed after signing', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc } = parts(xml);
          setText(attributeValue(doc, 'username'), 'admin1');
          return serialize(doc);
        }, /Invalid document signature/);
      });

      it('refuses a NameID changed after signing', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc } = parts(xml);
          setText(one(doc, SAML_NS, 'NameID'), 'another-subject');
          return serialize(doc);
        }, /Invalid document signature/);
      });

      it('refuses a Destination changed after signing', async () => {
        await refusedThenGenuineAccepted((xml) => {
          const { doc, response } = parts(xml);
          response.setAttribute('Destination', LOANS_ACS);
          return serialize(doc);
        }, /Invalid document signature/);
      });

      it('refuses a response without signatures, and one whose Assertion or Response signature is removed', async () => {
        const strip = (which: 'both' | 'assertion' | 'response') => (xml: string) => {
          const { doc, response, assertion } = parts(xml);
          if (which !== 'response') assertion.removeChild(ownSignature(assertion));
          if (which !== 'assertion') response.removeChild(ownSignature(response));
          return serialize(doc);
        };
        await refusedThenGenuineAccepted(strip('both'), /Invalid document signature/);
        await refusedThenGenuineAccepted(strip('assertion'), /Invalid document signature/);
        await refusedThenGenuineAccepted(strip('response'), /Invalid document signature/);
      });
    });
  }

  describe('audience, destination, time and replay (signed by the IdP key)', () => {
    /** Changes the genuine response and re-signs it with the IdP's own key. */
    const idpSigned = (change: (p: ReturnType<typeof parts>) => void) => (xml: string) => {
      const p = parts(xml);
      change(p);
      return resign(p.doc, idpKeys.saml);
    };
    const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

    it("refuses LOANS's genuine response at PAYROLL's ACS", async () => {
      const loans = await genuine('LOANS');
      const verdict = await expectRefused(loans, PAYROLL_ACS);
      expect(verdict).toMatch(/^Payroll rejected/);
      await expectAccepted(loans, LOANS_ACS);
    });

    it('refuses a wrong Destination', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ response }) => response.setAttribute('Destination', LOANS_ACS)),
        /addressed to http:\/\/localhost:8080\/demo-sp\/LOANS\/acs, not to/,
      );
    });

    it('refuses a missing Destination', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ response }) => response.removeAttribute('Destination')),
        /addressed to no one/,
      );
    });

    it('refuses a wrong Audience', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ doc }) => setText(one(doc, SAML_NS, 'Audience'), `${PUBLIC_URL}/demo-sp/LOANS`)),
        /audience mismatch/,
      );
    });

    it('refuses a wrong Recipient', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ doc }) =>
          one(doc, SAML_NS, 'SubjectConfirmationData').setAttribute('Recipient', LOANS_ACS),
        ),
        /Recipient is not/,
      );
    });

    it('refuses a wrong Issuer', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ doc }) => {
          for (const issuer of Array.from(doc.getElementsByTagNameNS(SAML_NS, 'Issuer'))) {
            setText(issuer, 'https://evil.example/idp');
          }
        }),
        /issued by https:\/\/evil\.example\/idp/,
      );
    });

    it('refuses an expired Conditions NotOnOrAfter', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ doc }) =>
          one(doc, SAML_NS, 'Conditions').setAttribute('NotOnOrAfter', minutesFromNow(-5)),
        ),
        /SAML assertion expired/,
      );
    });

    it('refuses an expired bearer confirmation (SubjectConfirmationData NotOnOrAfter)', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ doc }) =>
          one(doc, SAML_NS, 'SubjectConfirmationData').setAttribute('NotOnOrAfter', minutesFromNow(-5)),
        ),
        /bearer confirmation has expired/,
      );
    });

    it('refuses a response not valid yet (NotBefore in the future)', async () => {
      await refusedThenGenuineAccepted(
        idpSigned(({ doc }) => one(doc, SAML_NS, 'Conditions').setAttribute('NotBefore', minutesFromNow(5))),
        /not yet valid/,
      );
    });

    it('refuses the same IdP-initiated response posted twice, even from another browser', async () => {
      const xml = await genuine();
      await expectAccepted(xml);
      await expectRefused(xml);
      await expectRefused(xml);
    });

    it('refuses the same LOANS response posted twice', async () => {
      const xml = await genuine('LOANS');
      await expectAccepted(xml, LOANS_ACS);
      await expectRefused(xml, LOANS_ACS);
    });

    it('refuses the same assertion in a new Response re-signed with the IdP key (assertion ID reuse)', async () => {
      const xml = await genuine();
      await expectAccepted(xml);
      await expectRefused(
        idpSigned(({ response }) => response.setAttribute('ID', '_anotherresponse0000000000000000000000000'))(
          xml,
        ),
      );
    });

    describe('SP-initiated', () => {
      async function roundTrip(client: TestClient) {
        const start = await client.get('/demo-sp/PAYROLL/login', { requestedWith: false });
        expect(start.status).toBe(303);
        const sso = await client.get(pathOf(start.headers.get('location')!), { requestedWith: false });
        expect(sso.status).toBe(303);
        const login = await client.login<{ outcome: string; saml: HandoffSaml }>('C10001');
        expect(login.body.outcome).toBe('SAML_HANDOFF');
        return decodeResponse(login.body.saml.samlResponse);
      }

      it('refuses a replay that restores the request cookie (InResponseTo reuse)', async () => {
        const browser = server.client();
        const xml = await roundTrip(browser);
        expect(parse(xml).documentElement!.getAttribute('InResponseTo')).toMatch(/^_/);
        const requests = browser.cookie('demo_sp_requests')!;
        const first = await expectAccepted(xml, PAYROLL_ACS, browser);
        expect(shownText(first.text, 'started-by')).toMatch(/^Payroll \(in response to _/);
        // The attacker replays with the cookie as it was before the request was answered.
        browser.cookies.set('demo_sp_requests', requests);
        await expectRefused(xml, PAYROLL_ACS, browser);
      });

      it('refuses a response to a request another browser sent', async () => {
        const xml = await roundTrip(server.client());
        await expectRefused(xml, PAYROLL_ACS, server.client());
      });
    });
  });
});
