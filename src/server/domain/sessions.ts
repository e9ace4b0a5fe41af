// Server-side sessions. The browser holds only an opaque token (256 bits from the CSPRNG); the
// database holds its SHA-256, so a leaked table cannot be replayed as cookies. A sign-in always
// issues a new token (no session fixation). A session ends after the idle timeout without use, or
// at the absolute timeout after it began, whichever comes first.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../adapters/clock';
import type { Random } from '../adapters/random';
import {
  deleteExpiredSessions,
  deleteSession,
  findSession,
  insertSession,
  touchSession,
  type SessionRow,
} from '../db/repositories/sessions';
import { readThrough, type ReadCache } from '../db/read-cache';
import type { Database, SessionContext, SessionData, SessionType } from '../db/schema';

export type { SessionRow };

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface IssuedSession {
  /** The cookie value; never stored. */
  token: string;
  session: SessionRow;
}

/** A session's new token (SessionService.rotate): the cookie value and the hash it is stored by. */
export interface RenewedToken {
  token: string;
  idHash: string;
}

const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class SessionService {
  /** Last-seen writes are skipped when the previous one is this recent. */
  readonly #touchIntervalMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly random: Random,
    readonly policy: SessionPolicy,
    /** PGlite's read cache (read-cache.ts); null on PostgreSQL. */
    private readonly readCache: ReadCache | null = null,
  ) {
    this.#touchIntervalMs = Math.min(60_000, Math.floor(policy.idleMs / 10));
  }

  /**
   * The live session the token names, its last-seen time refreshed; null when none. With `touch`
   * false the session is only looked at: a background poll is not the user at the screen, and
   * must not keep an unattended session from its idle timeout.
   */
  async resolve(
    token: string | undefined,
    { touch = true }: { touch?: boolean } = {},
  ): Promise<SessionRow | null> {
    if (!token || !TOKEN_PATTERN.test(token)) return null;
    const now = this.clock.now();
    const idHash = hashSessionToken(token);
    const session = await readThrough(this.readCache, `session:${idHash}`, () =>
      findSession(this.db, idHash),
    );
    if (!session) return null;
    if (session.expiresAt.getTime() <= now.getTime()) return null;
    if (session.absoluteExpiresAt.getTime() <= now.getTime()) return null;
    if (touch && now.getTime() - session.lastSeenAt.getTime() >= this.#touchIntervalMs) {
      const expiresAt = this.#expiryFrom(now, session.absoluteExpiresAt);
      await touchSession(this.db, session.idHash, now, expiresAt);
      return { ...session, lastSeenAt: now, expiresAt };
    }
    return session;
  }

  async startAnonymous(context: SessionContext): Promise<IssuedSession> {
    return this.#issue(this.db, { identityId: null, type: 'ANONYMOUS', context, data: {} });
  }

  /**
   * A new session for the identity, not yet stored: the sign-in stores it in the same statement
   * that ends the session the browser came with. The new token is what prevents fixation.
   */
  prepareSignedIn(fields: {
    identityId: string;
    type: Exclude<SessionType, 'ANONYMOUS'>;
    context: SessionContext;
    data: SessionData;
  }): IssuedSession {
    return this.#prepare(fields);
  }

  /**
   * A new token for a session that stays, and its hash: a sign-in that completes its forced steps
   * moves its session to it (sign-in-flow.ts), so a token seen before the second factor was
   * proven is worth nothing after.
   */
  newToken(): RenewedToken {
    const token = this.random.bytes(TOKEN_BYTES).toString('base64url');
    return { token, idHash: hashSessionToken(token) };
  }

  /**
   * Moves a live session to a new token (newToken), as a sign-in that completes its forced steps
   * does: after a change of the password or a factor, a token seen before it is worth nothing.
   * The session keeps everything else (its rows follow the new hash: foreign keys on update
   * cascade). `db` is the transaction of the change, so the two commit together. Answers the new
   * token, or null when the session no longer exists.
   */
  async rotate(idHash: string, db: Kysely<Database> = this.db): Promise<RenewedToken | null> {
    const next = this.newToken();
    const result = await db
      .updateTable('sessions')
      .set({ id_hash: next.idHash })
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? next : null;
  }

  async end(idHash: string): Promise<void> {
    await deleteSession(this.db, idHash);
  }

  /** Deletes every expired session; answers how many. */
  async sweep(): Promise<number> {
    return deleteExpiredSessions(this.db, this.clock.now());
  }

  async #issue(
    db: Kysely<Database>,
    fields: { identityId: string | null; type: SessionType; context: SessionContext; data: SessionData },
  ): Promise<IssuedSession> {
    const issued = this.#prepare(fields);
    await insertSession(db, issued.session);
    return issued;
  }

  #prepare(fields: {
    identityId: string | null;
    type: SessionType;
    context: SessionContext;
    data: SessionData;
  }): IssuedSession {
    const { token, idHash } = this.newToken();
    const now = this.clock.now();
    const absoluteExpiresAt = new Date(now.getTime() + this.policy.absoluteMs);
    const session: SessionRow = {
      idHash,
      identityId: fields.identityId,
      type: fields.type,
      context: fields.context,
      data: fields.data,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: this.#expiryFrom(now, absoluteExpiresAt),
      absoluteExpiresAt,
    };
    return { token, session };
  }

  #expiryFrom(now: Date, absoluteExpiresAt: Date): Date {
    return new Date(Math.min(now.getTime() + this.policy.idleMs, absoluteExpiresAt.getTime()));
  }
}
