// Handing a signed-in user off to another application (the spec's Handoff and apps calls, and
// sign-in completion for SAML and JWT contexts), and accepting service providers' requests.
//
// Rules:
// - Where a response goes comes only from the app registry (apps.acs_url, apps.entity_id,
//   apps.frame_origin), never from a request.
// - A SAML app that hands off a facility needs one of the user's facility grants for it; an app
//   that takes no facility is handed off without one. No grant, no handoff (422 on the calls;
//   DIRECT_LOGIN with isSingleSignOn at sign-in completion, so the portal shows the error page).
// - An SP's AuthnRequest is answered once: its id is taken in the database (not in process memory,
//   so every instance sees it), it must be a few minutes fresh, and after its response is built the
//   session's context goes back to the portal's own, so no second response can claim it.
import { sql, type Kysely } from 'kysely';
import {
  PORTAL_APP_CODE,
  type AuthenticationOutcome,
  type Facility,
  type HandoffTarget,
} from '../../../contract/entities';
import type { HandoffResult } from '../../../contract/handoff';
import type { Clock } from '../../adapters/clock';
import { randomUuid, type Random } from '../../adapters/random';
import type { SigningKeys } from '../../adapters/signing-keys';
import {
  countFacilityGrants,
  findAppByCode,
  findSamlAppByEntityId,
  grantsForApp,
  takeSamlRequestId,
  updateSessionContext,
  type AppGrantRow,
} from '../../db/repositories/handoff';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import { grantsOf } from '../../db/repositories/reference';
import { deleteSession, type SessionRow } from '../../db/repositories/sessions';
import type { App, Database, Identity, SamlRequestContext, SessionContext } from '../../db/schema';
import { handoffTargetsFrom } from '../current-user';
import { refuse } from '../errors';
import type { IssuedSession, SessionService } from '../sessions';
import type { ForcedActionRule, HandoffCompletion } from '../sign-in-flow';
import { issueHandoffJwt, jwks } from './jwt';
import { handoffMessages, samlMessages } from './messages';
import { CLOCK_SKEW_MS, REQUEST_MAX_AGE_MS } from './saml-constants';
import { buildIdpMetadata, type IdpEndpoints } from './saml-metadata';
import {
  checkAnswerable,
  readAuthnRequest,
  SamlRequestError,
  verifyEmbeddedSignature,
  verifyRedirectSignature,
  type AuthnRequest,
} from './saml-request';
import { buildSamlResponse, type SamlAttribute } from './saml-response';

/** Longest RelayState carried through (SAML asks SPs for 80 bytes; some send more). */
export const MAX_RELAY_STATE_LENGTH = 1024;

export interface HandoffDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  keys: SigningKeys;
  sessions: SessionService;
  /** PUBLIC_URL without a trailing slash. */
  publicUrl: string;
  defaultContext: () => Promise<SessionContext>;
}

/** Where the browser goes after an accepted AuthnRequest. */
export type SsoLanding = '/' | '/single-sign-on';

type SamlApp = App & { entity_id: string; acs_url: string };

function isSamlApp(app: App | undefined): app is SamlApp {
  return !!app && app.context_type === 'SAML' && !!app.entity_id && !!app.acs_url;
}

/** The portal's own context in the same realm: what a session returns to after a handoff. */
export function portalContext(context: SessionContext): SessionContext {
  return { appCode: PORTAL_APP_CODE, realmCode: context.realmCode, showInHeader: false, type: 'DIRECT' };
}

