// Seeds the demo data set into an empty database, in one transaction. "Empty" means no identity
// exists; a database with identities is never touched again. Several instances starting together
// on one PostgreSQL are serialised by an advisory lock, and the emptiness check is repeated under it.
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../adapters/clock';
import { randomUuid, type Random } from '../adapters/random';
import type { SecretBox } from '../adapters/secret-box';
import type { Database } from '../db/schema';
import type { PasswordHasher } from '../domain/passwords';
import { invitationCodeHash } from '../domain/registration/invitations';
import {
  DEMO_ACCOUNTS,
  DEMO_APPS,
  DEMO_INVITATIONS,
  DEMO_PASSWORD,
  demoProperties,
  DEMO_SECURITY_ANSWERS,
} from './data';
import { normaliseSecurityAnswer } from '../domain/factors/factors';
import { seedDemoAccessRequests } from './access-requests';

/** Advisory lock key of the seeding transaction ('demo' in ASCII). */
const SEED_LOCK_KEY = 0x64656d6f;

export interface SeedDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  hasher: PasswordHasher;
  secretBox: SecretBox;
  /** PUBLIC_URL: the demo service providers live under it. */
  publicUrl: string;
}

async function hasIdentities(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('identities').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function seedDemo(deps: SeedDeps): Promise<{ seeded: boolean }> {
  const { db, clock, random, secretBox } = deps;
  if (await hasIdentities(db)) return { seeded: false };

  // Hash outside the transaction: argon2 takes tens of milliseconds each.
  const hashes = await Promise.all(DEMO_ACCOUNTS.map(() => deps.hasher.hash(DEMO_PASSWORD)));
  const answerHashes = await Promise.all(
    Object.entries(DEMO_SECURITY_ANSWERS).flatMap(([username, answers]) =>
      answers.map(async (a, i) => ({
        username,
        position: i + 1,
        question: a.question,
        hash: await deps.hasher.hash(normaliseSecurityAnswer(a.answer)),
      })),
    ),
  );
  const now = clock.now();
  const origin = new URL(deps.publicUrl).origin;

  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    if (await hasIdentities(trx)) return { seeded: false };

    const realm = await trx
      .selectFrom('realms')
      .select('code')
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();

    const facilityIds = new Map<string, string>();
    for (const app of DEMO_APPS) {
      const base = `${deps.publicUrl}${app.spPath}`;
      await trx
        .insertInto('apps')
        .values({
          code: app.code,
          name: app.name,
          context_type: app.contextType,
          facility_handoff: app.facilityHandoff,
          access_request_handling: app.accessRequestHandling,
          frame_origin: app.contextType === 'JWT' ? origin : null,
          entity_id: app.contextType === 'SAML' ? base : null,
          acs_url: app.contextType === 'SAML' ? `${base}/acs` : null,
          created_at: now,
        })
        .execute();
      for (const f of app.facilities) {
        const id = randomUuid(random);
        facilityIds.set(`${app.code}/${f.code}`, id);
        await trx
          .insertInto('facilities')
          .values({ id, app_code: app.code, code: f.code, name: f.name, alias: f.alias })
          .execute();
      }
    }

    const identityIds = new Map<string, string>();
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      const id = randomUuid(random);
      identityIds.set(account.username, id);
      await trx
        .insertInto('identities')
        .values({
          id,
          realm_code: realm.code,
          username: account.username,
          name: account.name,
          email: account.email,
          mobile: account.mobile,
          phone: account.phone,
          birth_date: account.birthDate,
          customer_number: account.customerNumber,
          is_staff: account.isStaff,
          is_admin: account.isAdmin,
          salary_number: account.salaryNumber,
          identity_verified: account.identityVerified,
          password_expired: account.passwordExpired,
          mfa_required: account.mfaRequired,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .insertInto('credentials')
        .values({ identity_id: id, password_hash: hashes[index]!, changed_at: now })
        .execute();
      if (account.roles.length > 0) {
        await trx
          .insertInto('identity_roles')
          .values(account.roles.map((role_code) => ({ identity_id: id, role_code })))
          .execute();
      }
      if (account.grants.length > 0) {
        await trx
          .insertInto('access_grants')
          .values(
            account.grants.map((g) => ({
              id: randomUuid(random),
              identity_id: id,
              app_code: g.app,
              facility_id: g.facility ? facilityIdOf(facilityIds, g.app, g.facility) : null,
              created_at: now,
            })),
          )
          .execute();
      }
      for (const factor of account.factors) {
        await trx
          .insertInto('identity_factors')
          .values({
            id: randomUuid(random),
            identity_id: id,
            factor_type: factor.type,
            mobile: factor.type === 'SMS' ? factor.mobile : null,
            secret_sealed: factor.type === 'AUTHENTICATOR_APP' ? secretBox.seal(factor.secret) : null,
            enrolled_at: now,
          })
          .execute();
      }
    }

    for (const invite of DEMO_INVITATIONS) {
      await trx
        .insertInto('invitations')
        .values({
          id: randomUuid(random),
          code_hash: invitationCodeHash(invite.code),
          email: invite.email,
          app_code: invite.app,
          facility_id: facilityIdOf(facilityIds, invite.app, invite.facility),
          roles: JSON.stringify([]),
          customer_number: invite.customerNumber,
          name: invite.name,
          birth_date: invite.birthDate,
          username: invite.username,
          mobile: null,
          is_staff: false,
          existing_identity_id: invite.existingUsername
            ? (identityIds.get(invite.existingUsername) ?? null)
            : null,
          created_at: now,
          expires_at: new Date(now.getTime() + 365 * 24 * 3600_000),
        })
        .execute();
    }

    for (const a of answerHashes) {
      const identityId = identityIds.get(a.username);
      if (!identityId) throw new Error(`Demo security answers name an unknown account ${a.username}`);
      await trx
        .insertInto('security_answers')
        .values({
          identity_id: identityId,
          position: a.position,
          question_code: a.question,
          answer_hash: a.hash,
          set_at: now,
        })
        .execute();
    }

    const properties = Object.entries(demoProperties(now)).map(([name, value]) => ({ name, value }));
    await trx
      .insertInto('properties')
      .values(properties)
      .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
      .execute();

    await seedDemoAccessRequests(trx, { random, now, identityIds, facilityIds });

    return { seeded: true };
  });
}

