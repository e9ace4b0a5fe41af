// Registers a contract call (src/contract) as a route under /rest/ui/. The helper is the one place
// that enforces, for every call: who may call it (session rules), request validation with the
// call's valibot schemas (400 with field errors; the handler never runs, so nothing changes),
// and the response's own contract (a mismatch is a 500 with a stack-trace hash, never sent).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { API_BASE, SESSION_EXPIRES_IN_HEADER, type AnySchema, type CallDef } from '../../contract/call';
import type { ForcedAction } from '../../contract/entities';
import type { FieldError } from '../../contract/errors';
import { findIdentityWithRolesCached } from '../db/repositories/identities';
import { refuse, RequestRefused } from '../domain/errors';
import { REENTER_PASSWORD_REQUIRED_MESSAGE } from '../domain/factors/messages';
import { INVALID_CHARACTER_MESSAGE } from '../domain/messages';
import type { SessionRow } from '../domain/sessions';
import { ResponseContractError } from './errors';
import type { Services } from './services';
import { sessionOf } from './session-cookie';

/**
 * - anonymous: anyone; the session (if any) is offered.
 * - any-session: anyone; meant for calls like logout that work with or without a session.
 * - pending: an AUTHENTICATION_PENDING session (forced sign-in steps).
 * - authenticated: an AUTHENTICATED session.
 * - admin: an AUTHENTICATED session of an admin (identities.is_admin); 403 for anyone else signed
 *   in, holders of VIEW_ACCESS_REQUESTS and READ_ONLY included.
 */
export type Access = 'anonymous' | 'any-session' | 'pending' | 'authenticated' | 'admin';

type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

export interface CallContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  services: Services;
  /** The live session; non-null for pending and authenticated calls. */
  session: SessionRow | null;
  /** The signed-in identity's id; throws 401 when there is none. */
  identityId(): string;
}

export interface RegisterOptions {
  access?: Access;
  /**
   * With access 'pending': the forced step(s) this call belongs to. A pending session may call it
   * only while its current step (session data forcedAction) is one of them; otherwise 403.
   */
  step?: ForcedAction | readonly ForcedAction[];
  /** Requests per minute per client IP; defaults to RATE_LIMIT_PER_MINUTE. */
  rateLimitPerMinute?: number;
  /**
   * Whether the session's password entry must be recent (re-enter password, section 4.2): after
   * REENTER_PASSWORD_MINUTES the call answers 401 until the password is entered again, so that
   * the portal's modal is not the only thing standing between an unattended session and the call.
   * Defaults to true for admin calls; handoffs ask for it too.
   */
  recentPassword?: boolean;
  /**
   * Whether the call counts as use of the session (its idle timeout starts again); default true.
   * False for what the portal asks in the background on its own, not for the user.
   */
  touchesSession?: boolean;
}

/**
 * `anonymous/realms/:realm/auth-enabled` -> `/rest/ui/anonymous/realms/:realm/auth-enabled`.
 * The contract's `:name` placeholders are Fastify's own parameter syntax; anything else that looks
 * like a placeholder is refused so a malformed path fails at start, not at the first request.
 */
export function routeUrlOf(path: string): string {
  const clean = path.replace(/^\/+/, '');
  for (const segment of clean.split('/')) {
    if (segment.includes(':') && !/^:[A-Za-z][A-Za-z0-9]*$/.test(segment)) {
      throw new Error(`Malformed path parameter in contract path ${path}`);
    }
  }
  return API_BASE + clean;
}

function fieldErrors(
  part: 'params' | 'query' | 'body',
  issues: readonly v.BaseIssue<unknown>[],
): FieldError[] {
  return issues.map((issue) => ({ fieldName: v.getDotPath(issue) ?? part, message: issue.message }));
}

/**
 * Where a request value holds U+0000 (in a string or a key), as dot paths. PostgreSQL text cannot
 * store or compare that character: unrefused, it reaches a query and fails it with a 500.
 */
function nulCharacterPaths(input: unknown, path = '', depth = 0, out: string[] = []): string[] {
  if (typeof input === 'string') {
    if (input.includes('\u0000')) out.push(path);
  } else if (typeof input === 'object' && input !== null && depth < 64) {
    for (const [key, value] of Object.entries(input)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) out.push(at);
      else nulCharacterPaths(value, at, depth + 1, out);
    }
  }
  return out;
}

