// Trusted devices: a browser the user trusted at MFA skips MFA for the server's period
// (trusted-device-period: 1 = 24 hours, 7 = 7 days, counted from when it was trusted). The browser
// holds a 256-bit random token in an HttpOnly cookie; the server holds its SHA-256 with what the
// profile shows (browser, operating system, place, last active). A password change, a factor
// change and signing out of all devices delete the identity's records, which revokes the cookies.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TrustedDevice } from '../../../contract/profile';
import type { Clock } from '../../adapters/clock';
import type { GeoIpLookup } from '../../adapters/geo-ip';
import { randomUuid, type Random } from '../../adapters/random';
import { describeUserAgent } from '../../adapters/user-agent';
import {
  activeTrustedDevices,
  deleteExpiredTrustedDevices,
  deleteTrustedDevice,
  deleteTrustedDevices,
  insertTrustedDevice,
  touchTrustedDevice,
  type TrustedDeviceRow,
} from '../../db/repositories/trusted-devices';
import { endResetSessionsOf } from '../../db/repositories/password-reset';
import type { Database } from '../../db/schema';
import type { ReferenceService } from '../reference';

const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 24 * 3_600_000;

export function hashDeviceToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isWellFormedDeviceToken(token: string | null | undefined): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

/** Whether the token names a live trusted device of the identity; marks it active when it does. */
export async function matchTrustedDevice(
  db: Kysely<Database>,
  input: { identityId: string; token: string | null; now: Date },
): Promise<boolean> {
  if (!isWellFormedDeviceToken(input.token)) return false;
  return touchTrustedDevice(db, {
    identityId: input.identityId,
    tokenHash: hashDeviceToken(input.token),
    now: input.now,
  });
}

/** Revokes every trusted device of the identity; `db` may be the caller's transaction. */
export function revokeTrustedDevices(db: Kysely<Database>, identityId: string): Promise<number> {
  return deleteTrustedDevices(db, identityId);
}

/**
 * Signs the identity out everywhere: ends all its sessions (password resets naming it too) and
 * revokes its trusted devices, in one transaction (the profile's 'Sign out of all devices' adds
 * the applications' single logout).
 */
export async function signOutOfAllDevices(db: Kysely<Database>, identityId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('identity_id', '=', identityId).execute();
    await endResetSessionsOf(trx, [identityId]);
    await revokeTrustedDevices(trx, identityId);
  });
}

export function toTrustedDevice(row: TrustedDeviceRow): TrustedDevice {
  return {
    id: row.id,
    browser: { family: row.browser_family, versionMajor: row.browser_major, versionMinor: row.browser_minor },
    operatingSystem: { family: row.os_family, version: row.os_version },
    city: row.city_name,
    country: row.country_name,
    continent: row.continent_name,
    lastActiveDate: row.last_active_at.toISOString(),
  };
}

export class TrustedDevices {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      clock: Clock;
      random: Random;
      geoIp: GeoIpLookup;
      reference: ReferenceService;
    },
  ) {}

  /** The period in milliseconds (24 hours or 7 days). */
  async periodMs(): Promise<number> {
    return (await this.deps.reference.trustedDevicePeriod()) * DAY_MS;
  }

  /** Trusts the browser for the identity; answers the cookie token and how long it lives. */
  async trust(input: {
    identityId: string;
    userAgent: string | undefined;
    ipAddress: string | null;
  }): Promise<{ token: string; maxAgeSeconds: number }> {
    const { db, clock, random, geoIp } = this.deps;
    const token = random.bytes(TOKEN_BYTES).toString('base64url');
    const now = clock.now();
    const periodMs = await this.periodMs();
    const device = describeUserAgent(input.userAgent);
    const geo = input.ipAddress ? await geoIp.lookup(input.ipAddress).catch(() => null) : null;
    await insertTrustedDevice(db, {
      id: randomUuid(random),
      identity_id: input.identityId,
      token_hash: hashDeviceToken(token),
      browser_family: device.browserFamily,
      browser_major: device.browserMajor,
      browser_minor: device.browserMinor,
      os_family: device.osFamily,
      os_version: device.osVersion,
      city_name: geo?.cityName ?? null,
      country_name: geo?.countryName ?? null,
      continent_name: geo?.continentName ?? null,
      created_at: now,
      last_active_at: now,
      expires_at: new Date(now.getTime() + periodMs),
    });
    return { token, maxAgeSeconds: Math.floor(periodMs / 1000) };
  }

  isTrusted(identityId: string, token: string | null): Promise<boolean> {
    return matchTrustedDevice(this.deps.db, { identityId, token, now: this.deps.clock.now() });
  }

  async active(identityId: string): Promise<TrustedDevice[]> {
    return (await activeTrustedDevices(this.deps.db, identityId, this.deps.clock.now())).map(toTrustedDevice);
  }

  /** Revokes one device; false when the identity has no such device. */
  revoke(identityId: string, deviceId: string): Promise<boolean> {
    return deleteTrustedDevice(this.deps.db, identityId, deviceId);
  }

  /** Revokes all of the identity's devices (password change, factor change, sign out of all devices). */
  revokeAll(identityId: string, db: Kysely<Database> = this.deps.db): Promise<number> {
    return revokeTrustedDevices(db, identityId);
  }

  sweep(): Promise<number> {
    return deleteExpiredTrustedDevices(this.deps.db, this.deps.clock.now());
  }
}
