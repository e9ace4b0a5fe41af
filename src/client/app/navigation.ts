// Navigation outside React. The api layer and start-up code navigate through here; the router
// registers its navigate function when it is created, so nothing here imports React.
import { SIGN_IN_ROUTE } from './routes';

export interface NavigateOptions {
  replace?: boolean;
}
export type Navigator = (to: string, options?: NavigateOptions) => unknown;

let navigator: Navigator | null = null;
const browserLocation = () => `${window.location.pathname}${window.location.search}`;
let locator: () => string = browserLocation;

/**
 * The router calls this once it exists, with where it is (path and query); tests register a spy.
 * Without a locator, where the browser's address is.
 */
export function registerNavigator(next: Navigator | null, where?: () => string): void {
  navigator = next;
  locator = where ?? browserLocation;
}

/** The app's current path and query. */
export function currentAppPath(): string {
  return locator();
}

/**
 * Goes to an in-app path through the router. Only this origin's pages are followed (a 401's `url`
 * and a 422's `reroute` come from the server, section 8): a same-origin absolute http(s) URL becomes
 * its in-app path; anything else (another origin, a `javascript:` or `data:` address, one that does
 * not parse) goes to the sign-in page instead, never to the browser as it is.
 */
export function navigateTo(to: string, options: NavigateOptions = {}): void {
  const target = toAppPath(to) ?? SIGN_IN_ROUTE;
  if (navigator) void navigator(target, options);
  else if (options.replace) window.location.replace(target);
  else window.location.assign(target);
}

/**
 * The in-app path (path, query and hash) of `to`: a path, or an http(s) URL of this origin. Null for
 * anything else, including a path the browser reads as another host ('//host', '/\\host').
 */
export function toAppPath(to: string): string | null {
  let url: URL;
  try {
    url = new URL(to, window.location.href);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin !== window.location.origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Whether the browser's previous entry is a page of this app: the router numbers the entries it
 * pushes (`idx` in history.state) from 0 for the first page the tab opened here.
 */
export function canGoBackWithinApp(): boolean {
  const state: unknown = window.history.state;
  if (state === null || typeof state !== 'object' || !('idx' in state)) return false;
  const idx = (state as { idx: unknown }).idx;
  return typeof idx === 'number' && idx > 0;
}
