// One call of section 7: method, path under /rest/ui/, and the schemas of what goes and comes back.
// Both halves import these definitions, so client and server can never disagree on a shape.
import type * as v from 'valibot';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type AnySchema = v.GenericSchema;

export interface CallDef<
  TParams extends AnySchema | undefined = AnySchema | undefined,
  TQuery extends AnySchema | undefined = AnySchema | undefined,
  TBody extends AnySchema | undefined = AnySchema | undefined,
  TResponse extends AnySchema = AnySchema,
  TAccepted extends Partial<Record<number, AnySchema>> = Partial<Record<number, AnySchema>>,
> {
  /** Stable identifier, used in logs, route sweeps and test names. */
  readonly id: string;
  readonly method: HttpMethod;
  /**
   * Path relative to `/rest/ui/`, with `:name` placeholders for path parameters
   * (e.g. `anonymous/realms/:realm/auth-enabled`). The spec's leading slash on a few paths
   * (`/current-user/saml-handoff`) is not another base: every call lives under `/rest/ui/`.
   */
  readonly path: string;
  readonly params: TParams;
  readonly query: TQuery;
  /** JSON body; a bare string or number where the spec says so (e.g. enrol-sms's mobile). */
  readonly body: TBody;
  /** The 2xx answer. `v.null()` for calls that answer 204 No Content. */
  readonly response: TResponse;
  /**
   * Non-2xx statuses that are results, not failures (the spec's "503 accepted"): the client
   * resolves them with the status instead of running section 8's global handling.
   */
  readonly accepted: TAccepted;
  /** Anonymous calls need no session; every other call needs an authenticated (or pending) user. */
  readonly anonymous: boolean;
}

export function defineCall<
  TParams extends AnySchema | undefined = undefined,
  TQuery extends AnySchema | undefined = undefined,
  TBody extends AnySchema | undefined = undefined,
  TResponse extends AnySchema = AnySchema,
  TAccepted extends Partial<Record<number, AnySchema>> = Record<never, never>,
>(def: {
  id: string;
  method: HttpMethod;
  path: string;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  response: TResponse;
  accepted?: TAccepted;
  anonymous?: boolean;
}): CallDef<TParams, TQuery, TBody, TResponse, TAccepted> {
  return {
    id: def.id,
    method: def.method,
    path: def.path,
    params: def.params as TParams,
    query: def.query as TQuery,
    body: def.body as TBody,
    response: def.response,
    accepted: (def.accepted ?? {}) as TAccepted,
    anonymous: def.anonymous ?? def.path.startsWith('anonymous/'),
  };
}

/** Output type of an optional schema slot. */
export type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
export type In<S> = S extends AnySchema ? v.InferInput<S> : undefined;

export type ParamsOf<C> =
  C extends CallDef<infer P, AnySchema | undefined, AnySchema | undefined, AnySchema> ? In<P> : never;
export type QueryOf<C> =
  C extends CallDef<AnySchema | undefined, infer Q, AnySchema | undefined, AnySchema> ? In<Q> : never;
export type BodyOf<C> =
  C extends CallDef<AnySchema | undefined, AnySchema | undefined, infer B, AnySchema> ? In<B> : never;
export type ResponseOf<C> =
  C extends CallDef<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined, infer R>
    ? v.InferOutput<R>
    : never;
export type AcceptedOf<C> =
  C extends CallDef<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined, AnySchema, infer A>
    ? { [K in keyof A]: { status: K; body: A[K] extends AnySchema ? v.InferOutput<A[K]> : never } }[keyof A]
    : never;

/** Fills `:name` placeholders; each value is URI-encoded. */
export function buildPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Base path of every call. */
export const API_BASE = '/rest/ui/';
/** Response header that carries the running application version (section 7). */
export const VERSION_HEADER = 'x-application-version';
/**
 * Response header of every call made with a signed-in or pending session: the whole seconds until
 * the session ends unless it is used (idle time-out, or the absolute limit when that is sooner),
 * so the portal can warn before it does (WCAG 2.2.1). Not in the spec.
 */
export const SESSION_EXPIRES_IN_HEADER = 'x-session-expires-in';
/** Request header every call carries; state-changing calls without it are refused with 403. */
export const REQUESTED_WITH_HEADER = 'X-Requested-With';
export const REQUESTED_WITH_VALUE = 'XMLHttpRequest';
