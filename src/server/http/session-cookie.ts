// The session cookies. Both are HttpOnly with Path=/ and no Max-Age (they end with the browser; the
// server ends the session sooner by its idle and absolute timeouts).
//
// - The portal's own session: SameSite=Lax, so no other site can make the browser send it with a
//   POST or a subrequest. Secure with the __Host- prefix when the portal is served over https.
// - A framed session (context type JWT: the portal inside a registered application's iframe):
//   the iframe is a third-party context, where browsers send only SameSite=None cookies, which
//   they accept only with Secure (Chromium counts http://localhost as secure, so the demo works
//   over http there; anywhere else framed sign-in needs https). Partitioned (CHIPS) keys the
//   cookie to the top-level site that frames the portal, so it still works where third-party
//   cookies are blocked, and a session signed in inside one application's frame is never sent
//   anywhere else. The portal's own Lax cookie is never sent into the cross-site frame. The framed
//   cookie has a name of its own so the two sessions never stand in for each other where both
//   arrive (the framed entry opened at top level, where a partitioned cookie is keyed to the
//   portal's own site and travels with the Lax one): a framed start ends only the framed session.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { IssuedSession, SessionRow } from '../domain/sessions';
import { portalCookieName } from './cookie-names';
import type { Services } from './services';

export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return portalCookieName(config, 'session');
}

/** The framed session's cookie (see the file comment). */
export function frameSessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return portalCookieName(config, 'frameSession');
}

function cookieOptions(config: Pick<Config, 'secureCookies'>) {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies } as const;
}

const frameCookieOptions = {
  path: '/',
  httpOnly: true,
  sameSite: 'none',
  secure: true,
  partitioned: true,
} as const;

/** Whether a session lives in a frame (and so in the framed cookie). */
export function isFramedSession(session: Pick<SessionRow, 'context'>): boolean {
  return session.context.type === 'JWT';
}

export function setSessionCookie(reply: FastifyReply, config: Config, issued: IssuedSession): void {
  if (isFramedSession(issued.session)) {
    reply.setCookie(frameSessionCookieName(config), issued.token, frameCookieOptions);
  } else {
    reply.setCookie(sessionCookieName(config), issued.token, cookieOptions(config));
  }
}

/** Clears both cookies: whichever the browser holds in this context goes. */
export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), cookieOptions(config));
  reply.clearCookie(frameSessionCookieName(config), frameCookieOptions);
}

const loaded = new WeakMap<FastifyRequest, Promise<SessionRow | null>>();

/**
 * The request's live session (looked up once per request), or null. Where both cookies arrive
 * (see the file comment) the framed one wins: the request comes from the framed portal. With
 * `touch` false the lookup does not count as use (SessionService.resolve). Logout ends both
 * (sessionsNamedBy).
 */
export function sessionOf(
  request: FastifyRequest,
  services: Services,
  options: { touch?: boolean } = {},
): Promise<SessionRow | null> {
  let pending = loaded.get(request);
  if (!pending) {
    const framed = request.cookies[frameSessionCookieName(services.config)];
    const own = request.cookies[sessionCookieName(services.config)];
    pending = (async () =>
      (framed ? await services.sessions.resolve(framed, options) : null) ??
      services.sessions.resolve(own, options))();
    loaded.set(request, pending);
  }
  return pending;
}

/**
 * Every live session the request's cookies name: the framed one and the portal's own, each once.
 * Logout ends them all, since it clears both cookies: a session it left would stay valid on the
 * server with no browser meaning to use it (and the one the request is served as is only one).
 */
export async function sessionsNamedBy(request: FastifyRequest, services: Services): Promise<SessionRow[]> {
  const found: SessionRow[] = [];
  for (const name of [frameSessionCookieName(services.config), sessionCookieName(services.config)]) {
    const session = await services.sessions.resolve(request.cookies[name], { touch: false });
    if (session && !found.some((s) => s.idHash === session.idHash)) found.push(session);
  }
  return found;
}

/** The live session the portal's own (unframed) cookie names, or null. */
export function ownSessionOf(request: FastifyRequest, services: Services): Promise<SessionRow | null> {
  return services.sessions.resolve(request.cookies[sessionCookieName(services.config)]);
}

/** The live session the framed cookie names, or null. */
export function framedSessionOf(request: FastifyRequest, services: Services): Promise<SessionRow | null> {
  return services.sessions.resolve(request.cookies[frameSessionCookieName(services.config)]);
}

/** Makes `session` the request's session for the rest of the request (after issuing one). */
export function rememberSession(request: FastifyRequest, session: SessionRow): void {
  loaded.set(request, Promise.resolve(session));
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
