// The sign-in machine's browser actions, provided by the page.

/**
 * JWT outcome: the token goes to the parent frame, and only to the exact origin the server named
 * (the machine never asks with an empty origin; '*' is refused here as well).
 */
export function postJwtToParent(
  _: unknown,
  { jwt, frameOrigin }: { jwt: string; frameOrigin: string },
): void {
  if (!frameOrigin || frameOrigin === '*') throw new Error('A JWT is only posted to an exact frame origin.');
  window.parent.postMessage({ type: 'jwt', jwt }, frameOrigin);
}
