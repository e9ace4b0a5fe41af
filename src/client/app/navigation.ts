// Navigation outside React. The api layer and start-up code navigate through here; the router
// registers its navigate function when it is created, so nothing here imports React.

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
 * Goes to an in-app path through the router, or leaves the app for another origin. A same-origin
 * absolute URL (a 401's `url` may be one) becomes an in-app path.
 */
export function navigateTo(to: string, options: NavigateOptions = {}): void {
  const target = toAppPath(to);
  if (target === null) {
    window.location.assign(to);
    return;
  }
  if (navigator) void navigator(target, options);
  else if (options.replace) window.location.replace(target);
  else window.location.assign(target);
}

/** The in-app path of `to`, or null when it points at another origin. */
export function toAppPath(to: string): string | null {
  if (to.startsWith('/') && !to.startsWith('//')) return to;
  let url: URL;
  try {
    url = new URL(to, window.location.href);
  } catch {
    return '/';
  }
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