export function registerCall<
  P extends AnySchema | undefined,
  Q extends AnySchema | undefined,
  B extends AnySchema | undefined,
  R extends AnySchema,
  A extends Partial<Record<number, AnySchema>>,
>(
  app: FastifyInstance,
  call: CallDef<P, Q, B, R, A>,
  options: RegisterOptions,
  handler: (ctx: CallContext<Out<P>, Out<Q>, Out<B>>) => Promise<v.InferInput<R>>,
): void {
  const access: Access = options.access ?? (call.anonymous ? 'anonymous' : 'authenticated');
  const services = app.services;
  const steps: readonly ForcedAction[] | null =
    options.step === undefined ? null : typeof options.step === 'string' ? [options.step] : options.step;
  if (steps && access !== 'pending') throw new Error(`${call.id}: a step needs access 'pending'`);
  const recentPassword = options.recentPassword ?? access === 'admin';
  app.route({
    method: call.method,
    url: routeUrlOf(call.path),
    config: {
      rateLimit: {
        max: options.rateLimitPerMinute ?? services.config.rateLimitPerMinute,
        timeWindow: 60_000,
      },
    },
    handler: async (request, reply) => {
      const errors: FieldError[] = [];
      const parse = <S extends AnySchema | undefined>(
        schema: S,
        input: unknown,
        part: 'params' | 'query' | 'body',
      ): Out<S> => {
        if (!schema) return undefined as Out<S>;
        const nul = nulCharacterPaths(input);
        if (nul.length > 0) {
          errors.push(
            ...nul.map((path) => ({ fieldName: path || part, message: INVALID_CHARACTER_MESSAGE })),
          );
          return undefined as Out<S>;
        }
        const result = v.safeParse(schema, input);
        if (result.success) return result.output as Out<S>;
        errors.push(...fieldErrors(part, result.issues));
        return undefined as Out<S>;
      };
      const params = parse(call.params, { ...(request.params as object) }, 'params');
      const query = parse(call.query, { ...(request.query as object) }, 'query');
      const body = parse(call.body, request.body, 'body');
      if (errors.length > 0) throw refuse.invalid(errors);

      const session = await sessionOf(request, services, { touch: options.touchesSession ?? true });
      if (session && session.type !== 'ANONYMOUS') {
        const ends = Math.min(session.expiresAt.getTime(), session.absoluteExpiresAt.getTime());
        const seconds = Math.max(0, Math.floor((ends - services.clock.now().getTime()) / 1000));
        reply.header(SESSION_EXPIRES_IN_HEADER, String(seconds));
      }
      if (access === 'pending' || access === 'authenticated' || access === 'admin') {
        if (!session || session.type === 'ANONYMOUS') throw refuse.sessionExpired();
        const wanted = access === 'pending' ? 'AUTHENTICATION_PENDING' : 'AUTHENTICATED';
        if (session.type !== wanted) throw refuse.forbidden();
        if (access === 'admin') {
          const found = session.identityId
            ? await findIdentityWithRolesCached(services.db, services.database.readCache, session.identityId)
            : undefined;
          if (!found?.identity.is_admin) throw refuse.forbidden();
        }
        if (
          access === 'pending' &&
          steps &&
          (!session.data.forcedAction || !steps.includes(session.data.forcedAction))
        )
          throw refuse.forbidden();
        if (
          recentPassword &&
          session.type === 'AUTHENTICATED' &&
          services.factors.reenterPassword.isExpired(session)
        )
          throw new RequestRefused(401, { message: REENTER_PASSWORD_REQUIRED_MESSAGE, url: '/' });
      }

      const result = await handler({
        params,
        query,
        body,
        request,
        reply,
        services,
        session,
        identityId() {
          if (!session?.identityId) throw refuse.sessionExpired();
          return session.identityId;
        },
      });

      const checked = v.safeParse(call.response, result);
      if (!checked.success) {
        throw new ResponseContractError(
          call.id,
          checked.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`),
        );
      }
      reply.header('cache-control', 'no-store');
      if (checked.output === null) return reply.code(204).send();
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(checked.output));
    },
  });
}
