// The session cookie: HttpOnly, SameSite=Lax, Path=/, no Max-Age (it ends with the browser; the
// server ends it sooner by its idle and absolute timeouts). Secure with the __Host- prefix when the
// portal is served over https.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { IssuedSession, SessionRow } from '../domain/sessions';
import type { Services } from './services';

export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-sam_session' : 'sam_session';
}

function cookieOptions(config: Pick<Config, 'secureCookies'>) {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies } as const;
}

export function setSessionCookie(reply: FastifyReply, config: Config, issued: IssuedSession): void {
  reply.setCookie(sessionCookieName(config), issued.token, cookieOptions(config));
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), cookieOptions(config));
}

const loaded = new WeakMap<FastifyRequest, Promise<SessionRow | null>>();

/** The request's live session (looked up once per request), or null. */
export function sessionOf(request: FastifyRequest, services: Services): Promise<SessionRow | null> {
  let pending = loaded.get(request);
  if (!pending) {
    pending = services.sessions.resolve(request.cookies[sessionCookieName(services.config)]);
    loaded.set(request, pending);
  }
  return pending;
}

/** The live session, or a new anonymous one (cookie set on `reply`). */
export async function ensureSession(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
): Promise<SessionRow> {
  const existing = await sessionOf(request, services);
  if (existing) return existing;
  const issued = await services.sessions.startAnonymous(await services.reference.defaultContext());
  setSessionCookie(reply, services.config, issued);
  loaded.set(request, Promise.resolve(issued.session));
  return issued.session;
}
