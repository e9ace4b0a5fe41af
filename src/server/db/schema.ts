// Kysely table types: what the migrations create, as the query builder sees it.
// Timestamps are timestamptz (read as Date); dates are `date` (read as 'YYYY-MM-DD' strings);
// json columns are written as JSON text and read as parsed values.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ForcedAction, PreviousSignInAttempt } from '../../contract/entities';

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
  /** Handed-off JWTs issued before this are refused (sign out of all devices); migration 0009. */
  jwt_valid_after: ColumnType<Date | null, Date | null | undefined, Date | null>;
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
  /** PEM certificate the SP signs its AuthnRequests with; null: its requests are not signed. */
  sp_signing_certificate: ColumnType<string | null, string | null | undefined, string | null>;
}

/** AuthnRequest ids already answered (replay guard), kept until they could no longer be fresh. */
export interface SamlRequestIdsTable {
  app_code: string;
  request_id: string;
  expires_at: Timestamp;
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
  /** Migration 0011: the User-Agent the session signed in with (null for anonymous and older ones). */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionContext {
  appCode: string;
  realmCode: string;
  showInHeader: boolean;
  type: 'DIRECT' | 'SAML' | 'JWT';
  /** The SP's AuthnRequest this session answers (SP-initiated SAML); cleared once answered. */
  samlRequest?: SamlRequestContext;
}

export interface SamlRequestContext {
  /** The AuthnRequest's ID: the response's InResponseTo. */
  requestId: string;
  /** RelayState sent with the request, returned as it came. */
  relayState: string | null;
  /** The AuthnRequest's IssueInstant (ISO). */
  issueInstant: string;
}

/** Server-side state of a session's flows; each later flow adds its own optional key. */
export interface SessionData {
  /** The forced step an AUTHENTICATION_PENDING session must complete next. */
  forcedAction?: ForcedAction;
  /** Forced steps this sign-in has passed (see domain/sign-in-flow.ts). */
  passed?: ForcedAction[];
  /** Found at password sign-in; answered again when the sign-in completes after forced steps. */
  previousSignInAttempt?: PreviousSignInAttempt | null;
  /** The facility chosen at the SELECT_FACILITY step, handed off when the sign-in completes. */
  handoffFacilityCode?: string;
  /** Factor enrolment wizard: what this sign-in has verified so far (domain/factors/enrolment.ts). */
  enrolment?: FactorEnrolmentState;
  /** MFA step: the factor the user is being asked for now. */
  mfa?: { factor: FactorKind | null };
  /** Wrong one-time codes in this session (all factors); at the limit the session ends. */
  /** Code checks under way (factors/failures.ts reserves one before each). */
  /** Usernames looked up at registration's collect-details (at most MAX_USERNAME_CHECKS). */
  usernameChecks?: number;
  factorFailuresInFlight?: number;
  /** When the latest of those was reserved (ms since the epoch); they lapse after 30 s. */
  factorFailuresInFlightAt?: number;
  factorFailures?: number;
  /** Wrong passwords at re-enter-password in this session; at the limit the session ends. */
  reenterPasswordFailuresInFlight?: number;
  reenterPasswordFailuresInFlightAt?: number;
  reenterPasswordFailures?: number;
  /** When the password was last confirmed (re-enter password); the session's start before that. */
  passwordConfirmedAt?: string;
  /** Merge wizard progress of the DUPLICATE_ACCOUNTS step (domain/merge). */
  merge?: MergeWizardState;
  /** Wrong passwords of other accounts at merge select-accounts in this session. */
  mergePasswordFailuresInFlight?: number;
  mergePasswordFailuresInFlightAt?: number;
  mergePasswordFailures?: number;
  /** Registration wizard: the invitation this anonymous session holds and what it has collected. */
  registration?: RegistrationState;
  /** Password reset wizard progress of an anonymous session (domain/password-reset). */
  passwordReset?: PasswordResetState;
}

/**
 * What an anonymous session has proven in its password reset (domain/password-reset/service.ts).
 * Each proof says when it was made (the server's clock, ISO) and what it was checked against, so a
 * proof that is too old, or whose factor, address or password has changed since, counts no more.
 */
export interface PasswordResetState {
  /** Random id of this reset: a restart makes every earlier request of the session stale. */
  flowId: string;
  /** The email the visitor typed, as typed (trimmed). */
  email: string;
  /** Identities with that email, found at start; never answered before the email code is verified. */
  candidateIds: string[];
  /** The email code's proof, once verified; every later step needs it, and needs it fresh. */
  emailProof: ResetEmailProof | null;
  /** The identity being reset: the only candidate, or the one chosen at select-user. */
  identityId: string | null;
  /** The authenticator app or SMS code verified in this reset, for `identityId`. */
  factorProof: ResetFactorProof | null;
  /** Security questions of `identityId` answered correctly in this reset, by question code. */
  answers: Record<string, ResetAnswerProof>;
}

export interface ResetEmailProof {
  /** When the code was verified: the reset must be submitted within RESET_PROOF_WINDOW_MS of it. */
  at: string;
  /** The address on record the code went to (lower case): the account must still have it. */
  address: string;
  /** Each candidate's credentials.changed_at then (null: no password): a change since ends it. */
  passwordsChangedAt: Record<string, string | null>;
}

export interface ResetFactorProof {
  factor: 'AUTHENTICATOR_APP' | 'SMS';
  at: string;
  /** The enrolment the code matched (domain/password-reset: factorFingerprint): id, enrolled_at, mobile. */
  enrolment: string;
}

export interface ResetAnswerProof {
  at: string;
  /** security_answers.set_at of the answer it matched: answers set since replace it. */
  setAt: string;
}

/** See domain/registration/service.ts. */
export interface RegistrationState {
  invitationId: string;
  /** Username and name chosen at collect-details (where the invitation left them open). */
  username?: string | null;
  name?: string | null;
  /** The mobile entered at enrol-sms, and the one whose code was verified. */
  mobile?: string | null;
  mobileVerified?: string | null;
  /** A new TOTP secret (sealed), enrolled at submit once a code of it matched. */
  appSecretSealed?: string | null;
  appVerifiedStep?: number | null;
  /** The invitee chose email (with security questions) as the factor. */
  emailChosen?: boolean;
  /** Security questions and the argon2id hashes of the answers, stored at submit. */
  securityAnswers?: { question1: string; hash1: string; question2: string; hash2: string } | null;
}

/** What the merge wizard has established so far; the server decides each step from it. */
export interface MergeWizardState {
  /** Other accounts whose passwords were verified (empty: None); absent until select-accounts. */
  selectedIds?: string[];
  /**
   * Each selected account's credentials.changed_at when its password was proven: a password
   * changed since (its owner taking it back) ends the proof, and confirm refuses that account.
   */
  passwordsChangedAt?: Record<string, string>;
  /** Some accounts sharing the email were not selected: a new email must be verified. */
  changeEmail?: boolean;
  /** The new email a code was sent to, and the one whose code was verified. */
  pendingEmail?: string | null;
  newEmail?: string | null;
  /** None was chosen and the verified email was applied to the account. */
  emailChanged?: boolean;
  preferredUsername?: string | null;
  /** Set once the merge is committed. */
  completed?: { preferredUsername: string; mergedUsernames: string[] } | null;
}

export interface FactorEnrolmentState {
  /** The email address whose code was verified. */
  emailVerified?: string | null;
  /** The mobile entered at enrol-sms, and the one whose code was verified. */
  mobile?: string | null;
  mobileVerified?: string | null;
  /** A new TOTP secret (sealed) shown as setup key and QR code; enrolled once a code matched. */
  appSecretSealed?: string | null;
  /** The TOTP step of the code that verified it (that code cannot be used again). */
  appVerifiedStep?: number | null;
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
  /**
   * The identity's normalised (trimmed, lower-cased) username; for an attempt that names no
   * identity, the keyed hash of what was typed (repositories/lockout.ts, UsernameKey).
   */
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
  /**
   * Keyed hash of the normalised (trimmed, lower-cased) username as typed (repositories/lockout.ts,
   * UsernameKey); unknown usernames are counted too, and the typed text is never kept.
   */
  username_key: string;
  count: number;
  last_failed_at: Timestamp;
  /** No further attempt is taken before this time (growing delays; domain/lockout.ts). */
  not_before: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Set when the account was locked; only support's unlock clears it. */
  locked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Checks of the account in flight (Lockout.withTries); they count towards the lock. */
  in_flight: ColumnType<number, number | undefined, number>;
  /** When the latest of them was taken (database clock): older than 30 s, they lapse. */
  in_flight_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface IdentityFactorsTable {
  id: string;
  identity_id: string;
  factor_type: FactorKind;
  mobile: string | null;
  /** TOTP secret sealed with the data key (AUTHENTICATOR_APP only). */
  secret_sealed: string | null;
  enrolled_at: Timestamp;
  /** The last TOTP step accepted (AUTHENTICATOR_APP): a code is accepted only for a later step. */
  last_used_step: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SecurityAnswersTable {
  identity_id: string;
  /** 1 or 2: the identity's first and second question. */
  position: number;
  question_code: string;
  /** argon2id PHC string of the normalised answer (trimmed, spaces collapsed, case-folded). */
  answer_hash: string;
  set_at: Timestamp;
}

export type CodeChannelKind = 'EMAIL' | 'SMS';

export interface OneTimeCodesTable {
  /** The session (flow) that asked for the code: a code is only ever checked for it. */
  session_id_hash: string;
  /** What the code proves within that session, e.g. 'mfa:sms' or 'factor-enrolment:email'. */
  purpose: string;
  identity_id: string | null;
  channel: CodeChannelKind;
  /** Email address or mobile number the code went to. */
  destination: string;
  /** HMAC-SHA-256 (hex) of the code under a key derived from the data key. */
  code_hash: string;
  send_count: number;
  first_sent_at: Timestamp;
  last_sent_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface TrustedDevicesTable {
  id: string;
  identity_id: string;
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  token_hash: string;
  browser_family: string | null;
  browser_major: string | null;
  browser_minor: string | null;
  os_family: string | null;
  os_version: string | null;
  city_name: string | null;
  country_name: string | null;
  continent_name: string | null;
  created_at: Timestamp;
  last_active_at: Timestamp;
  expires_at: Timestamp;
}

export interface OutboxMessagesTable {
  id: Generated<number>;
  channel: CodeChannelKind;
  recipient: string;
  subject: string | null;
  body: string;
  /** The one-time code the message carries, so automated journeys can read it. */
  code: string | null;
  created_at: Timestamp;
}

export interface InvitationsTable {
  /** Migration 0008: the id, and the SHA-256 of the code (never the code itself). */
  id: string;
  code_hash: string;
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
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The identity the invitation created or added a facility to (migration 0008). */
  used_by_identity_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When an admin revoked the invitation, and which admin (migration 0016). */
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_by_identity_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The admin who created the invitation; null for the CLI's, the seed's and older ones (migration 0024). */
  created_by_identity_id: ColumnType<string | null, string | null | undefined, string | null>;
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
  saml_request_ids: SamlRequestIdsTable;
  security_answers: SecurityAnswersTable;
  one_time_codes: OneTimeCodesTable;
  trusted_devices: TrustedDevicesTable;
  outbox_messages: OutboxMessagesTable;
  identity_events: IdentityEventsTable;
  profile_pending_changes: ProfilePendingChangesTable;
  access_requests: AccessRequestsTable;
  access_request_events: AccessRequestEventsTable;
  rate_limits: RateLimitsTable;
  demo_sp_assertions: DemoSpAssertionsTable;
}

/** A rate limit's request count for one route and client until resets_at (migration 0013). */
export interface RateLimitsTable {
  key: string;
  count: number;
  resets_at: Timestamp;
}

/** An assertion a demo service provider accepted, kept until it expires (migration 0014). */
export interface DemoSpAssertionsTable {
  app_code: string;
  assertion_id: string;
  expires_at: Timestamp;
}

export type IdentityEventVariant = 'info' | 'success' | 'warning' | 'danger';

/** One entry of an identity's history (read as section 3's history item). */
export interface IdentityEventsTable {
  id: Generated<string>;
  identity_id: string;
  event_date: Timestamp;
  /** Who did it; null with a null actor_app_code means the System. */
  actor_identity_id: string | null;
  actor_app_code: string | null;
  /** Event code, e.g. PROFILE_NAME_CHANGED; its text comes from domain/history.ts. */
  type: string;
  variant: IdentityEventVariant;
  /** May be multi-line. */
  description: string | null;
  ticket_code: string | null;
  ticket_url: string | null;
}

export type Identity = Selectable<IdentitiesTable>;
export type NewIdentity = Insertable<IdentitiesTable>;
export type IdentityUpdate = Updateable<IdentitiesTable>;
export type Session = Selectable<SessionsTable>;
export type App = Selectable<AppsTable>;

export type ProfilePendingKind = 'EMAIL' | 'MOBILE' | 'AUTHENTICATOR_APP';

/** A profile change a session started and has not yet proven with a code (migration 0009). */
export interface ProfilePendingChangesTable {
  session_id_hash: string;
  kind: ProfilePendingKind;
  identity_id: string;
  /** The new email or mobile, or the new authenticator secret sealed with the secret box. */
  value: string;
  /** A new mobile that also becomes the SMS factor once verified (the enable-SMS wizard). */
  enrol_sms: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

/** An access request (migration 0010): a user asking for an app, and facility, they lack. */
export interface AccessRequestsTable {
  id: string;
  /** Quoted by the app and the support desk; unique per app. */
  code: string;
  app_code: string;
  facility_id: string | null;
  requester_identity_id: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

/** One entry of an access request's history (read as section 3's history item). */
export interface AccessRequestEventsTable {
  id: Generated<string>;
  access_request_id: string;
  event_date: Timestamp;
  actor_identity_id: string | null;
  actor_app_code: string | null;
  type: string;
  variant: IdentityEventVariant;
  /** An outbound call the request made (listed again on the api-calls tab). */
  is_api_call: ColumnType<boolean, boolean | undefined, boolean>;
  description: string | null;
  ticket_code: string | null;
  ticket_url: string | null;
}
