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

function statements(list: string[]): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const text of list) await sql.raw(text).execute(db);
    },
  };
}

export const migrations: Record<string, Migration> = {
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
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/** Runs every pending migration; throws (with the failing migration's error) if one fails. */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db: db as unknown as Kysely<unknown>, provider: migrationProvider });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const error = result.error instanceof Error ? result.error : new Error(String(result.error));
    error.message = `Migration ${failed?.migrationName ?? '(unknown)'} failed: ${error.message}`;
    throw error;
  }
  return result;
}
