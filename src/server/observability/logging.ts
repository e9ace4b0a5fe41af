// Structured logs: Fastify's own pino logger, one JSON line per event, at LOG_LEVEL.
//
// - Every request has an id (X-Request-Id): a well-formed id sent by a load balancer or proxy is
//   kept, anything else is replaced by a random UUID; the id is in every log line of the request
//   (reqId) and echoed in the response's X-Request-Id header.
// - Secrets never reach a log line: the request serializer logs no headers and masks the values
//   of sensitive query parameters (SAMLResponse, codes, tokens...), and the same names
//   (passwords, codes, answers, cookies, Authorization...) are censored wherever code logs an
//   object that carries them, up to three levels deep: pino's redact paths at the top level, the
//   log formatter (censorNested) below it, and the error serializer in errors.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/** Where the log lines go; stdout by default (tests pass an in-memory stream). */
export interface LogStream {
  write(line: string): void;
}

export const REQUEST_ID_HEADER = 'x-request-id';
/** What a request id taken from outside may look like (no spaces or control characters). */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export const REDACTED = '[Redacted]';

/** Property names whose values are secrets (compared case-sensitively, as pino's paths are). */
export const SECRET_KEYS = [
  'password',
  'currentPassword',
  'newPassword',
  'confirmPassword',
  'passwordHash',
  'captchaCode',
  'answer',
  'answers',
  'securityQuestions',
  'secret',
  'token',
  'accessToken',
  'refreshToken',
  'jwt',
  'SAMLResponse',
  'SAMLRequest',
  'RelayState',
  'cookie',
  'cookies',
  'authorization',
  'Authorization',
  'set-cookie',
] as const;

/**
 * `code` is a secret in request payloads (one-time codes) but an error's code (ECONNREFUSED) is
 * what an operator needs, so it is censored only where payloads are logged.
 */
const CODE_PATHS = ['code', 'body.code', 'query.code', 'params.code', 'input.code', 'payload.code'];

const SECRET_KEY_SET: ReadonlySet<string> = new Set(SECRET_KEYS);

/**
 * pino redact paths: each secret name at the top level of a log line (and of a child logger's
 * bindings), and `code` where payloads are logged. One and two levels down, censorNested does the
 * same for every property, in the log formatter. (pino's own wildcard paths, `*.password`, would
 * run the whole redaction over the bindings of every child logger, and Fastify makes one for every
 * request, whatever the level: a tenth of a plain response's CPU.)
 */
export function redactPaths(): string[] {
  return [...CODE_PATHS, ...SECRET_KEYS.map((key) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`))];
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with the values of secret-named properties censored down to `levels` levels, in plain
 * objects and arrays (an Error is censored by serializeError). A copy where something changed;
 * the object logged is never modified.
 */
function censorWithin(value: unknown, levels: number): unknown {
  if (levels <= 0 || typeof value !== 'object' || value === null) return value;
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) return value;
  let copy: Record<string, unknown> | unknown[] | null = null;
  for (const key of Object.keys(value)) {
    const before = (value as Record<string, unknown>)[key];
    const after = SECRET_KEY_SET.has(key) ? REDACTED : censorWithin(before, levels - 1);
    if (after === before) continue;
    copy ??= isArray ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) };
    (copy as Record<string, unknown>)[key] = after;
  }
  return copy ?? value;
}

/**
 * A log line's object with secret-named properties censored one and two levels below its top
 * (`user.password`, `body.factor.secret`); the top level is pino's redact paths.
 */
export function censorNested(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(object)) {
    const before = object[key];
    const after = censorWithin(before, 2);
    if (after === before) continue;
    copy ??= { ...object };
    copy[key] = after;
  }
  return copy ?? object;
}

/**
 * Query parameters whose values are not logged: secrets, and what a person typed that names or
 * may be someone (`username`: people type their password into it; `query`: an admin's search by
 * email, mobile, name or customer number).
 */
const SECRET_QUERY_NAMES = new Set(
  [
    ...SECRET_KEYS,
    'code',
    'invitation',
    'invite',
    'ticket',
    'key',
    'sig',
    'signature',
    'username',
    'query',
  ].map((k) => k.toLowerCase()),
);

/**
 * Properties of database errors (node-postgres, PGlite) that carry the statement's parameters or
 * the failing row's values: personal data and password hashes, never logged.
 */
const DATABASE_ERROR_DATA = new Set(['params', 'parameters', 'query', 'detail', 'where', 'internalQuery']);

/**
 * An error as logged: its type, message, stack and own properties (code, constraint, status...),
 * without DATABASE_ERROR_DATA and with secret-named ones censored (two levels); a cause likewise.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const out: Record<string, unknown> = {
    type: error.constructor?.name ?? 'Error',
    message: error.message,
    stack: error.stack,
  };
  for (const [key, value] of Object.entries(error)) {
    if (DATABASE_ERROR_DATA.has(key) || key === 'cause') continue;
    out[key] = SECRET_KEY_SET.has(key) ? REDACTED : censorWithin(value, 1);
  }
  if (error.cause !== undefined && depth < 5) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

/**
 * The URL with the values of sensitive query parameters masked (SAMLResponse in a redirect, an
 * invitation or reset code in a link...). Paths never carry secrets in this server.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return SECRET_QUERY_NAMES.has(name.toLowerCase()) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** The request as logged: no headers, no body, the URL with secrets masked. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** A request id from X-Request-Id when it is well formed, otherwise a new UUID. */
export function requestIdOf(raw: IncomingMessage): string {
  const header = raw.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  return value && REQUEST_ID_PATTERN.test(value) ? value : randomUUID();
}

/** Fastify's logger and request-id options for this configuration. */
export function loggingOptions(
  config: Pick<Config, 'logLevel'>,
  stream?: LogStream,
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader'> {
  return {
    logger: {
      level: config.logLevel,
      redact: { paths: redactPaths(), censor: REDACTED },
      serializers: { req: serializeRequest as never, err: serializeError as never },
      formatters: { log: censorNested },
      ...(stream ? { stream } : {}),
    },
    // Read and validated by genReqId rather than trusted as is.
    requestIdHeader: false,
    genReqId: requestIdOf,
  };
}
