// The generic call: builds the path, sends through the one ky instance, validates the answer with
// the contract, and maps every failure to an ApiError after section 8's global handling.
import * as v from 'valibot';
import type { BodyOf, CallDef, ParamsOf, QueryOf, ResponseOf } from '../../contract/call';
import { buildPath } from '../../contract/call';
import { ErrorBody } from '../../contract/errors';
import { REENTER_PASSWORD_REQUIRED_MESSAGE } from '../../contract/session';
import { apiTexts } from '../app/texts';
import { ApiError } from './api-error';
import { applyGlobalAction, globalActionFor, showCookiesDisabled, showErrorPage } from './global-handling';
import { http } from './http';

/** What every typed call function takes last (keycloak account-ui style). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface RequestOptions<C extends CallDef> extends CallOptions {
  params?: ParamsOf<C>;
  query?: QueryOf<C>;
  body?: BodyOf<C>;
  /**
   * Skip section 8's global handling: the failure is only returned (handled = false). For calls
   * whose failure must not leave the page, such as the support email shown on /error itself.
   */
  withoutGlobalHandling?: boolean;
}

type Json = unknown;

const NO_BODY = Symbol('no body');

/** The body as JSON; `null` when empty (204); NO_BODY when it is not JSON at all. */
async function readJson(response: Response): Promise<Json | typeof NO_BODY> {
  const text = await response.text();
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return NO_BODY;
  }
}

/** The error body of section 8, or a synthetic one that keeps whatever message the answer had. */
function toErrorBody(status: number, json: Json | typeof NO_BODY): ErrorBody {
  const parsed = v.safeParse(ErrorBody, json);
  if (parsed.success) return parsed.output;
  const raw = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  return {
    message: text('message') ?? apiTexts.httpStatus(status),
    stackTraceHash: text('stackTraceHash'),
    timestamp: text('timestamp'),
    reroute: text('reroute'),
    url: text('url'),
    customerMessage: text('customerMessage'),
  };
}

function toSearchParams(query: unknown): Record<string, string> | undefined {
  if (query === undefined || query === null || typeof query !== 'object') return undefined;
  const entries = Object.entries(query as Record<string, unknown>).filter(
    ([, value]) => value !== undefined && value !== null,
  );
  return entries.length ? Object.fromEntries(entries.map(([key, value]) => [key, String(value)])) : undefined;
}

function cookiesEnabled(): boolean {
  return typeof navigator === 'undefined' || navigator.cookieEnabled !== false;
}

export async function request<C extends CallDef>(
  call: C,
  options: RequestOptions<C> = {},
  reentered = false,
): Promise<ResponseOf<C>> {
  const { signal, withoutGlobalHandling = false } = options;
  const fail = (
    init: Omit<ConstructorParameters<typeof ApiError>[0], 'callId' | 'handled'>,
    act: () => boolean,
  ) => new ApiError({ ...init, callId: call.id, handled: withoutGlobalHandling ? false : act() });

  if (!cookiesEnabled()) {
    throw fail({ kind: 'cookies-disabled', status: 0, body: { message: 'Cookies are disabled.' } }, () => {
      showCookiesDisabled();
      return true;
    });
  }

  const path = buildPath(call.path, options.params as Record<string, string | number> | undefined);
  let response: Response;
  let json: Json | typeof NO_BODY;
  try {
    response = await http(path, {
      method: call.method,
      json: options.body,
      searchParams: toSearchParams(options.query),
      signal,
    });
    json = await readJson(response);
  } catch (cause) {
    // The caller gave up (the machine left the state): nothing to report.
    if (signal?.aborted) throw cause;
    const body: ErrorBody = { message: apiTexts.noResponse };
    throw fail({ kind: 'no-response', status: 0, body, cause }, () => {
      showErrorPage(body);
      return true;
    });
  }

  const { status } = response;
  const invalid = (cause: unknown) => {
    const body: ErrorBody = { message: apiTexts.invalidResponse };
    return fail({ kind: 'invalid-response', status, body, cause }, () => {
      showErrorPage(body);
      return true;
    });
  };

  if (response.ok) {
    if (json === NO_BODY) throw invalid(new Error(`${call.id}: the answer is not JSON`));
    const parsed = v.safeParse(call.response, json);
    if (!parsed.success) throw invalid(new v.ValiError(parsed.issues));
    return parsed.output as ResponseOf<C>;
  }

  const body = toErrorBody(status, json);
  // Section 4.2: the session is alive but wants the password again. Once the modal has been passed
  // the call goes again (the server refused it before doing anything); only once.
  if (status === 401 && body.message === REENTER_PASSWORD_REQUIRED_MESSAGE && !reentered) {
    const { passwordReentered } = await import('../app/reenter-password/gate');
    if (await passwordReentered(signal)) return request(call, options, true);
  }
  const action = globalActionFor(call, status, body);
  let detail: unknown;
  if (action.type === 'none' && status in call.accepted) {
    const schema = call.accepted[status];
    if (schema) {
      const parsed = v.safeParse(schema, json);
      if (!parsed.success) throw invalid(new v.ValiError(parsed.issues));
      detail = parsed.output;
    }
  }
  throw fail({ kind: 'http', status, body, detail }, () => applyGlobalAction(action, body));
}
