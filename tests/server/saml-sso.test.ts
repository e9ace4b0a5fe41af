// SP-initiated SAML over real HTTP: /saml/sso (HTTP-Redirect and HTTP-POST bindings), the request
// kept as the session's context, sign-in outcomes in that context (SAML_HANDOFF, the SELECT_FACILITY
// step, DIRECT_LOGIN for a user without access), the single-sign-on page's handoff, and the
// refusals: unknown SP, tampered ACS URL, expired or replayed request ids, bad signatures, bad input.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateSigningKeys, type SigningKeys } from '../../src/server/adapters/signing-keys';
import { API, startServer, type TestClient, type TestServer } from './support/server';
import {
  authnRequestXml,
  newRequestId,
  pathOf,
  readMetadata,
  redirectQuery,
  signAuthnRequest,
  testSp,
  validateAtAcs,
  type IdpInfo,
} from './support/saml';
import { targets } from './support/targets';

type Json = Record<string, unknown>;
interface Outcome {
  outcome: string;
  forcedAction?: string | null;
  isSingleSignOn?: boolean;
  appName?: string | null;
  saml?: { assertionConsumerServiceUrl: string; samlResponse: string; relayState: string | null } | null;
}

const PUBLIC_URL = 'http://localhost:8080';
const SSO_URL = `${PUBLIC_URL}/saml/sso`;
const sp = (code: string) => ({
  entityId: `${PUBLIC_URL}/demo-sp/${code}`,
  acsUrl: `${PUBLIC_URL}/demo-sp/${code}/acs`,
});
const LOANS = sp('LOANS');
const PAYROLL = sp('PAYROLL');

let keys: SigningKeys;
/** The SP signing key registered for PAYROLL in the signed-request tests. */
let spKey: { privateKey: string; certificate: string };
beforeAll(async () => {
  keys = await generateSigningKeys(PUBLIC_URL);
  const other = await generateSigningKeys(PUBLIC_URL);
  spKey = {
    privateKey: other.saml.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificate: other.saml.certificatePem,
  };
});

