// Imported for its effect by every module that renders a Mantine Modal (lazily loaded pages only,
// never the sign-in page). Under Mantine's Modal, react-remove-scroll injects a <style> element
// that locks the page's scroll; it takes a CSP nonce only from a global `__webpack_nonce__`
// (get-nonce), so without one the portal's CSP (style-src 'self' 'nonce-…', see
// src/server/http/plugins/security.ts) blocks it and Chromium logs a violation. This gives it the
// page's style nonce, the one Mantine's own style tags carry.
import { getStyleNonce } from './theme';

const scope = globalThis as { __webpack_nonce__?: string };
const nonce = getStyleNonce();
if (nonce && !scope.__webpack_nonce__) scope.__webpack_nonce__ = nonce;
