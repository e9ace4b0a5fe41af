// The factor cookies besides the session's:
// - trusted device (`sam_device`, `__Host-sam_device` over https): HttpOnly, SameSite=Lax, the
//   256-bit token of a trusted-device record, living as long as the record (the server's period);
// - re-enter password (`sam_reauth`, REENTER_PASSWORD_COOKIE; `__Host-sam_reauth` over https):
//   readable by the portal's JavaScript, present while the password entry is recent, its value
//   the Unix second that ends. It marks; it grants nothing: the server decides from the session
//   (reenter-password/expired).
// Names come from cookie-names.ts.
// In a framed session (the portal inside an application's iframe, see session-cookie.ts) a
// SameSite=Lax cookie is neither stored nor sent, so both go as SameSite=None; Secure; Partitioned
// there: the device cookie under a name of its own (`sam_frame_device`), trusted only inside that
// application's frame; the re-enter cookie under the same name, since the frame's JavaScript only
// ever sees its own partition.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { SessionRow } from '../domain/sessions';
import { portalCookieName } from './cookie-names';
import type { Services } from './services';
import { isFramedSession, setSessionCookie } from './session-cookie';

type CookieConfig = Pick<Config, 'secureCookies'>;
type Framing = Pick<SessionRow, 'context'> | null | undefined;

const framed = (session: Framing) => !!session && isFramedSession(session);

export function deviceCookieName(config: CookieConfig, session?: Framing): string {
  return portalCookieName(config, framed(session) ? 'frameDevice' : 'device');
}

/** The re-enter-password cookie's name (the portal's script looks for both forms). */
export function reenterPasswordCookieName(config: CookieConfig): string {
  return portalCookieName(config, 'reenterPassword');
}

const laxOptions = (config: CookieConfig, httpOnly: boolean) =>
  ({ path: '/', httpOnly, sameSite: 'lax', secure: config.secureCookies }) as const;
const frameOptions = (httpOnly: boolean) =>
  ({ path: '/', httpOnly, sameSite: 'none', secure: true, partitioned: true }) as const;
const optionsFor = (config: CookieConfig, session: Framing, httpOnly: boolean) =>
  framed(session) ? frameOptions(httpOnly) : laxOptions(config, httpOnly);

/** The trusted-device token the browser sent in this context (framed or not), if any. */
export function deviceTokenOf(
  request: FastifyRequest,
  config: CookieConfig,
  session?: Framing,
): string | null {
  return request.cookies[deviceCookieName(config, session)] ?? null;
}

export function setDeviceCookie(
  reply: FastifyReply,
  config: CookieConfig,
  session: Framing,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(deviceCookieName(config, session), token, {
    ...optionsFor(config, session, true),
    maxAge: maxAgeSeconds,
  });
}

export function clearDeviceCookie(reply: FastifyReply, config: CookieConfig, session: Framing): void {
  reply.clearCookie(deviceCookieName(config, session), optionsFor(config, session, true));
}

/** Marks the password entry recent until `expiresAt`. */
export function setReenterPasswordCookie(
  reply: FastifyReply,
  config: CookieConfig,
  session: Framing,
  expiresAt: Date,
  now: Date,
): void {
  const maxAge = Math.floor((expiresAt.getTime() - now.getTime()) / 1000);
  if (maxAge <= 0) return clearReenterPasswordCookie(reply, config, session);
  reply.setCookie(reenterPasswordCookieName(config), String(Math.floor(expiresAt.getTime() / 1000)), {
    ...optionsFor(config, session, false),
    maxAge,
  });
}

export function clearReenterPasswordCookie(
  reply: FastifyReply,
  config: CookieConfig,
  session: Framing,
): void {
  reply.clearCookie(reenterPasswordCookieName(config), optionsFor(config, session, false));
}

/**
 * After a sign-in or a forced step answered: once the session is AUTHENTICATED, the
 * re-enter-password cookie marks the password entry of this sign-in as recent. Every route that
 * can complete a sign-in calls this with the session it left behind.
 */
export function afterSignInStep(
  reply: FastifyReply,
  services: Services,
  step: { session: SessionRow; token: string | null },
): void {
  const { session, token } = step;
  // The completed sign-in's new session token (sign-in-flow.ts continueAfter).
  if (token) setSessionCookie(reply, services.config, { token, session });
  if (session.type !== 'AUTHENTICATED') return;
  setReenterPasswordCookie(
    reply,
    services.config,
    session,
    services.factors.reenterPassword.expiresAt(session),
    services.clock.now(),
  );
}
