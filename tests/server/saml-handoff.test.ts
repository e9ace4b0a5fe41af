// IdP metadata and the IdP-initiated SAML handoff (current-user/saml-handoff) over real HTTP,
// every response validated by @node-saml/node-saml as an independent SP.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeys, type SigningKeys } from '../../src/server/adapters/signing-keys';
import { API, snapshot, startServer, type TestClient, type TestServer } from './support/server';
import { decodeResponse, readMetadata, testSp, validateAtAcs, type IdpInfo } from './support/saml';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
interface HandoffBody {
  appName: string;
  appCode: string;
  facilityCode: string | null;
  facilityName: string | null;
  facilityAliasOrCode: string | null;
  saml: { assertionConsumerServiceUrl: string; samlResponse: string; relayState: string | null };
}

const PUBLIC_URL = 'http://localhost:8080';
const LOANS = { entityId: `${PUBLIC_URL}/demo-sp/LOANS`, acsUrl: `${PUBLIC_URL}/demo-sp/LOANS/acs` };
const PAYROLL = { entityId: `${PUBLIC_URL}/demo-sp/PAYROLL`, acsUrl: `${PUBLIC_URL}/demo-sp/PAYROLL/acs` };

let keys: SigningKeys;
beforeAll(async () => {
  keys = await generateSigningKeys(PUBLIC_URL);
});

