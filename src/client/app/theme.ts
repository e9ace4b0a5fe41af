// A calm bank theme: harbour blue on white, system fonts, small radii, keyboard-visible focus rings.
import { Anchor, createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Shades 6 and up give text at least 4.5:1 on white and on the lightest shade (WCAG AA). */
const harbour: MantineColorsTuple = [
  '#edf4f8',
  '#dbe6ee',
  '#b3cbdc',
  '#88aec9',
  '#6a97b8',
  '#4f82a9',
  '#3a7099',
  '#30668f',
  '#285a80',
  '#1b4d72',
];

export const theme = createTheme({
  primaryColor: 'harbour',
  primaryShade: { light: 7, dark: 5 },
  colors: { harbour },
  black: '#1b2733',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '600' },
  defaultRadius: 'sm',
  focusRing: 'auto',
  cursorType: 'pointer',
  components: {
    // Links inside text are told apart by more than colour (WCAG 1.4.1); nav links opt out.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Show/hide password in the Tab order (WCAG 2.1.1); a plain object, no import on the sign-in page.
    PasswordInput: { defaultProps: { visibilityToggleFocusable: true } },
  },
});

/**
 * Mantine's dimmed text (gray 6) is 3.3:1 on white; this grey keeps 5.5:1 or more on every light
 * surface of the portal (WCAG AA), for hints, list labels and menu labels alike.
 */
export const DIMMED_TEXT = '#5c636a';

/** Mantine's error red (red 6) is 3.3:1 on white; red 9 keeps field errors at 4.5:1 or more. */
export const ERROR_TEXT = '#c92a2a';

/**
 * Mantine's light orange text (alert titles, e.g. 'SMS unavailable') is 3.9:1 on its own tinted
 * background; this orange keeps 5:1 on it and 5.5:1 on white.
 */
export const WARNING_TEXT = '#b8410e';

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED_TEXT,
    '--mantine-color-error': ERROR_TEXT,
    '--mantine-color-orange-light-color': WARNING_TEXT,
  },
  dark: {},
});

const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * The per-request CSP nonce the server writes into <meta name="csp-nonce">, so the <style> tags
 * Mantine injects are allowed without 'unsafe-inline'. Empty when the page was not served by the
 * server (Vite's dev server leaves the placeholder).
 */
export function getStyleNonce(): string {
  const content = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
  return content === NONCE_PLACEHOLDER ? '' : content;
}
