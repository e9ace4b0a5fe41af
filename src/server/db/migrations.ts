// Schema migrations, kept in code (Kysely Migrator with an in-code provider) so the server needs
// no migration folder at run time. Each migration is a list of single statements (PGlite's extended
// protocol runs one statement per query). Never edit a released migration: add the next one.
import {
  Migrator,
  sql,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely';

/** What a migration may need beyond the database: keys that live outside it. */
export interface MigrationContext {
  /** The failure limit's username key (domain/lockout.ts, usernameKeyer). */
  usernameKey?: (normalisedUsername: string) => string;
}

function statements(list: string[]): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const text of list) await sql.raw(text).execute(db);
    },
  };
}

/** Every migration, in order; those that need the context get it from `context`. */
export function migrationsWith(context: MigrationContext): Record<string, Migration> {
  return {
    ...fixedMigrations,
    // The failure limit keeps no typed usernames (people type passwords into the username box):
    // failed_auth_counts is keyed by a keyed hash of the normalised username, and the attempts of
    // usernames that name no identity are logged under it. Existing rows are converted in place,
    // with the data key, in the migration's transaction.
    '0019_failure_limit_username_keys': {
      async up(db: Kysely<unknown>) {
        await sql`alter table failed_auth_counts rename column username to username_key`.execute(db);
        const counts = await sql<{
          name: string;
        }>`select username_key as name from failed_auth_counts`.execute(db);
        const attempts = await sql<{ name: string }>`
          select distinct username as name from sign_in_attempts where identity_id is null
        `.execute(db);
        if (counts.rows.length + attempts.rows.length === 0) return;
        const keyOf = context.usernameKey;
        if (!keyOf)
          throw new Error('converting the failure limit rows needs the data key (DATA_ENCRYPTION_KEY)');
        const pairs = (rows: { name: string }[]) => {
          const names = rows.map((r) => r.name);
          return { old: names, keyed: names.map(keyOf) };
        };
        const c = pairs(counts.rows);
        await sql`
          update failed_auth_counts f set username_key = m.keyed
          from unnest(${c.old}::text[], ${c.keyed}::text[]) as m(old, keyed)
          where f.username_key = m.old
        `.execute(db);
        const a = pairs(attempts.rows);
        await sql`
          update sign_in_attempts s set username = m.keyed
          from unnest(${a.old}::text[], ${a.keyed}::text[]) as m(old, keyed)
          where s.identity_id is null and s.username = m.old
        `.execute(db);
      },
    },
    // Checks of an account in flight (domain/lockout.ts, Lockout.withTries): a code or password
    // check takes one before it runs, so parallel checks from many sessions cannot pass the lock.
    // A try taken by a server that stopped mid-check lapses after in_flight_at's lapse.
    '0020_failure_limit_in_flight': statements([
      `alter table failed_auth_counts add column in_flight integer not null default 0`,
      `alter table failed_auth_counts add column in_flight_at timestamptz`,
    ]),
    // The password resets in progress that name an account (repositories/password-reset.ts,
    // endResetSessionsOf): found through this index when the account's owner changes its
    // password, email or factors, instead of by reading every anonymous session.
    '0021_sessions_reset_candidates': statements([
      `create index sessions_reset_candidates on sessions
        using gin ((data -> 'passwordReset' -> 'candidateIds'))
        where type = 'ANONYMOUS' and data ? 'passwordReset'`,
    ]),
    // Indexes for a bank's row counts (an audit on PostgreSQL 15 with 2M identities, 1.5M
    // invitations, 300k access requests, 1M failure counts and 1M trusted devices):
    // - the admin lists' searches (domain/admin/identities.ts, repositories/admin.ts and
    //   access-requests.ts) match text anywhere, `lower(column) like '%text%'`: trigram GIN indexes
    //   on exactly those expressions (pg_trgm), one arm each of the search's OR, and btree indexes
    //   on the columns through which a matching app, facility or requester selects rows;
    // - the lists' orders: identities by (retired, lower(username), id), invitations by
    //   (created_at desc, id desc), so a page is read in order instead of sorted from every row;
    // - the sweeps (http/app.ts): failed_auth_counts by last_failed_at where locked_at is null (the
    //   sweep's own predicate, repositories/lockout.ts), trusted_devices by expires_at.
    // Kysely runs a migration in a transaction, where CREATE INDEX CONCURRENTLY cannot run: each
    // index here blocks writes to its table while it is built. At the audit's sizes
    // identities_search takes about 85 s: under a statement_timeout (the request pool's 15 s,
    // DATABASE_STATEMENT_TIMEOUT_MS) the migration fails, rolled back whole, and the server does
    // not start; without one, sign-ins and admins wait on those tables for minutes. With big
    // tables, build the indexes beforehand, outside a transaction, under the same names, with psql
    // as a role allowed to:
    //   create extension if not exists pg_trgm;
    // then each `create index` below as `create index concurrently if not exists <same name> ...`
    // (afterwards check that none was left invalid by a failed build:
    // `select indexrelid::regclass from pg_index where not indisvalid`; drop any such and build it
    // again). This migration then finds them, skips them and records itself.
    // PGlite has pg_trgm only when its instance is created with the extension (database.ts,
    // createPGlite's `extensions`); without it this migration creates every index but the trigram
    // ones, and the searches find the same rows without them. PostgreSQL must have the extension:
    // without it, or without the right to create it (README), the migration fails.
    '0022_list_and_sweep_indexes': {
      async up(db: Kysely<unknown>) {
        for (const text of [
          `create index if not exists identities_list_order
            on identities ((retired_at is not null), lower(username), id)`,
          `create index if not exists invitations_created on invitations (created_at desc, id desc)`,
          `create index if not exists invitations_app on invitations (app_code)`,
          `create index if not exists invitations_facility on invitations (facility_id)`,
          `create index if not exists access_requests_requester on access_requests (requester_identity_id)`,
          `create index if not exists access_requests_facility on access_requests (facility_id)`,
          `create index if not exists access_requests_status on access_requests (status)`,
          `create index if not exists failed_auth_counts_idle
            on failed_auth_counts (last_failed_at) where locked_at is null`,
          `create index if not exists trusted_devices_expires_at on trusted_devices (expires_at)`,
        ])
          await sql.raw(text).execute(db);
        const { rows } = await sql<{ skip: boolean }>`
          select version() like '%PGlite%'
            and not exists (select from pg_available_extensions where name = 'pg_trgm') as skip
        `.execute(db);
        if (rows[0]?.skip) return;
        for (const text of [
          `create extension if not exists pg_trgm`,
          // The mobile is searched by its digits: the expression is the search's, character for
          // character (domain/admin/identities.ts, MOBILE_DIGITS), or the planner cannot use it.
          `create index if not exists identities_search on identities using gin (
            lower(username) gin_trgm_ops,
            lower(name) gin_trgm_ops,
            lower(email) gin_trgm_ops,
            lower(customer_number) gin_trgm_ops,
            regexp_replace(coalesce(mobile, ''), '[^0-9]', '', 'g') gin_trgm_ops
          )`,
          `create index if not exists invitations_search on invitations using gin (
            lower(email) gin_trgm_ops,
            lower(name) gin_trgm_ops,
            lower(customer_number) gin_trgm_ops
          )`,
          `create index if not exists access_requests_search on access_requests
            using gin (lower(code) gin_trgm_ops)`,
        ])
          await sql.raw(text).execute(db);
      },
    },
    // The attempt log without its foreign key to identities. The key made PostgreSQL lock the
    // identity's row (FOR KEY SHARE) on every attempt logged, successful or not; to keep a wrong
    // password's time from telling a known username from an unknown one, an unknown one's failure
    // then locked another identity's row, the same one every time (the first by id): under
    // credential stuffing every instance queued on that one row, and each shared lock made a
    // MultiXact (the database review measured 3,553 -> 1,843 inserts a second at 16 clients).
    // Identities are never deleted (only retired), and every attempt names the identity its
    // sign-in has just read, so the key guarded nothing the code does not; without it neither kind
    // of attempt locks anything but its own new row. Dropping a constraint is a catalogue change:
    // instant on a table of any size.
    '0023_sign_in_attempts_without_identity_lock': statements([
      `alter table sign_in_attempts drop constraint if exists sign_in_attempts_identity_id_fkey`,
    ]),
    // Which admin created an invitation (domain/admin/invitations.ts), as 0016 keeps which admin
    // revoked one: an admin's invitation is never anonymous. Null for invitations made before, and
    // for those of `npm run invite` and the demo seed, which no admin makes; like the revoker, an
    // admin's later removal keeps the invitation, its creator unnamed.
    // And a customer number is one customer's: at most one live (unretired) identity holds it
    // (identities_customer_number_live). Invitations and registration refuse a second holder with
    // a 422 (registration/invitations.ts, registration/service.ts); the index settles two
    // registrations at once. A merge retires the other accounts before the survivor takes their
    // number, so it never holds two. Live identities that share a customer number (registered from
    // invitations before they were checked) stop the migration, rolled back whole, with the count:
    // find them with `select customer_number, array_agg(username) from identities where retired_at
    // is null and customer_number is not null group by 1 having count(*) > 1`, merge or retire the
    // extra accounts, and start again. Like 0022's and 0023's, its statements skip a column or
    // index that is there already.
    '0024_invitation_creator': {
      async up(db: Kysely<unknown>) {
        await sql`alter table invitations add column if not exists created_by_identity_id uuid
          references identities (id) on delete set null`.execute(db);
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from (
            select customer_number from identities
            where retired_at is null and customer_number is not null
            group by customer_number having count(*) > 1
          ) shared
        `.execute(db);
        const shared = rows[0]?.n ?? 0;
        if (shared > 0)
          throw new Error(
            `${shared} customer number(s) each belong to more than one live account; merge or retire the extra accounts first (see migration 0024)`,
          );
        await sql`create unique index if not exists identities_customer_number_live on identities (customer_number)
          where retired_at is null and customer_number is not null`.execute(db);
      },
    },
  };
}

const fixedMigrations: Record<string, Migration> = {
  '0001_schema': statements([
    `create table realms (
      code text primary key,
      name text not null,
      auth_enabled boolean not null default true,
      is_default boolean not null default false,
      created_at timestamptz not null default now()
    )`,
    `create unique index realms_single_default on realms (is_default) where is_default`,

    `create table identities (
      id uuid primary key,
      realm_code text not null references realms (code),
      username text not null,
      name text not null,
      email text,
      mobile text,
      phone text,
      birth_date date,
      customer_number text,
      is_staff boolean not null default false,
      is_admin boolean not null default false,
      salary_number text,
      identity_verified boolean not null default false,
      password_expired boolean not null default false,
      mfa_required boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      retired_at timestamptz
    )`,
    `create unique index identities_username_ci on identities (lower(username))`,
    `create index identities_email_ci on identities (lower(email))`,

    `create table credentials (
      identity_id uuid primary key references identities (id) on delete cascade,
      password_hash text not null,
      changed_at timestamptz not null
    )`,

    `create table roles (
      code text primary key,
      name text not null
    )`,
    `create table identity_roles (
      identity_id uuid not null references identities (id) on delete cascade,
      role_code text not null references roles (code),
      primary key (identity_id, role_code)
    )`,

    `create table apps (
      code text primary key,
      name text not null,
      context_type text not null check (context_type in ('SAML', 'JWT')),
      facility_handoff text not null check (facility_handoff in ('NONE', 'SELECTED_BEFORE_HANDOFF')),
      access_request_handling text not null check (access_request_handling in ('IMMEDIATE', 'MANUAL')),
      frame_origin text,
      entity_id text,
      acs_url text,
      created_at timestamptz not null
    )`,
    `create table facilities (
      id uuid primary key,
      app_code text not null references apps (code) on delete cascade,
      code text not null,
      name text not null,
      alias text,
      unique (app_code, code)
    )`,
    `create table access_grants (
      id uuid primary key,
      identity_id uuid not null references identities (id) on delete cascade,
      app_code text not null references apps (code) on delete cascade,
      facility_id uuid references facilities (id) on delete cascade,
      created_at timestamptz not null
    )`,
    // One grant per identity, app and facility; "no facility" counts once too.
    `create unique index access_grants_unique
      on access_grants (identity_id, app_code, coalesce(facility_id, '00000000-0000-0000-0000-000000000000'))`,

    `create table properties (
      name text primary key,
      value text
    )`,
    `create table enumerations (
      name text not null,
      code text not null,
      description text not null,
      sort_order integer not null,
      primary key (name, code)
    )`,

    `create table sessions (
      id_hash text primary key,
      identity_id uuid references identities (id) on delete cascade,
      type text not null check (type in ('ANONYMOUS', 'AUTHENTICATION_PENDING', 'AUTHENTICATED')),
      context jsonb not null,
      data jsonb not null default '{}'::jsonb,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      absolute_expires_at timestamptz not null,
      check ((type = 'ANONYMOUS') = (identity_id is null))
    )`,
    `create index sessions_identity on sessions (identity_id)`,
    `create index sessions_expires_at on sessions (expires_at)`,

    `create table captcha_challenges (
      session_id_hash text primary key references sessions (id_hash) on delete cascade,
      answer_hash text not null,
      expires_at timestamptz not null
    )`,

    `create table sign_in_attempts (
      id bigint generated always as identity primary key,
      identity_id uuid references identities (id) on delete cascade,
      username text not null,
      realm_code text not null,
      attempted_at timestamptz not null,
      ip_address text,
      city_name text,
      country_name text,
      continent_name text,
      is_successful boolean not null
    )`,
    `create index sign_in_attempts_identity on sign_in_attempts (identity_id, attempted_at desc, id desc)`,

    `create table failed_auth_counts (
      username text primary key,
      count integer not null check (count >= 0),
      last_failed_at timestamptz not null
    )`,

    `create table identity_factors (
      id uuid primary key,
      identity_id uuid not null references identities (id) on delete cascade,
      factor_type text not null check (factor_type in ('AUTHENTICATOR_APP', 'SMS', 'EMAIL')),
      mobile text,
      secret_sealed text,
      enrolled_at timestamptz not null,
      unique (identity_id, factor_type)
    )`,

    `create table invitations (
      code text primary key,
      email text not null,
      app_code text references apps (code),
      facility_id uuid references facilities (id),
      roles jsonb not null default '[]'::jsonb,
      customer_number text,
      name text,
      birth_date date,
      username text,
      mobile text,
      is_staff boolean not null default false,
      existing_identity_id uuid references identities (id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`,
    `create index invitations_email_ci on invitations (lower(email))`,
  ]),

  // What every installation needs whether or not the demo is seeded: the default realm the portal
  // signs into, and the roles the code refers to by name.
  '0002_reference_data': statements([
    `insert into realms (code, name, auth_enabled, is_default) values ('BANK', 'Bank', true, true)`,
    `insert into roles (code, name) values
      ('ADMIN', 'Administrator'),
      ('READ_ONLY', 'Read only'),
      ('VIEW_ACCESS_REQUESTS', 'View access requests')`,
  ]),

  // Handoff: an app's optional SP signing certificate (its AuthnRequests are then verified), and
  // the AuthnRequest ids already taken, so a request is answered once (kept until it could no
  // longer be fresh; expired ones are swept).
  '0003_handoff': statements([
    `alter table apps add column sp_signing_certificate text`,
    `create table saml_request_ids (
      app_code text not null references apps (code) on delete cascade,
      request_id text not null,
      expires_at timestamptz not null,
      primary key (app_code, request_id)
    )`,
    `create index saml_request_ids_expires_at on saml_request_ids (expires_at)`,
  ]),

  // Factors: TOTP replay guard, security answers, one-time codes bound to the session that asked
  // for them, trusted devices, and the dev outbox that stands in for SMTP and the SMS gateway.
  '0004_factors': statements([
    // The last TOTP step accepted for the factor: a code is accepted only for a later step.
    `alter table identity_factors add column last_used_step bigint`,

    `create table security_answers (
      identity_id uuid not null references identities (id) on delete cascade,
      position smallint not null check (position in (1, 2)),
      question_code text not null,
      answer_hash text not null,
      set_at timestamptz not null,
      primary key (identity_id, position)
    )`,

    `create table one_time_codes (
      session_id_hash text not null references sessions (id_hash) on delete cascade,
      purpose text not null,
      identity_id uuid references identities (id) on delete cascade,
      channel text not null check (channel in ('EMAIL', 'SMS')),
      destination text not null,
      code_hash text not null,
      send_count integer not null check (send_count >= 1),
      first_sent_at timestamptz not null,
      last_sent_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      primary key (session_id_hash, purpose)
    )`,

    `create table trusted_devices (
      id uuid primary key,
      identity_id uuid not null references identities (id) on delete cascade,
      token_hash text not null unique,
      browser_family text,
      browser_major text,
      browser_minor text,
      os_family text,
      os_version text,
      city_name text,
      country_name text,
      continent_name text,
      created_at timestamptz not null,
      last_active_at timestamptz not null,
      expires_at timestamptz not null
    )`,
    `create index trusted_devices_identity on trusted_devices (identity_id, expires_at)`,

    `create table outbox_messages (
      id bigint generated always as identity primary key,
      channel text not null check (channel in ('EMAIL', 'SMS')),
      recipient text not null,
      subject text,
      body text not null,
      code text,
      created_at timestamptz not null
    )`,
    `create index outbox_messages_recipient on outbox_messages (replace(lower(recipient), ' ', ''), id desc)`,
  ]),

  // The identity's history: what changed, when, by whom (an identity, an app, or the System), with
  // an optional support ticket. Merge, reset, registration and profile changes write here; the admin
  // identity page and access-request history read it.
  '0005_identity_history': statements([
    `create table identity_events (
      id bigint generated always as identity primary key,
      identity_id uuid not null references identities (id) on delete cascade,
      event_date timestamptz not null,
      actor_identity_id uuid references identities (id) on delete set null,
      actor_app_code text references apps (code) on delete set null,
      type text not null,
      variant text not null check (variant in ('info', 'success', 'warning', 'danger')),
      description text,
      ticket_code text,
      ticket_url text,
      check ((ticket_code is null) = (ticket_url is null))
    )`,
    `create index identity_events_identity on identity_events (identity_id, event_date desc, id desc)`,
  ]),

  // Registration from an invitation: the code is kept only as its SHA-256 (of the trimmed,
  // upper-cased code), so a leaked table gives no usable invitation; invitations get an id of their
  // own, and remember the identity that used them.
  '0008_registration': statements([
    `alter table invitations add column id uuid`,
    `update invitations set id = gen_random_uuid()`,
    `alter table invitations add column code_hash text`,
    `update invitations set code_hash = encode(sha256(convert_to(upper(btrim(code)), 'UTF8')), 'hex')`,
    `alter table invitations drop constraint invitations_pkey`,
    `alter table invitations drop column code`,
    `alter table invitations alter column id set not null`,
    `alter table invitations alter column code_hash set not null`,
    `alter table invitations add primary key (id)`,
    `create unique index invitations_code_hash on invitations (code_hash)`,
    `alter table invitations add column used_by_identity_id uuid references identities (id) on delete set null`,
  ]),

  // Profile self-service: the change a session has started and not yet proven (a new email or
  // mobile waiting for its code, a new authenticator secret waiting for a code of it), ended with
  // the session; and the per-identity time before which handed-off JWTs no longer count (sign out
  // of all devices), served to the apps at /jwt/valid-after/{sub}.
  '0009_profile': statements([
    `create table profile_pending_changes (
      session_id_hash text not null references sessions (id_hash) on delete cascade,
      kind text not null check (kind in ('EMAIL', 'MOBILE', 'AUTHENTICATOR_APP')),
      identity_id uuid not null references identities (id) on delete cascade,
      value text not null,
      enrol_sms boolean not null default false,
      created_at timestamptz not null,
      primary key (session_id_hash, kind)
    )`,
    `alter table identities add column jwt_valid_after timestamptz`,
  ]),

  // Access requests: a user asks for an app (and facility) they lack; the app's handling approves
  // it at once or leaves it to the manual workflow. Each request keeps its own history (events and
  // outbound calls) in the history-item shape; the code is what the app and the support desk quote.
  '0010_access_requests': statements([
    `create table access_requests (
      id uuid primary key,
      code text not null,
      app_code text not null references apps (code) on delete cascade,
      facility_id uuid references facilities (id) on delete cascade,
      requester_identity_id uuid not null references identities (id) on delete cascade,
      status text not null check (status in ('PENDING', 'APPROVED')),
      created_at timestamptz not null,
      decided_at timestamptz,
      unique (app_code, code)
    )`,
    `create index access_requests_created on access_requests (created_at desc, id desc)`,
    // One open request per identity, app and facility: asking twice is answered with the first.
    `create unique index access_requests_one_pending
      on access_requests (requester_identity_id, app_code, coalesce(facility_id, '00000000-0000-0000-0000-000000000000'))
      where status = 'PENDING'`,
    `create table access_request_events (
      id bigint generated always as identity primary key,
      access_request_id uuid not null references access_requests (id) on delete cascade,
      event_date timestamptz not null,
      actor_identity_id uuid references identities (id) on delete set null,
      actor_app_code text references apps (code) on delete set null,
      type text not null,
      variant text not null check (variant in ('info', 'success', 'warning', 'danger')),
      is_api_call boolean not null default false,
      description text,
      ticket_code text,
      ticket_url text,
      check ((ticket_code is null) = (ticket_url is null))
    )`,
    `create index access_request_events_request on access_request_events (access_request_id, event_date desc, id desc)`,
  ]),

  // The browser a session signed in from (the User-Agent header, at most 512 characters), so an
  // admin's identity page can list its sessions by browser and system; null for older sessions.
  '0011_session_user_agent': statements([`alter table sessions add column user_agent text`]),

  // Failure limit (domain/lockout.ts): after enough failed password and code checks an account
  // waits until not_before between attempts, and after LOCK_AFTER_FAILURES it is locked until
  // support lifts it. Both are kept with the per-username count, so unknown usernames behave alike.
  '0012_account_lockout': statements([
    `alter table failed_auth_counts add column not_before timestamptz`,
    `alter table failed_auth_counts add column locked_at timestamptz`,
  ]),

  // Request counters of the rate limits (http/rate-limit-store.ts), shared by every server
  // instance on the database: one row per route and client key, its count for the window that
  // ends at resets_at. Rows whose window has ended are pruned by resets_at.
  '0013_rate_limits': statements([
    `create table rate_limits (
      key text primary key,
      count integer not null,
      resets_at timestamptz not null
    )`,
    `create index rate_limits_resets_at on rate_limits (resets_at)`,
  ]),

  // The assertions the demo service providers (demo/sp) have accepted, so a response is accepted
  // once whichever server instance it is posted to; kept until the assertion expires.
  '0014_demo_sp_assertions': statements([
    `create table demo_sp_assertions (
      app_code text not null,
      assertion_id text not null,
      expires_at timestamptz not null,
      primary key (app_code, assertion_id)
    )`,
    `create index demo_sp_assertions_expires_at on demo_sp_assertions (expires_at)`,
  ]),

  // An admin decides a request that waits for the manual workflow: approved, or rejected with a
  // reason (kept in the request's history). 0010's inline check is named by PostgreSQL's default.
  '0015_access_request_rejected': statements([
    `alter table access_requests drop constraint access_requests_status_check`,
    `alter table access_requests add constraint access_requests_status_check
      check (status in ('PENDING', 'APPROVED', 'REJECTED'))`,
  ]),

  // An admin's revocation is kept apart from running out (domain/admin/invitations.ts): when, and
  // by whom (like an event's actor, the admin's later removal keeps the revocation, unnamed). The
  // invitation keeps its own expiry. Revocations made before (the expiry set to that moment) stay
  // as they were: EXPIRED.
  '0016_invitation_revoked': statements([
    `alter table invitations add column revoked_at timestamptz`,
    `alter table invitations add column revoked_by_identity_id uuid
      references identities (id) on delete set null`,
  ]),

  // The security questions are reference data, not demo data (section 3: "a server-loaded
  // enumeration; defaults DRIVERS_LICENCE and MEDICARE"): without them password reset,
  // registration, factor enrolment and the profile's change of questions cannot start. A database
  // the demo seed already gave them keeps its rows.
  '0017_reference_security_questions': statements([
    `insert into enumerations (name, code, description, sort_order) values
      ('security-questions', 'DRIVERS_LICENCE', 'Driver''s licence number', 1),
      ('security-questions', 'MEDICARE', 'Medicare card number', 2),
      ('security-questions', 'PASSPORT', 'Passport number', 3),
      ('security-questions', 'FIRST_SCHOOL', 'Name of your first school', 4),
      ('security-questions', 'CHILDHOOD_STREET', 'Street you grew up on', 5)
    on conflict (name, code) do nothing`,
  ]),
  // A sign-in that completes its forced steps gets a new session token (sign-in-flow.ts): the
  // session's id_hash changes, and the rows that belong to the session follow it.
  '0018_session_rotation': statements(
    ['captcha_challenges', 'one_time_codes', 'profile_pending_changes'].map(
      (table) =>
        `alter table ${table}
          drop constraint ${table}_session_id_hash_fkey,
          add constraint ${table}_session_id_hash_fkey foreign key (session_id_hash)
            references sessions (id_hash) on delete cascade on update cascade`,
    ),
  ),
};

/** Every migration (for their names: what has run, what is pending). */
export const migrations: Record<string, Migration> = migrationsWith({});

export function migrationProvider(context: MigrationContext = {}): MigrationProvider {
  return { getMigrations: () => Promise.resolve(migrationsWith(context)) };
}

/**
 * Runs every pending migration; throws (with the failing migration's error) if one fails. A
 * database with failure-limit rows to convert needs `context.usernameKey`.
 */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  context: MigrationContext = {},
): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: migrationProvider(context),
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const error = result.error instanceof Error ? result.error : new Error(String(result.error));
    error.message = `Migration ${failed?.migrationName ?? '(unknown)'} failed: ${error.message}`;
    throw error;
  }
  return result;
}