describe.each(targets)('SAML IdP-initiated handoff on $name', (target) => {
  let server: TestServer;
  let idp: IdpInfo;

  beforeAll(async () => {
    server = await startServer(target, { deps: { signingKeys: keys } });
    const metadata = await server.client().get('/saml/metadata');
    idp = readMetadata(metadata.text);
  });
  afterAll(async () => {
    await server?.close();
  });

  const signedIn = async (username: string): Promise<TestClient> => {
    const client = server.client();
    const res = await client.login(username);
    expect(res.status).toBe(200);
    return client;
  };

  const handoff = (client: TestClient, appCode: string, facilityCode: string | null) =>
    client.post<HandoffBody>(`${API}current-user/saml-handoff`, { appCode, facilityCode });

  describe('metadata', () => {
    it('publishes the entity id, both SSO bindings and the signing certificate', async () => {
      const res = await server.client().get('/saml/metadata', { requestedWith: false });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/samlmetadata+xml; charset=utf-8');
      expect(idp.entityId).toBe(`${PUBLIC_URL}/saml/metadata`);
      expect(idp.ssoUrl).toBe(`${PUBLIC_URL}/saml/sso`);
      expect(idp.ssoBindings).toEqual([
        'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
        'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
      ]);
      const certificate = new X509Certificate(Buffer.from(idp.certificate, 'base64'));
      expect(certificate.checkPrivateKey(keys.saml.privateKey)).toBe(true);
      expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
    });
  });

  describe('current-user/saml-handoff', () => {
    it('hands C10001 off to LOANS at F002 with a response node-saml accepts', async () => {
      const client = await signedIn('C10001');
      const res = await handoff(client, 'LOANS', 'F002');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        appName: 'Loans',
        appCode: 'LOANS',
        facilityCode: 'F002',
        facilityName: 'Riverside Family Practice',
        facilityAliasOrCode: 'F002',
        saml: { assertionConsumerServiceUrl: LOANS.acsUrl, relayState: null },
      });
      const sp = testSp({ ...LOANS, idp });
      const checked = await validateAtAcs(sp, LOANS.acsUrl, res.body.saml.samlResponse);
      expect(checked.inResponseTo).toBeNull();
      expect(checked.profile.issuer).toBe(idp.entityId);
      expect(checked.profile.nameIDFormat).toBe('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
      const me = await client.get<Json>(`${API}anonymous/current-user`);
      expect(checked.profile.nameID).toBe(me.body.id);
      expect(checked.profile.attributes).toEqual({
        username: 'C10001',
        name: 'Olivia Bennett',
        email: 'c10001@example.com',
        facilityCode: 'F002',
      });
    });

    it('signs the Response and the Assertion with RSA-SHA256 and exclusive c14n, with unique ids', async () => {
      const client = await signedIn('C10001');
      const first = decodeResponse((await handoff(client, 'PAYROLL', null)).body.saml.samlResponse);
      const second = decodeResponse((await handoff(client, 'PAYROLL', null)).body.saml.samlResponse);
      for (const xml of [first, second]) {
        expect(xml.match(/<ds:Signature /g)).toHaveLength(2);
        expect(xml).toContain('Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"');
        expect(xml).toContain(
          '<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"',
        );
        expect(xml).not.toContain('rsa-sha1');
        expect(xml).not.toContain('InResponseTo');
      }
      const ids = (xml: string) => [...xml.matchAll(/ ID="([^"]+)"/g)].map((m) => m[1]);
      const all = [...ids(first), ...ids(second)];
      expect(all).toHaveLength(4);
      expect(new Set(all).size).toBe(4);
      for (const id of all) expect(id).toMatch(/^_[0-9a-f]{40}$/);
    });

    it('puts bearer confirmation, time conditions, audience and the authentication statement in the assertion', async () => {
      const client = await signedIn('C10001');
      const before = Date.now();
      const xml = decodeResponse((await handoff(client, 'PAYROLL', null)).body.saml.samlResponse);
      const attr = (element: string, name: string) =>
        new RegExp(`<saml:${element}[^>]* ${name}="([^"]+)"`).exec(xml)?.[1] ?? '';
      expect(attr('SubjectConfirmation', 'Method')).toBe('urn:oasis:names:tc:SAML:2.0:cm:bearer');
      expect(attr('SubjectConfirmationData', 'Recipient')).toBe(PAYROLL.acsUrl);
      const notOnOrAfter = Date.parse(attr('SubjectConfirmationData', 'NotOnOrAfter'));
      expect(notOnOrAfter - before).toBeGreaterThan(4 * 60_000);
      expect(notOnOrAfter - before).toBeLessThanOrEqual(5 * 60_000 + 5_000);
      expect(Date.parse(attr('Conditions', 'NotBefore'))).toBeLessThanOrEqual(Date.now());
      expect(attr('Conditions', 'NotOnOrAfter')).toBe(attr('SubjectConfirmationData', 'NotOnOrAfter'));
      expect(xml).toContain(`<saml:Audience>${PAYROLL.entityId}</saml:Audience>`);
      expect(xml).toMatch(/<saml:AuthnStatement AuthnInstant="[^"]+" SessionIndex="_[0-9a-f]{40}">/);
      expect(xml).toContain(
        '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>',
      );
      expect(xml).toContain(`Destination="${PAYROLL.acsUrl}"`);
    });

    it('hands off PAYROLL without a facility attribute', async () => {
      const client = await signedIn('C10001');
      const res = await handoff(client, 'PAYROLL', null);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        appName: 'Payroll',
        appCode: 'PAYROLL',
        facilityCode: null,
        facilityName: null,
        facilityAliasOrCode: null,
      });
      const checked = await validateAtAcs(
        testSp({ ...PAYROLL, idp }),
        PAYROLL.acsUrl,
        res.body.saml.samlResponse,
      );
      expect(checked.profile.attributes).toEqual({
        username: 'C10001',
        name: 'Olivia Bennett',
        email: 'c10001@example.com',
      });
    });

    it('carries a name holding XML markup as text', async () => {
      const name = '<b>&"x</b>';
      await server.db.updateTable('identities').set({ name }).where('username', '=', 'C10008').execute();
      try {
        const client = await signedIn('C10008');
        const res = await handoff(client, 'LOANS', 'F003');
        expect(res.status).toBe(200);
        const xml = decodeResponse(res.body.saml.samlResponse);
        expect(xml).not.toContain('<b>');
        expect(xml).toContain('&lt;b&gt;&amp;"x&lt;/b&gt;');
        const checked = await validateAtAcs(
          testSp({ ...LOANS, idp }),
          LOANS.acsUrl,
          res.body.saml.samlResponse,
        );
        expect(checked.profile.attributes).toMatchObject({ name, facilityCode: 'F003' });
      } finally {
        await server.db
          .updateTable('identities')
          .set({ name: 'Ava Kowalski' })
          .where('username', '=', 'C10008')
          .execute();
      }
    });

    it('fails validation once the signed assertion or response is changed', async () => {
      const client = await signedIn('C10001');
      const res = await handoff(client, 'LOANS', 'F001');
      const xml = decodeResponse(res.body.saml.samlResponse);
      const sp = () => testSp({ ...LOANS, idp });
      const tamper = (changed: string) => Buffer.from(changed, 'utf8').toString('base64');

      const otherUser = xml.replace('>C10001<', '>C10008<');
      expect(otherUser).not.toBe(xml);
      await expect(validateAtAcs(sp(), LOANS.acsUrl, tamper(otherUser))).rejects.toThrow(/signature/i);

      const otherFacility = xml.replace('>F001<', '>F003<');
      expect(otherFacility).not.toBe(xml);
      await expect(validateAtAcs(sp(), LOANS.acsUrl, tamper(otherFacility))).rejects.toThrow(/signature/i);

      const otherDestination = xml.replace(
        `Destination="${LOANS.acsUrl}"`,
        'Destination="https://evil.example/acs"',
      );
      expect(otherDestination).not.toBe(xml);
      await expect(validateAtAcs(sp(), LOANS.acsUrl, tamper(otherDestination))).rejects.toThrow(/signature/i);

      // And untouched, it passes: the failures above are the tampering's.
      await expect(validateAtAcs(sp(), LOANS.acsUrl, res.body.saml.samlResponse)).resolves.toBeDefined();
    });

    it('is refused by an SP that is not the audience, and by one trusting another certificate', async () => {
      const client = await signedIn('C10001');
      const res = await handoff(client, 'LOANS', 'F001');
      const payrollSp = testSp({ ...PAYROLL, idp });
      await expect(
        payrollSp.validatePostResponseAsync({ SAMLResponse: res.body.saml.samlResponse }),
      ).rejects.toThrow(/audience/i);
      const other = await generateSigningKeys(PUBLIC_URL);
      const strangerSp = testSp({ ...LOANS, idp: { ...idp, certificate: other.saml.certificateBase64 } });
      await expect(
        strangerSp.validatePostResponseAsync({ SAMLResponse: res.body.saml.samlResponse }),
      ).rejects.toThrow(/signature/i);
    });

    it('refuses with 422 and a clear message, and changes nothing, when the handoff is not allowed', async () => {
      const client = await signedIn('C10001');
      const cases: Array<[string, string | null, string]> = [
        ['LOANS', 'F003', 'You do not have access to Loans at facility F003'],
        ['LOANS', 'F999', 'You do not have access to Loans at facility F999'],
        ['LOANS', null, 'Choose the Loans facility to hand off to'],
        ['PAYROLL', 'F001', 'Payroll does not take a facility'],
        ['TREASURY', null, 'Treasury does not accept a SAML handoff'],
        ['NOPE', null, 'There is no application NOPE'],
      ];
      const before = await snapshot(server.db);
      for (const [appCode, facilityCode, message] of cases) {
        const res = await handoff(client, appCode, facilityCode);
        expect(res.status, `${appCode} ${facilityCode}`).toBe(422);
        expect(res.body).toEqual({ message });
      }
      const noAccess = await handoff(await signedIn('C10002'), 'LOANS', 'F001');
      // C10002 is pending (expired password): a handoff needs a signed-in user.
      expect(noAccess.status).toBe(403);
      const admin = await signedIn('admin1');
      const adminLoans = await handoff(admin, 'LOANS', 'F001');
      expect(adminLoans.status).toBe(422);
      expect(adminLoans.body).toEqual({ message: 'You do not have access to Loans' });
      const after = await snapshot(server.db);
      expect(after.identities).toEqual(before.identities);
    });

    it('answers 400 with field errors for a malformed body, 401 without a session', async () => {
      const client = await signedIn('C10001');
      const missing = await client.post<Json>(`${API}current-user/saml-handoff`, { appCode: 'LOANS' });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([{ fieldName: 'facilityCode', message: 'Required field' }]);
      const unknown = await client.post<Json>(`${API}current-user/saml-handoff`, {
        appCode: 'LOANS',
        facilityCode: 'F001',
        acsUrl: 'https://evil.example/acs',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([{ fieldName: 'acsUrl', message: 'Unknown field: acsUrl' }]);
      const blank = await client.post<Json>(`${API}current-user/saml-handoff`, {
        appCode: ' ',
        facilityCode: null,
      });
      expect(blank.status).toBe(400);
      const anonymous = await server.client().post<Json>(`${API}current-user/saml-handoff`, {
        appCode: 'PAYROLL',
        facilityCode: null,
      });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('current-user/handoff-targets', () => {
    it("lists the user's targets, all or one app's", async () => {
      const client = await signedIn('C10001');
      const all = await client.get<Json[]>(`${API}current-user/handoff-targets`);
      expect(all.status).toBe(200);
      expect(all.body).toEqual([
        {
          appName: 'Loans',
          appCode: 'LOANS',
          facilityCode: 'F001',
          facilityName: 'Northside Community Clinic',
          facilityAliasOrCode: 'Northside',
        },
        {
          appName: 'Loans',
          appCode: 'LOANS',
          facilityCode: 'F002',
          facilityName: 'Riverside Family Practice',
          facilityAliasOrCode: 'F002',
        },
        {
          appName: 'Payroll',
          appCode: 'PAYROLL',
          facilityCode: null,
          facilityName: null,
          facilityAliasOrCode: null,
        },
      ]);
      const payroll = await client.get<Json[]>(`${API}current-user/handoff-targets?appCode=PAYROLL`);
      expect(payroll.body).toEqual([all.body[2]]);
      const none = await client.get<Json[]>(`${API}current-user/handoff-targets?appCode=TREASURY`);
      expect(none.body).toEqual([]);
      const bad = await client.get<Json>(`${API}current-user/handoff-targets?app=LOANS`);
      expect(bad.status).toBe(400);
      expect((await server.client().get(`${API}current-user/handoff-targets`)).status).toBe(401);
    });
  });
});