describe.each(targets)('SP-initiated SAML on $name', (target) => {
  let server: TestServer;
  let idp: IdpInfo;

  beforeAll(async () => {
    server = await startServer(target, { deps: { signingKeys: keys } });
    idp = readMetadata((await server.client().get('/saml/metadata')).text);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.updateTable('apps').set({ sp_signing_certificate: null }).execute();
  });

  /** Sends the browser to /saml/sso with node-saml's own AuthnRequest; answers its id. */
  const arriveFrom = async (
    client: TestClient,
    app: { entityId: string; acsUrl: string },
    relayState = '/after/sign-in?x=1&y=two words',
  ) => {
    const saml = testSp({ ...app, idp, validateInResponseTo: 'always' });
    const url = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
    const res = await client.get(pathOf(url), { requestedWith: false });
    const id = /ID="([^"]+)"/.exec(
      (await import('node:zlib'))
        .inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest')!, 'base64'))
        .toString(),
    )?.[1];
    return { res, saml, id: id!, relayState };
  };

  const sso = (client: TestClient, query: string) =>
    client.get(`/saml/sso?${query}`, { requestedWith: false });

  const contextOf = async (client: TestClient) => (await client.get<Json>(`${API}anonymous/context`)).body;
  const requestIds = async () =>
    (await server.db.selectFrom('saml_request_ids').selectAll().execute()).length;

  describe('accepting an AuthnRequest', () => {
    it('keeps the request as the context of a new anonymous session and sends the browser to the portal', async () => {
      const client = server.client();
      const { res } = await arriveFrom(client, PAYROLL);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(client.cookie('sam_session')).toBeDefined();
      // The contract's context has no room for the request itself.
      expect(await contextOf(client)).toEqual({
        appCode: 'PAYROLL',
        realmCode: 'BANK',
        showInHeader: true,
        type: 'SAML',
      });
    });

    it('signs C10001 in from PAYROLL with SAML_HANDOFF answering the request, then leaves the context', async () => {
      const client = server.client();
      const { saml, id, relayState } = await arriveFrom(client, PAYROLL);
      const login = await client.login<Outcome>('C10001');
      expect(login.status).toBe(200);
      expect(login.body.outcome).toBe('SAML_HANDOFF');
      expect(login.body.saml).toMatchObject({ assertionConsumerServiceUrl: PAYROLL.acsUrl, relayState });
      const checked = await validateAtAcs(saml, PAYROLL.acsUrl, login.body.saml!.samlResponse);
      expect(checked.inResponseTo).toBe(id);
      expect(checked.profile.attributes).toMatchObject({ username: 'C10001' });
      expect(await contextOf(client)).toEqual({
        appCode: 'SAM',
        realmCode: 'BANK',
        showInHeader: false,
        type: 'DIRECT',
      });
      // The SP accepts the answer to its request once.
      await expect(
        saml.validatePostResponseAsync({ SAMLResponse: login.body.saml!.samlResponse }),
      ).rejects.toThrow(/InResponseTo/);
    });

    it('forces SELECT_FACILITY for C10008 from LOANS, lists F001 to F003, and hands off the chosen one', async () => {
      const client = server.client();
      const { saml, id, relayState } = await arriveFrom(client, LOANS);
      const login = await client.login<Outcome & { currentUser: Json }>('C10008');
      expect(login.body).toMatchObject({ outcome: 'FORCED_ACTION', forcedAction: 'SELECT_FACILITY' });
      expect(login.body.currentUser).toMatchObject({
        type: 'AUTHENTICATION_PENDING',
        isAuthenticated: false,
      });

      const facilities = await client.get<Json[]>(`${API}forced-actions/select-facility/facilities`);
      expect(facilities.status).toBe(200);
      expect(facilities.body).toEqual([
        {
          code: 'F001',
          name: 'Northside Community Clinic',
          aliasOrCode: 'Northside',
          app: { code: 'LOANS' },
        },
        { code: 'F002', name: 'Riverside Family Practice', aliasOrCode: 'F002', app: { code: 'LOANS' } },
        { code: 'F003', name: 'Bayview Aged Care', aliasOrCode: 'Bayview', app: { code: 'LOANS' } },
      ]);

      const chosen = await client.post<Json & { saml: { samlResponse: string; relayState: string } }>(
        `${API}forced-actions/select-facility/saml-handoff`,
        { appCode: 'LOANS', facilityCode: 'F003' },
      );
      expect(chosen.status).toBe(200);
      expect(chosen.body).toMatchObject({
        appName: 'Loans',
        appCode: 'LOANS',
        facilityCode: 'F003',
        facilityName: 'Bayview Aged Care',
        facilityAliasOrCode: 'Bayview',
        saml: { assertionConsumerServiceUrl: LOANS.acsUrl, relayState },
      });
      const checked = await validateAtAcs(saml, LOANS.acsUrl, chosen.body.saml.samlResponse);
      expect(checked.inResponseTo).toBe(id);
      expect(checked.profile.attributes).toMatchObject({ username: 'C10008', facilityCode: 'F003' });
      const me = await client.get<Json>(`${API}anonymous/current-user`);
      expect(me.body).toMatchObject({ type: 'AUTHENTICATED', isAuthenticated: true });
      // The step is over: its calls are refused now.
      expect((await client.get(`${API}forced-actions/select-facility/facilities`)).status).toBe(403);
    });

    it('tells the select-facility step its own app (for the handoff toast), and no other', async () => {
      const client = server.client();
      await arriveFrom(client, LOANS);
      await client.login('C10008');
      const own = await client.get<Json>(`${API}apps/LOANS`);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ code: 'LOANS', name: 'Loans' });
      expect((await client.get(`${API}apps/PAYROLL`)).status).toBe(403);

      // Any other forced step is refused, even for the app it signs in to.
      const expired = server.client();
      await arriveFrom(expired, LOANS);
      expect((await expired.login<Outcome>('C10002')).body.forcedAction).toBe('CHANGE_EXPIRED_PASSWORD');
      expect((await expired.get(`${API}apps/LOANS`)).status).toBe(403);
      // Without a sign-in: 401, as before.
      expect((await server.client().get(`${API}apps/LOANS`)).status).toBe(401);
    });

    it('refuses a facility that is not the user’s, or another app, at select-facility with 422 and keeps the step', async () => {
      const client = server.client();
      await arriveFrom(client, LOANS);
      await client.login('C10001'); // LOANS at F001 and F002: two, so the step applies
      const facilities = await client.get<Json[]>(`${API}forced-actions/select-facility/facilities`);
      expect(facilities.body.map((f) => f.code)).toEqual(['F001', 'F002']);
      const wrongFacility = await client.post<Json>(`${API}forced-actions/select-facility/saml-handoff`, {
        appCode: 'LOANS',
        facilityCode: 'F003',
      });
      expect(wrongFacility.status).toBe(422);
      expect(wrongFacility.body).toEqual({ message: 'You do not have access to Loans at facility F003' });
      const wrongApp = await client.post<Json>(`${API}forced-actions/select-facility/saml-handoff`, {
        appCode: 'PAYROLL',
        facilityCode: 'F001',
      });
      expect(wrongApp.status).toBe(422);
      expect(wrongApp.body).toEqual({ message: 'This sign-in is for Loans' });
      const missing = await client.post<Json>(`${API}forced-actions/select-facility/saml-handoff`, {
        appCode: 'LOANS',
        facilityCode: null,
      });
      expect(missing.status).toBe(400);
      const me = await client.get<Json>(`${API}anonymous/current-user`);
      expect(me.body).toMatchObject({ type: 'AUTHENTICATION_PENDING' });
      expect((await client.get(`${API}forced-actions/select-facility/facilities`)).status).toBe(200);
    });

    it('opens select-facility only at the SELECT_FACILITY step', async () => {
      const pending = server.client();
      await arriveFrom(pending, LOANS);
      const expired = await pending.login<Outcome>('C10002');
      expect(expired.body.forcedAction).toBe('CHANGE_EXPIRED_PASSWORD');
      expect((await pending.get(`${API}forced-actions/select-facility/facilities`)).status).toBe(403);
      const body = { appCode: 'LOANS', facilityCode: 'F001' };
      expect((await pending.post(`${API}forced-actions/select-facility/saml-handoff`, body)).status).toBe(
        403,
      );

      const signedIn = server.client();
      await signedIn.login('C10001');
      expect((await signedIn.get(`${API}forced-actions/select-facility/facilities`)).status).toBe(403);

      expect((await server.client().get(`${API}forced-actions/select-facility/facilities`)).status).toBe(401);
    });

    it('answers DIRECT_LOGIN with isSingleSignOn and the app name for a user without access to the app', async () => {
      const client = server.client();
      await arriveFrom(client, LOANS);
      const login = await client.login<Outcome>('admin1');
      expect(login.body).toMatchObject({
        outcome: 'DIRECT_LOGIN',
        isSingleSignOn: true,
        appName: 'Loans',
      });
      expect(login.body.saml ?? null).toBeNull();
      expect((await contextOf(client)).type).toBe('DIRECT');
    });

    it('hands off straight away when the user has one facility at the app: no choice to make', async () => {
      const admin = await server.db
        .selectFrom('identities')
        .select('id')
        .where('username', '=', 'admin1')
        .executeTakeFirstOrThrow();
      const f001 = await server.db
        .selectFrom('facilities')
        .select('id')
        .where('code', '=', 'F001')
        .executeTakeFirstOrThrow();
      await server.db
        .insertInto('access_grants')
        .values({
          id: '00000000-0000-4000-8000-000000000001',
          identity_id: admin.id,
          app_code: 'LOANS',
          facility_id: f001.id,
          created_at: new Date(),
        })
        .execute();
      try {
        const client = server.client();
        const { saml } = await arriveFrom(client, LOANS);
        const login = await client.login<Outcome>('admin1');
        expect(login.body.outcome).toBe('SAML_HANDOFF');
        const checked = await validateAtAcs(saml, LOANS.acsUrl, login.body.saml!.samlResponse);
        expect(checked.profile.attributes).toMatchObject({ username: 'admin1', facilityCode: 'F001' });
      } finally {
        await server.db
          .deleteFrom('access_grants')
          .where('id', '=', '00000000-0000-4000-8000-000000000001')
          .execute();
      }
    });
  });

  describe('an already signed-in user', () => {
    it('goes to /single-sign-on, and the single-sign-on handoff answers the request once', async () => {
      const client = server.client();
      await client.login('C10001');
      const before = client.cookie('sam_session');
      const { res, saml, id, relayState } = await arriveFrom(client, PAYROLL);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/single-sign-on');
      expect(client.cookie('sam_session')).toBe(before);
      expect(await contextOf(client)).toMatchObject({ appCode: 'PAYROLL', type: 'SAML' });

      const targetsRes = await client.get<Json[]>(`${API}current-user/handoff-targets?appCode=PAYROLL`);
      expect(targetsRes.body).toHaveLength(1);

      const wrongApp = await client.post<Json>(`${API}current-user/sso-saml-handoff`, {
        appCode: 'LOANS',
        facilityCode: 'F001',
      });
      expect(wrongApp.status).toBe(422);
      expect(wrongApp.body).toEqual({ message: 'The single sign-on request is for Payroll' });

      const handed = await client.post<Json & { saml: { samlResponse: string; relayState: string } }>(
        `${API}current-user/sso-saml-handoff`,
        { appCode: 'PAYROLL', facilityCode: null },
      );
      expect(handed.status).toBe(200);
      expect(handed.body).toMatchObject({ appCode: 'PAYROLL', saml: { relayState } });
      const checked = await validateAtAcs(saml, PAYROLL.acsUrl, handed.body.saml.samlResponse);
      expect(checked.inResponseTo).toBe(id);

      const again = await client.post<Json>(`${API}current-user/sso-saml-handoff`, {
        appCode: 'PAYROLL',
        facilityCode: null,
      });
      expect(again.status).toBe(422);
      expect(again.body).toEqual({ message: 'There is no single sign-on request to answer' });
      expect((await contextOf(client)).type).toBe('DIRECT');
    });

    it('keeps the request when the single-sign-on handoff is refused', async () => {
      const client = server.client();
      await client.login('C10001');
      await arriveFrom(client, LOANS);
      const refused = await client.post<Json>(`${API}current-user/sso-saml-handoff`, {
        appCode: 'LOANS',
        facilityCode: 'F003',
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ message: 'You do not have access to Loans at facility F003' });
      expect(await contextOf(client)).toMatchObject({ appCode: 'LOANS', type: 'SAML' });
      const handed = await client.post<Json>(`${API}current-user/sso-saml-handoff`, {
        appCode: 'LOANS',
        facilityCode: 'F002',
      });
      expect(handed.status).toBe(200);
    });

    it('signs in again when the SP forces authentication', async () => {
      const client = server.client();
      await client.login('C10001');
      const before = client.cookie('sam_session');
      const xml = authnRequestXml({ issuer: PAYROLL.entityId, acsUrl: PAYROLL.acsUrl, forceAuthn: true });
      const res = await sso(client, redirectQuery(xml));
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
      expect(client.cookie('sam_session')).not.toBe(before);
      const me = await client.get<Json>(`${API}anonymous/current-user`);
      expect(me.body).toMatchObject({ type: 'ANONYMOUS' });
    });

    it('answers sso-saml-handoff with 422 when there is no request to answer', async () => {
      const client = server.client();
      await client.login('C10001');
      const res = await client.post<Json>(`${API}current-user/sso-saml-handoff`, {
        appCode: 'PAYROLL',
        facilityCode: null,
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'There is no single sign-on request to answer' });
    });
  });

  describe('refusals', () => {
    const refused = async (query: string, status: number, message: unknown) => {
      const client = server.client();
      const sessionsBefore = await server.db.selectFrom('sessions').select('id_hash').execute();
      const idsBefore = await requestIds();
      const res = await sso(client, query);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect((res.body as Json).message).toEqual(message);
      expect(client.cookie('sam_session')).toBeUndefined();
      expect(await server.db.selectFrom('sessions').select('id_hash').execute()).toEqual(sessionsBefore);
      expect(await requestIds()).toBe(idsBefore);
      return res;
    };

    it('refuses an unknown SP', async () => {
      const xml = authnRequestXml({ issuer: 'https://stranger.example/sp' });
      await refused(
        redirectQuery(xml),
        422,
        'The SAML request does not come from a registered service provider',
      );
    });

    it('refuses an ACS URL other than the registered one', async () => {
      const xml = authnRequestXml({ issuer: PAYROLL.entityId, acsUrl: 'https://evil.example/acs' });
      await refused(
        redirectQuery(xml),
        422,
        'The AssertionConsumerServiceURL is not the one registered for this service provider',
      );
    });

    it('refuses a request addressed to another IdP', async () => {
      const xml = authnRequestXml({ issuer: PAYROLL.entityId, destination: 'https://other-idp.example/sso' });
      await refused(redirectQuery(xml), 422, 'The AuthnRequest is addressed to another identity provider');
    });

    it('refuses an expired request and one dated in the future', async () => {
      const old = authnRequestXml({
        issuer: PAYROLL.entityId,
        issueInstant: new Date(Date.now() - 10 * 60_000),
      });
      await refused(
        redirectQuery(old),
        422,
        'The AuthnRequest has expired; start again from the application',
      );
      const future = authnRequestXml({
        issuer: PAYROLL.entityId,
        issueInstant: new Date(Date.now() + 5 * 60_000),
      });
      await refused(redirectQuery(future), 422, 'The AuthnRequest is dated in the future');
    });

    it('takes nothing on a HEAD request (a link prefetch)', async () => {
      const xml = authnRequestXml({ issuer: PAYROLL.entityId });
      const idsBefore = await requestIds();
      const head = await server
        .client()
        .request('HEAD', `/saml/sso?${redirectQuery(xml)}`, { requestedWith: false });
      expect(head.status).toBe(404);
      expect(await requestIds()).toBe(idsBefore);
      expect((await sso(server.client(), redirectQuery(xml))).status).toBe(303);
    });

    it('refuses a replayed request id, also from another browser', async () => {
      const id = newRequestId();
      const xml = authnRequestXml({
        id,
        issuer: PAYROLL.entityId,
        acsUrl: PAYROLL.acsUrl,
        destination: SSO_URL,
      });
      const first = await sso(server.client(), redirectQuery(xml, 'state'));
      expect(first.status).toBe(303);
      await refused(
        redirectQuery(xml, 'state'),
        422,
        'The AuthnRequest has already been answered; start again from the application',
      );
      // The same id from another SP is another request.
      const loans = authnRequestXml({ id, issuer: LOANS.entityId });
      expect((await sso(server.client(), redirectQuery(loans))).status).toBe(303);
    });

    it('refuses passive requests and other response bindings', async () => {
      const passive = authnRequestXml({ issuer: PAYROLL.entityId, isPassive: true });
      await refused(redirectQuery(passive), 422, 'Passive sign-in is not supported');
      const artifact = authnRequestXml({
        issuer: PAYROLL.entityId,
        protocolBinding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact',
      });
      await refused(redirectQuery(artifact), 422, 'Only the HTTP-POST binding is supported for responses');
    });

    it('answers malformed requests with 400 JSON', async () => {
      await refused('', 400, 'SAMLRequest is required');
      await refused('SAMLRequest=%%%', 400, 'The query string is malformed');
      await refused('SAMLRequest=not*base64', 400, 'SAMLRequest is not base64');
      await refused(
        `SAMLRequest=${encodeURIComponent(Buffer.from('plain').toString('base64'))}`,
        400,
        'SAMLRequest cannot be inflated',
      );
      await refused(redirectQuery('<not-xml'), 400, expect.stringContaining('SAMLRequest is not valid XML'));
      await refused(
        redirectQuery(
          '<!DOCTYPE x [<!ENTITY a "b">]><samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>',
        ),
        400,
        'SAMLRequest is not valid XML (A DOCTYPE is not allowed)',
      );
      await refused(
        redirectQuery('<Response xmlns="urn:oasis:names:tc:SAML:2.0:protocol"/>'),
        400,
        'SAMLRequest is not an AuthnRequest',
      );
      const noIssuer = authnRequestXml({ issuer: PAYROLL.entityId }).replace(
        /<saml:Issuer>.*<\/saml:Issuer>/,
        '',
      );
      await refused(redirectQuery(noIssuer), 400, 'The AuthnRequest has no Issuer');
      const xml = authnRequestXml({ issuer: PAYROLL.entityId });
      await refused(`${redirectQuery(xml)}&SAMLRequest=x`, 400, 'The parameter SAMLRequest is repeated');
      await refused(redirectQuery(xml, 'r'.repeat(1025)), 400, 'RelayState is too long');
    });
  });

  describe('signed requests (an SP with a registered signing certificate)', () => {
    beforeEach(async () => {
      await server.db
        .updateTable('apps')
        .set({ sp_signing_certificate: spKey.certificate })
        .where('code', '=', 'PAYROLL')
        .execute();
    });

    it('accepts a request node-saml signed (HTTP-Redirect), and refuses it unsigned or altered', async () => {
      const signer = testSp({ ...PAYROLL, idp, privateKey: spKey.privateKey });
      const url = await signer.getAuthorizeUrlAsync('relay me', undefined, {});
      expect(new URL(url).searchParams.get('SigAlg')).toBe(
        'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      );

      const altered = new URL(url);
      altered.searchParams.set('RelayState', 'relay you');
      const alteredRes = await sso(server.client(), altered.search.slice(1));
      expect(alteredRes.status).toBe(422);
      expect((alteredRes.body as Json).message).toBe('The AuthnRequest signature is not valid');

      const client = server.client();
      const ok = await client.get(pathOf(url), { requestedWith: false });
      expect(ok.status).toBe(303);
      const login = await client.login<Outcome>('C10001');
      expect(login.body.saml?.relayState).toBe('relay me');

      const unsigned = authnRequestXml({ issuer: PAYROLL.entityId });
      const res = await sso(server.client(), redirectQuery(unsigned));
      expect(res.status).toBe(422);
      expect((res.body as Json).message).toBe('The AuthnRequest must be signed');
    });

    it('refuses a request signed with another key', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const signer = testSp({
        ...PAYROLL,
        idp,
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      });
      const url = await signer.getAuthorizeUrlAsync('', undefined, {});
      const res = await server.client().get(pathOf(url), { requestedWith: false });
      expect(res.status).toBe(422);
      expect((res.body as Json).message).toBe('The AuthnRequest signature is not valid');
    });

    it('accepts an enveloped signature by HTTP-POST, and refuses it after the request was changed', async () => {
      const xml = signAuthnRequest(
        authnRequestXml({ issuer: PAYROLL.entityId, acsUrl: PAYROLL.acsUrl, destination: SSO_URL }),
        spKey.privateKey,
      );
      const client = server.client();
      const form = new URLSearchParams({
        SAMLRequest: Buffer.from(xml).toString('base64'),
        RelayState: 'posted',
      });
      const posted = await client.request('POST', '/saml/sso', {
        raw: form.toString(),
        contentType: 'application/x-www-form-urlencoded',
        requestedWith: false,
      });
      expect(posted.status).toBe(303);
      const hop = posted.headers.get('location')!;
      expect(hop.startsWith('/saml/sso?SAMLRequest=')).toBe(true);
      // The hop is a top-level GET, which carries the portal's SameSite=Lax cookie.
      const landed = await client.get(hop, { requestedWith: false });
      expect(landed.status).toBe(303);
      expect(landed.headers.get('location')).toBe('/');
      const login = await client.login<Outcome>('C10001');
      expect(login.body).toMatchObject({ outcome: 'SAML_HANDOFF', saml: { relayState: 'posted' } });

      const changed = xml.replace('IssueInstant="', 'ForceAuthn="true" IssueInstant="');
      expect(changed).not.toBe(xml);
      const changedPost = await server.client().request('POST', '/saml/sso', {
        raw: new URLSearchParams({ SAMLRequest: Buffer.from(changed).toString('base64') }).toString(),
        contentType: 'application/x-www-form-urlencoded',
        requestedWith: false,
      });
      const changedRes = await server
        .client()
        .get(changedPost.headers.get('location')!, { requestedWith: false });
      expect(changedRes.status).toBe(422);
      expect((changedRes.body as Json).message).toBe('The AuthnRequest signature is not valid');
    });

    it('refuses a signature that covers another element than the request (wrapping)', async () => {
      const inner = signAuthnRequest(authnRequestXml({ issuer: PAYROLL.entityId }), spKey.privateKey);
      // The signed request moved inside an unsigned one with another id and a foreign ACS URL.
      const wrapped = authnRequestXml({
        issuer: PAYROLL.entityId,
        acsUrl: 'https://evil.example/acs',
      }).replace(
        '</samlp:AuthnRequest>',
        `<samlp:Extensions>${inner.replace(/^<\?xml[^>]*>/, '')}</samlp:Extensions></samlp:AuthnRequest>`,
      );
      const res = await sso(server.client(), redirectQuery(wrapped));
      expect(res.status).toBe(422);
      expect((res.body as Json).message).toBe('The AuthnRequest must be signed');
    });
  });

  it('turns an HTTP-POST request into the same request by redirect, and refuses an unreadable one with 400', async () => {
    const xml = authnRequestXml({ issuer: PAYROLL.entityId });
    const post = (body: string) =>
      server.client().request('POST', '/saml/sso', {
        raw: body,
        contentType: 'application/x-www-form-urlencoded',
        requestedWith: false,
      });
    const res = await post(
      new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }).toString(),
    );
    expect(res.status).toBe(303);
    const hop = new URL(res.headers.get('location')!, 'http://x');
    const inflated = (await import('node:zlib'))
      .inflateRawSync(Buffer.from(hop.searchParams.get('SAMLRequest')!, 'base64'))
      .toString();
    expect(inflated).toBe(xml);
    expect(hop.searchParams.has('RelayState')).toBe(false);
    const before = await requestIds();

    expect((await post('RelayState=x')).status).toBe(400);
    expect((await post('SAMLRequest=%3Cx')).status).toBe(400);
    expect((await post(`SAMLRequest=a&SAMLRequest=b`)).status).toBe(400);
    const json = await server
      .client()
      .request('POST', '/saml/sso', { json: { SAMLRequest: 'x' }, requestedWith: false });
    expect(json.status).toBe(400);
    expect(await requestIds()).toBe(before);
  });
});
