// Security review, SP-initiated SAML: SAML bindings 3.4.5.2 (HTTP-Redirect) and 3.5.5.2 (HTTP-POST)
// require a signed message to name its Destination. A signed AuthnRequest of an SP with a
// registered certificate is now refused without one (it was accepted), and still accepted with our
// SSO endpoint as its Destination; an unsigned request may leave it out, as before.
import { generateKeyPairSync, sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateSigningKeys } from '../../src/server/adapters/signing-keys';
import { authnRequestXml, readMetadata, signAuthnRequest } from './support/saml';
import { startServer, type TestClient, type TestServer } from './support/server';
import { targets } from './support/targets';

type Json = Record<string, unknown>;

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

let spKey: { privateKey: string; certificate: string };
beforeAll(async () => {
  const keys = await generateSigningKeys('http://localhost:8080');
  spKey = {
    privateKey: keys.saml.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificate: keys.saml.certificatePem,
  };
});

/** The HTTP-Redirect query of `xml` with a detached RSA-SHA256 signature by `privateKey`. */
function signedRedirectQuery(xml: string, privateKey: string, relayState = 'relay'): string {
  const parts = [
    `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`,
    `RelayState=${encodeURIComponent(relayState)}`,
    `SigAlg=${encodeURIComponent(RSA_SHA256)}`,
  ];
  const signature = sign('sha256', Buffer.from(parts.join('&')), privateKey).toString('base64');
  return `${parts.join('&')}&Signature=${encodeURIComponent(signature)}`;
}

describe.each(targets)('signed AuthnRequests name their Destination, on $name', (target) => {
  let server: TestServer;
  let ssoUrl: string;
  let payroll: { entityId: string; acsUrl: string };

  beforeAll(async () => {
    server = await startServer(target);
    ssoUrl = readMetadata((await server.client().get('/saml/metadata')).text).ssoUrl;
    const app = await server.db
      .selectFrom('apps')
      .select(['entity_id', 'acs_url'])
      .where('code', '=', 'PAYROLL')
      .executeTakeFirstOrThrow();
    payroll = { entityId: app.entity_id!, acsUrl: app.acs_url! };
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.updateTable('apps').set({ sp_signing_certificate: null }).execute();
  });

  const registerCertificate = () =>
    server.db
      .updateTable('apps')
      .set({ sp_signing_certificate: spKey.certificate })
      .where('code', '=', 'PAYROLL')
      .execute();

  const sso = (client: TestClient, query: string) =>
    client.get<Json>(`/saml/sso?${query}`, { requestedWith: false });

  /** HTTP-POST binding: the form post, then the redirect hop it answers with. */
  async function postBinding(client: TestClient, xml: string) {
    const posted = await client.request('POST', '/saml/sso', {
      raw: new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      requestedWith: false,
    });
    expect(posted.status).toBe(303);
    return client.get<Json>(posted.headers.get('location')!, { requestedWith: false });
  }

  it('HTTP-Redirect: refuses a signed request without Destination, accepts it with ours', async () => {
    await registerCertificate();
    const without = await sso(
      server.client(),
      signedRedirectQuery(authnRequestXml({ issuer: payroll.entityId }), spKey.privateKey),
    );
    expect(without.status).toBe(422);
    expect(without.body.message).toBe('A signed AuthnRequest must name its Destination');
    expect(await server.db.selectFrom('saml_request_ids').selectAll().execute()).toEqual([]);

    const client = server.client();
    const withOurs = await sso(
      client,
      signedRedirectQuery(
        authnRequestXml({ issuer: payroll.entityId, destination: ssoUrl }),
        spKey.privateKey,
      ),
    );
    expect(withOurs.status).toBe(303);
    expect(withOurs.headers.get('location')).toBe('/');

    const elsewhere = await sso(
      server.client(),
      signedRedirectQuery(
        authnRequestXml({ issuer: payroll.entityId, destination: 'https://other-idp.example/sso' }),
        spKey.privateKey,
      ),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.message).toBe('The AuthnRequest is addressed to another identity provider');
  });

  it('HTTP-POST: refuses an enveloped-signed request without Destination, accepts it with ours', async () => {
    await registerCertificate();
    const without = await postBinding(
      server.client(),
      signAuthnRequest(
        authnRequestXml({ issuer: payroll.entityId, acsUrl: payroll.acsUrl }),
        spKey.privateKey,
      ),
    );
    expect(without.status).toBe(422);
    expect(without.body.message).toBe('A signed AuthnRequest must name its Destination');

    const withOurs = await postBinding(
      server.client(),
      signAuthnRequest(
        authnRequestXml({ issuer: payroll.entityId, acsUrl: payroll.acsUrl, destination: ssoUrl }),
        spKey.privateKey,
      ),
    );
    expect(withOurs.status).toBe(303);
    expect(withOurs.headers.get('location')).toBe('/');
  });

  it('an unsigned request of an SP without a certificate may still leave Destination out', async () => {
    const res = await sso(
      server.client(),
      new URLSearchParams({
        SAMLRequest: deflateRawSync(Buffer.from(authnRequestXml({ issuer: payroll.entityId }))).toString(
          'base64',
        ),
      }).toString(),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
  });

  it('a request signed with another key is refused for its signature first', async () => {
    await registerCertificate();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const res = await sso(
      server.client(),
      signedRedirectQuery(
        authnRequestXml({ issuer: payroll.entityId }),
        privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ),
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The AuthnRequest signature is not valid');
  });
});
