/** Whether the portal runs inside another page's frame (a cross-origin parent counts). */
export function isInsideFrame(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}
