// The one place the names of the portal's cookies are made. Over https (PUBLIC_URL https, so
// config.secureCookies) every one carries the __Host- prefix: the browser then keeps it only when
// it is Secure, has Path=/ and no Domain, so neither a sibling subdomain nor a plain-http
// response can plant or overwrite it. Over http (local development) the plain names go.
//
// Every cookie the portal's listener sets:
// | Base name          | Set by               | HttpOnly | SameSite              | Lifetime                      |
// |--------------------|----------------------|----------|-----------------------|-------------------------------|
// | sam_session        | session-cookie.ts    | yes      | Lax                   | browser session               |
// | sam_frame_session  | session-cookie.ts    | yes      | None; Partitioned     | browser session               |
// | sam_device         | device-cookies.ts    | yes      | Lax                   | the trusted-device period     |
// | sam_frame_device   | device-cookies.ts    | yes      | None; Partitioned     | the trusted-device period     |
// | sam_reauth         | device-cookies.ts    | no (the portal reads it) | Lax, or None; Partitioned in a frame | while the password entry is recent |
// The framed ones are always Secure (browsers take SameSite=None only with it). The demo SPs'
// `demo_sp_requests` (demo/sp/routes.ts) is the demo application's own, scoped to its path, so it
// cannot take __Host-; it is HttpOnly, Lax and Secure over https.
import { REENTER_PASSWORD_COOKIE } from '../../contract/session';
import type { Config } from '../config';

/** The portal's script knows this prefix too (reenter-password.actors.ts). */
export const HOST_COOKIE_PREFIX = '__Host-';

export const PORTAL_COOKIES = {
  session: 'sam_session',
  frameSession: 'sam_frame_session',
  device: 'sam_device',
  frameDevice: 'sam_frame_device',
  reenterPassword: REENTER_PASSWORD_COOKIE,
} as const;

export type PortalCookie = keyof typeof PORTAL_COOKIES;

/** The name `cookie` goes under with this configuration. */
export function portalCookieName(config: Pick<Config, 'secureCookies'>, cookie: PortalCookie): string {
  const name = PORTAL_COOKIES[cookie];
  return config.secureCookies ? `${HOST_COOKIE_PREFIX}${name}` : name;
}