function facilityIdOf(ids: Map<string, string>, app: string, facility: string): string {
  const id = ids.get(`${app}/${facility}`);
  if (!id) throw new Error(`Demo data names an unknown facility ${app}/${facility}`);
  return id;
}

/**
 * Points the demo apps at where their service providers run now: the SAML apps' entity id and ACS
 * URL under PUBLIC_URL, the framed app's frame origin at the demo listener. Ports and PUBLIC_URL may
 * change between starts of a demo installation. Only a demo installation is touched (its apps'
 * consumers are the built-in /demo-sp/ ones): a real LOANS app registered in a database that
 * SEED_DEMO left alone keeps its endpoints.
 */
export async function refreshDemoEndpoints(
  db: Kysely<Database>,
  publicUrl: string,
  demoSpUrl: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const samlApps = await trx
      .selectFrom('apps')
      .select(['code', 'acs_url'])
      .where(
        'code',
        'in',
        DEMO_APPS.filter((a) => a.contextType === 'SAML').map((a) => a.code),
      )
      .execute();
    const isDemoAcs = (code: string, acsUrl: string | null) => {
      try {
        return (
          acsUrl !== null && new URL(acsUrl).pathname.toLowerCase() === `/demo-sp/${code.toLowerCase()}/acs`
        );
      } catch {
        return false;
      }
    };
    const isDemo = samlApps.length > 0 && samlApps.every((a) => isDemoAcs(a.code, a.acs_url));
    if (!isDemo) return;
    for (const app of DEMO_APPS) {
      const base = `${publicUrl}${app.spPath}`;
      await trx
        .updateTable('apps')
        .set(
          app.contextType === 'JWT'
            ? { frame_origin: new URL(demoSpUrl).origin }
            : { entity_id: base, acs_url: `${base}/acs` },
        )
        .where('code', '=', app.code)
        .execute();
    }
  });
}
