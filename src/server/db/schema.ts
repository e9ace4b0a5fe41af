// Kysely table types: what the migrations create, as the query builder sees it.
// Timestamps are timestamptz (read as Date); dates are `date` (read as 'YYYY-MM-DD' strings);
// json columns are written as JSON text and read as parsed values.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date, Date>;
type Json<T> = ColumnType<T, string, string>;

export type SessionType = 'ANONYMOUS' | 'AUTHENTICATION_PENDING' | 'AUTHENTICATED';
export type AppContextType = 'SAML' | 'JWT';
export type FacilityHandoffMode = 'NONE' | 'SELECTED_BEFORE_HANDOFF';
export type AccessRequestHandlingMode = 'IMMEDIATE' | 'MANUAL';
export type FactorKind = 'AUTHENTICATOR_APP' | 'SMS' | 'EMAIL';

export interface RealmsTable {
  code: string;
  name: string;
  auth_enabled: boolean;
  is_default: boolean;
  created_at: Timestamp;
}

export interface IdentitiesTable {
  id: string;
  realm_code: string;
  username: string;
  name: string;
  email: string | null;
  mobile: string | null;
  phone: string | null;
  birth_date: string | null;
  customer_number: string | null;
  is_staff: boolean;
  is_admin: boolean;
  salary_number: string | null;
  identity_verified: boolean;
  password_expired: boolean;
  mfa_required: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  retired_at: Timestamp | null;
}

export interface CredentialsTable {
  identity_id: string;
  /** argon2id PHC string. */
  password_hash: string;
  changed_at: Timestamp;
}

export interface RolesTable {
  code: string;
  name: string;
}

export interface IdentityRolesTable {
  identity_id: string;
  role_code: string;
}

export interface AppsTable {
  code: string;
  name: string;
  context_type: AppContextType;
  facility_handoff: FacilityHandoffMode;
  access_request_handling: AccessRequestHandlingMode;
  /** Exact origin of the parent frame a JWT is posted to (JWT apps). */
  frame_origin: string | null;
  /** SAML service provider entity id. */
  entity_id: string | null;
  /** SAML assertion consumer service URL. */
  acs_url: string | null;
  created_at: Timestamp;
}

export interface FacilitiesTable {
  id: string;
  app_code: string;
  code: string;
  name: string;
  alias: string | null;
}

export interface AccessGrantsTable {
  id: string;
  identity_id: string;
  app_code: string;
  facility_id: string | null;
  created_at: Timestamp;
}

export interface PropertiesTable {
  name: string;
  value: string | null;
}

export interface EnumerationsTable {
  name: string;
  code: string;
  description: string;
  sort_order: number;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  id_hash: string;
  identity_id: string | null;
  type: SessionType;
  context: Json<SessionContext>;
  data: Json<SessionData>;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** When the session ends unless used again: min(last seen + idle, absolute expiry). */
  expires_at: Timestamp;
  absolute_expires_at: Timestamp;
}

export interface SessionContext {
  appCode: string;
  realmCode: string;
  showInHeader: boolean;
  type: 'DIRECT' | 'SAML' | 'JWT';
}

/** Server-side state of a session's flows; each later flow adds its own optional key. */
export interface SessionData {
  /** The forced step an AUTHENTICATION_PENDING session must complete next. */
  forcedAction?: string;
}

export interface CaptchaChallengesTable {
  session_id_hash: string;
  /** SHA-256 (hex) of the upper-cased answer. */
  answer_hash: string;
  expires_at: Timestamp;
}

export interface SignInAttemptsTable {
  id: Generated<number>;
  identity_id: string | null;
  /** Normalised (trimmed, lower-cased) username as typed. */
  username: string;
  realm_code: string;
  attempted_at: Timestamp;
  ip_address: string | null;
  city_name: string | null;
  country_name: string | null;
  continent_name: string | null;
  is_successful: boolean;
}

export interface FailedAuthCountsTable {
  /** Normalised (trimmed, lower-cased) username; unknown usernames are counted too. */
  username: string;
  count: number;
  last_failed_at: Timestamp;
}

export interface IdentityFactorsTable {
  id: string;
  identity_id: string;
  factor_type: FactorKind;
  mobile: string | null;
  /** TOTP secret sealed with the data key (AUTHENTICATOR_APP only). */
  secret_sealed: string | null;
  enrolled_at: Timestamp;
}

export interface InvitationsTable {
  code: string;
  email: string;
  app_code: string | null;
  facility_id: string | null;
  roles: Json<Array<{ name: string; scopeType: string | null; scope: string | null }>>;
  customer_number: string | null;
  name: string | null;
  birth_date: string | null;
  username: string | null;
  mobile: string | null;
  is_staff: boolean;
  existing_identity_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface Database {
  realms: RealmsTable;
  identities: IdentitiesTable;
  credentials: CredentialsTable;
  roles: RolesTable;
  identity_roles: IdentityRolesTable;
  apps: AppsTable;
  facilities: FacilitiesTable;
  access_grants: AccessGrantsTable;
  properties: PropertiesTable;
  enumerations: EnumerationsTable;
  sessions: SessionsTable;
  captcha_challenges: CaptchaChallengesTable;
  sign_in_attempts: SignInAttemptsTable;
  failed_auth_counts: FailedAuthCountsTable;
  identity_factors: IdentityFactorsTable;
  invitations: InvitationsTable;
}

export type Identity = Selectable<IdentitiesTable>;
export type NewIdentity = Insertable<IdentitiesTable>;
export type IdentityUpdate = Updateable<IdentitiesTable>;
export type Session = Selectable<SessionsTable>;
export type App = Selectable<AppsTable>;