/** The exact origin of an absolute http(s) URL, or null. */
function exactOrigin(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

export class HandoffService {
  readonly idp: IdpEndpoints;
  #metadata: string | undefined;

  constructor(private readonly deps: HandoffDeps) {
    this.idp = { entityId: `${deps.publicUrl}/saml/metadata`, ssoUrl: `${deps.publicUrl}/saml/sso` };
  }

  metadata(): string {
    this.#metadata ??= buildIdpMetadata(this.idp, this.deps.keys.saml);
    return this.#metadata;
  }

  jwks() {
    return jwks(this.deps.keys.jwt);
  }

  /** The user's handoff targets, all or one app's. */
  async targets(identityId: string, appCode?: string): Promise<HandoffTarget[]> {
    const all = handoffTargetsFrom(await grantsOf(this.deps.db, identityId));
    return appCode === undefined ? all : all.filter((t) => t.appCode === appCode);
  }

  /** IdP-initiated SAML handoff (applications page, app grid). */
  async samlHandoff(
    session: SessionRow,
    request: { appCode: string; facilityCode: string | null },
  ): Promise<HandoffResult> {
    const identityId = session.identityId;
    if (!identityId) throw refuse.sessionExpired();
    const app = await this.#samlAppForCall(request.appCode);
    const target = await this.#checkedTarget(identityId, app, request.facilityCode);
    const identity = await this.#identity(identityId);
    return { ...target, saml: this.#samlData(identity, app, target.facilityCode, session, null) };
  }

  /** The single-sign-on page's handoff: answers the SP's pending AuthnRequest, once. */
  async ssoSamlHandoff(
    session: SessionRow,
    request: { appCode: string; facilityCode: string | null },
  ): Promise<HandoffResult> {
    const identityId = session.identityId;
    if (!identityId) throw refuse.sessionExpired();
    const { context } = session;
    const samlRequest = context.type === 'SAML' ? context.samlRequest : undefined;
    if (!samlRequest) throw refuse.unprocessable(handoffMessages.noSsoRequest);
    if (request.appCode !== context.appCode) {
      const contextApp = await findAppByCode(this.deps.db, context.appCode);
      throw refuse.unprocessable(handoffMessages.otherSsoApp(contextApp?.name ?? context.appCode));
    }
    const app = await this.#samlAppForCall(request.appCode);
    const target = await this.#checkedTarget(identityId, app, request.facilityCode);
    const identity = await this.#identity(identityId);
    await this.#answer(session, samlRequest);
    return { ...target, saml: this.#samlData(identity, app, target.facilityCode, session, samlRequest) };
  }

  /** The facilities the SELECT_FACILITY step offers: the user's grants at the context's app. */
  async selectableFacilities(session: SessionRow): Promise<Facility[]> {
    if (!session.identityId) throw refuse.sessionExpired();
    const appCode = session.context.appCode;
    const grants = await grantsForApp(this.deps.db, session.identityId, appCode);
    return facilityGrants(grants).map((g) => ({
      code: g.facilityCode,
      name: g.facilityName ?? g.facilityCode,
      aliasOrCode: g.facilityAlias ?? g.facilityCode,
      app: { code: appCode },
    }));
  }

  /**
   * Checks a facility chosen at the SELECT_FACILITY step (it must be the context's app and one of
   * the user's facilities there) and answers its handoff target.
   */
  async checkSelectedFacility(
    session: SessionRow,
    request: { appCode: string; facilityCode: string },
  ): Promise<HandoffTarget> {
    if (!session.identityId) throw refuse.sessionExpired();
    const contextApp = await findAppByCode(this.deps.db, session.context.appCode);
    if (request.appCode !== session.context.appCode) {
      throw refuse.unprocessable(handoffMessages.notContextApp(contextApp?.name ?? session.context.appCode));
    }
    const app = await this.#samlAppForCall(request.appCode);
    return this.#checkedTarget(session.identityId, app, request.facilityCode);
  }

  /** SELECT_FACILITY applies when the context's SAML app hands off a facility and the user has several. */
  readonly selectFacilityRule: ForcedActionRule = {
    action: 'SELECT_FACILITY',
    applies: async ({ context, identity, db }) => {
      if (context.type !== 'SAML' || context.appCode === PORTAL_APP_CODE) return false;
      const app = await findAppByCode(db, context.appCode);
      if (!isSamlApp(app) || app.facility_handoff !== 'SELECTED_BEFORE_HANDOFF') return false;
      return (await countFacilityGrants(db, identity.id, app.code)) > 1;
    },
  };

  /** Sign-in completion in a SAML context (SP-initiated). */
  readonly completeSaml: HandoffCompletion = async ({ identity, context, session }) => {
    const app = await findAppByCode(this.deps.db, context.appCode);
    if (!isSamlApp(app)) {
      await this.#leaveContext(session);
      return {};
    }
    const grants = await grantsForApp(this.deps.db, identity.id, app.code);
    let facilityCode: string | null = null;
    if (app.facility_handoff === 'SELECTED_BEFORE_HANDOFF') {
      const facilities = facilityGrants(grants);
      const chosen = session.data.handoffFacilityCode;
      const facility =
        chosen !== undefined
          ? facilities.find((f) => f.facilityCode === chosen)
          : facilities.length === 1
            ? facilities[0]
            : undefined;
      if (facilities.length > 1 && chosen === undefined) {
        // The SELECT_FACILITY rule runs before completion whenever there are several.
        throw new Error(`SAML completion for ${app.code} reached with several facilities and none chosen`);
      }
      if (!facility) return this.#noAccess(session, app);
      facilityCode = facility.facilityCode;
    } else if (grants.length === 0) {
      return this.#noAccess(session, app);
    }
    const samlRequest = context.samlRequest ?? null;
    if (samlRequest) await this.#answer(session, samlRequest);
    else await this.#leaveContext(session);
    return {
      outcome: 'SAML_HANDOFF',
      saml: this.#samlData(identity, app, facilityCode, session, samlRequest),
    };
  };

  /** Sign-in completion in a framed (JWT) context. */
  readonly completeJwt: HandoffCompletion = async ({ identity, context }) => {
    const app = await findAppByCode(this.deps.db, context.appCode);
    const frameOrigin = exactOrigin(app?.context_type === 'JWT' ? app.frame_origin : null);
    if (!app || !frameOrigin) return {};
    const grants = await grantsForApp(this.deps.db, identity.id, app.code);
    if (grants.length === 0) return { outcome: 'DIRECT_LOGIN', isSingleSignOn: true, appName: app.name };
    const jwt = await issueHandoffJwt({
      key: this.deps.keys.jwt,
      issuer: this.deps.publicUrl,
      audience: app.code,
      subject: identity.id,
      jti: randomUuid(this.deps.random),
      now: this.deps.clock.now(),
      claims: { username: identity.username, name: identity.name, email: identity.email },
    });
    return { outcome: 'JWT', jwt, frameOrigin };
  };

  /**
   * Checks an SP's AuthnRequest: a registered SP (by Issuer), its signature when it has a
   * registered certificate, the ACS URL when named, the Destination (when named, and always when
   * signed), freshness. Nothing is written.
   * `redirectQuery` is the raw query of the HTTP-Redirect binding; without a detached signature
   * there, an enveloped XML signature is looked for.
   */
  async checkAuthnRequest(
    xml: string,
    redirectQuery: Map<string, string> | null,
  ): Promise<{ app: SamlApp; request: AuthnRequest }> {
    let request = readAuthnRequest(xml);
    const app = await findSamlAppByEntityId(this.deps.db, request.issuer);
    if (!isSamlApp(app)) throw new SamlRequestError(samlMessages.unknownSp);
    // An SP with a registered certificate must sign; its requests' signatures are verified here.
    const signed = app.sp_signing_certificate !== null;
    if (app.sp_signing_certificate) {
      if (redirectQuery?.has('Signature')) {
        verifyRedirectSignature(redirectQuery, app.sp_signing_certificate);
      } else {
        // Only what the signature covers is read from here on.
        request = readAuthnRequest(verifyEmbeddedSignature(xml, app.sp_signing_certificate));
        if (request.issuer !== app.entity_id) throw new SamlRequestError(samlMessages.unknownSp);
      }
    }
    checkAnswerable(request);
    if (request.acsUrl !== null && request.acsUrl !== app.acs_url) {
      throw new SamlRequestError(samlMessages.acsMismatch);
    }
    // SAML bindings 3.4.5.2 and 3.5.5.2: a signed message names its Destination (so a request
    // signed for another endpoint cannot be replayed at ours); an unsigned one may leave it out.
    if (signed && request.destination === null) {
      throw new SamlRequestError(samlMessages.signedWithoutDestination);
    }
    if (request.destination !== null && request.destination !== this.idp.ssoUrl) {
      throw new SamlRequestError(samlMessages.wrongDestination);
    }
    const now = this.deps.clock.now().getTime();
    const issued = request.issueInstant.getTime();
    if (issued > now + CLOCK_SKEW_MS) throw new SamlRequestError(samlMessages.notYetValid);
    if (issued < now - REQUEST_MAX_AGE_MS - CLOCK_SKEW_MS) throw new SamlRequestError(samlMessages.expired);
    return { app, request };
  }

  /**
   * Makes a checked AuthnRequest the context of the browser's session: an anonymous session takes
   * it (the user signs in), a signed-in one takes it too (the single-sign-on page asks), unless
   * the SP forces a new sign-in. A pending sign-in is abandoned: its steps were decided for
   * another context. Taking the request id and the session change happen together or not at all.
   */
  async acceptAuthnRequest(
    existing: SessionRow | null,
    checked: { app: SamlApp; request: AuthnRequest },
    relayState: string | null,
  ): Promise<{ issued: IssuedSession | null; landing: SsoLanding }> {
    const { app, request } = checked;
    const base = existing?.context ?? (await this.deps.defaultContext());
    const samlRequest: SamlRequestContext = {
      requestId: request.id,
      relayState,
      issueInstant: request.issueInstant.toISOString(),
    };
    const context: SessionContext = {
      appCode: app.code,
      realmCode: base.realmCode,
      showInHeader: true,
      type: 'SAML',
      samlRequest,
    };
    const keeps =
      existing !== null &&
      (existing.type === 'ANONYMOUS' || (existing.type === 'AUTHENTICATED' && !request.forceAuthn));
    const issued = keeps ? null : await this.deps.sessions.startAnonymous(context);
    const expiresAt = new Date(request.issueInstant.getTime() + REQUEST_MAX_AGE_MS + 2 * CLOCK_SKEW_MS);
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const fresh = await takeSamlRequestId(trx, {
          appCode: app.code,
          requestId: request.id,
          expiresAt,
          now: this.deps.clock.now(),
        });
        if (!fresh) throw new SamlRequestError(samlMessages.replayed);
        if (keeps) await updateSessionContext(trx, existing.idHash, context);
        else if (existing) await deleteSession(trx, existing.idHash);
      });
    } catch (error) {
      if (issued) await this.deps.sessions.end(issued.session.idHash);
      throw error;
    }
    const landing: SsoLanding = keeps && existing.type === 'AUTHENTICATED' ? '/single-sign-on' : '/';
    return { issued, landing };
  }

  /**
   * The framed entry point: a new anonymous session whose context is the registered JWT app, in
   * place of the frame's earlier session (each framed visit signs in afresh, since the token is
   * only delivered at sign-in).
   */
  async startFramedSession(appCode: string, existingFramed: SessionRow | null): Promise<IssuedSession> {
    const app = await findAppByCode(this.deps.db, appCode);
    if (!app || app.context_type !== 'JWT' || !exactOrigin(app.frame_origin)) {
      throw refuse.notFound(samlMessages.unknownJwtApp);
    }
    const base = await this.deps.defaultContext();
    const issued = await this.deps.sessions.startAnonymous({
      appCode: app.code,
      realmCode: base.realmCode,
      showInHeader: false,
      type: 'JWT',
    });
    if (existingFramed) await this.deps.sessions.end(existingFramed.idHash);
    return issued;
  }

  async #samlAppForCall(appCode: string): Promise<SamlApp> {
    const app = await findAppByCode(this.deps.db, appCode);
    if (!app) throw refuse.unprocessable(handoffMessages.unknownApp(appCode));
    if (!isSamlApp(app)) throw refuse.unprocessable(handoffMessages.notSaml(app.name));
    return app;
  }

  async #checkedTarget(
    identityId: string,
    app: SamlApp,
    facilityCode: string | null,
  ): Promise<HandoffTarget> {
    const grants = await grantsForApp(this.deps.db, identityId, app.code);
    if (grants.length === 0) throw refuse.unprocessable(handoffMessages.noAccess(app.name));
    const base = { appName: app.name, appCode: app.code };
    if (app.facility_handoff !== 'SELECTED_BEFORE_HANDOFF') {
      if (facilityCode !== null) throw refuse.unprocessable(handoffMessages.noFacility(app.name));
      return { ...base, facilityCode: null, facilityName: null, facilityAliasOrCode: null };
    }
    if (facilityCode === null) throw refuse.unprocessable(handoffMessages.facilityRequired(app.name));
    const grant = facilityGrants(grants).find((g) => g.facilityCode === facilityCode);
    if (!grant) throw refuse.unprocessable(handoffMessages.noAccessAtFacility(app.name, facilityCode));
    return {
      ...base,
      facilityCode: grant.facilityCode,
      facilityName: grant.facilityName,
      facilityAliasOrCode: grant.facilityAlias ?? grant.facilityCode,
    };
  }

  async #identity(identityId: string): Promise<Identity> {
    const found = await findIdentityWithRoles(this.deps.db, identityId);
    if (!found) throw refuse.sessionExpired();
    return found.identity;
  }

  #samlData(
    identity: Identity,
    app: SamlApp,
    facilityCode: string | null,
    session: SessionRow,
    samlRequest: SamlRequestContext | null,
  ) {
    const attributes: SamlAttribute[] = [
      { name: 'username', value: identity.username },
      { name: 'name', value: identity.name },
    ];
    if (identity.email) attributes.push({ name: 'email', value: identity.email });
    if (facilityCode !== null) attributes.push({ name: 'facilityCode', value: facilityCode });
    const response = buildSamlResponse({
      idpEntityId: this.idp.entityId,
      spEntityId: app.entity_id,
      acsUrl: app.acs_url,
      inResponseTo: samlRequest?.requestId ?? null,
      nameId: identity.id,
      attributes,
      authnInstant: session.createdAt,
      multiFactor: (session.data.passed ?? []).includes('MFA'),
      now: this.deps.clock.now(),
      random: this.deps.random,
      key: this.deps.keys.saml,
    });
    return {
      assertionConsumerServiceUrl: app.acs_url,
      samlResponse: response.base64,
      relayState: samlRequest?.relayState ?? null,
    };
  }

  /**
   * Claims the session's pending AuthnRequest by returning the session to the portal's context,
   * only while that request is still the pending one: of two concurrent answers, one wins.
   */
  async #answer(session: SessionRow, samlRequest: SamlRequestContext): Promise<void> {
    const result = await this.deps.db
      .updateTable('sessions')
      .set({ context: JSON.stringify(portalContext(session.context)) })
      .where('id_hash', '=', session.idHash)
      .where(sql<string>`context #>> '{samlRequest,requestId}'`, '=', samlRequest.requestId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw refuse.unprocessable(handoffMessages.noSsoRequest);
  }

  async #leaveContext(session: SessionRow): Promise<void> {
    await updateSessionContext(this.deps.db, session.idHash, portalContext(session.context));
  }

  async #noAccess(session: SessionRow, app: App): Promise<Partial<AuthenticationOutcome>> {
    await this.#leaveContext(session);
    return { outcome: 'DIRECT_LOGIN', isSingleSignOn: true, appName: app.name };
  }
}

type FacilityGrant = AppGrantRow & { facilityCode: string };

function facilityGrants(grants: readonly AppGrantRow[]): FacilityGrant[] {
  const seen = new Set<string>();
  const out: FacilityGrant[] = [];
  for (const g of grants) {
    if (g.facilityCode === null || seen.has(g.facilityCode)) continue;
    seen.add(g.facilityCode);
    out.push(g as FacilityGrant);
  }
  return out;
}
