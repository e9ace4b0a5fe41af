// After `vite build`: dist/portal/sign-in.html, the built index.html with the sign-in page's first
// view already in it (src/client/app/prerender/sign-in-first-view.tsx), so that an anonymous
// visitor sees the page from HTML and CSS alone while the scripts load. The copy is not hydrated:
// it is `inert` (it takes no typing or clicks), and src/client/main.tsx removes it the moment the
// live app draws its first page heading; until then the live app renders into a hidden #root.
//
// The copy keeps the server's strict CSP (style-src 'self' 'nonce-…', no 'unsafe-inline'):
// - style attributes (Mantine's CSS variables and style props) would be blocked in parsed markup,
//   so each becomes a data attribute with a rule in a <style> element carrying the nonce;
// - Mantine's own <style> elements already carry the nonce placeholder the server fills in.
// Ids are prefixed (with the for, href="#…" and aria-* references to them) so that the page never
// holds two elements with one id, and labels find only the live fields.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NONCE_PLACEHOLDER, renderSignInFirstView } from '../src/client/app/prerender/sign-in-first-view';
import { shellTexts } from '../src/client/app/texts';
import { signInTexts } from '../src/client/flows/sign-in/sign-in.texts';

export const PRERENDER_ID = 'portal-prerender';
const STYLE_ATTRIBUTE = 'data-prerender-style';
const ID_PREFIX = 'prerender-';
const ID_REFERENCES = ['aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns'];

const dist = 'dist/portal';

const unescapeAttribute = (value: string) =>
  value
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** Prefixes every id, and every reference to one, in the markup. */
export function renameIds(markup: string): string {
  const ids = new Set([...markup.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!));
  const rename = (id: string) => (ids.has(id) ? `${ID_PREFIX}${id}` : id);
  let out = markup.replace(
    / (id|for)="([^"]+)"/g,
    (_, name: string, id: string) => ` ${name}="${rename(id)}"`,
  );
  out = out.replace(/ href="#([^"]+)"/g, (_, id: string) => ` href="#${rename(id)}"`);
  for (const attribute of ID_REFERENCES) {
    out = out.replace(
      new RegExp(` ${attribute}="([^"]+)"`, 'g'),
      (_, list: string) => ` ${attribute}="${list.split(/\s+/).map(rename).join(' ')}"`,
    );
  }
  return out;
}

/**
 * Moves every style attribute into a rule keyed by a data attribute. The id in the selector
 * outranks any class rule of Mantine's, as the inline style it replaces did.
 */
export function extractStyles(markup: string): { markup: string; css: string } {
  const keys = new Map<string, number>();
  const out = markup.replace(/ style="([^"]*)"/g, (_, value: string) => {
    let key = keys.get(value);
    if (key === undefined) keys.set(value, (key = keys.size));
    return ` ${STYLE_ATTRIBUTE}="${key}"`;
  });
  const css = [...keys]
    .map(([value, key]) => `#${PRERENDER_ID} [${STYLE_ATTRIBUTE}="${key}"]{${unescapeAttribute(value)}}`)
    .join('\n');
  return { markup: out, css };
}

/** index.html with the first view in it. */
export function prerenderSignIn(indexHtml: string, rootMarkup: string): string {
  if (/<script/i.test(rootMarkup)) throw new Error('The sign-in first view must not hold a script.');
  const { markup, css } = extractStyles(renameIds(rootMarkup));
  if (/ style="/.test(markup)) throw new Error('A style attribute was left in the first view.');
  const replace = (html: string, pattern: string | RegExp, by: string) => {
    const next = html.replace(pattern, by);
    if (next === html) throw new Error(`index.html has no ${String(pattern)}`);
    return next;
  };
  let html = indexHtml;
  // The page paints without the scripts: they load at low priority, behind the stylesheet, and no
  // longer count as holding up the first paint (they are module scripts, which never did).
  html = html.replace(
    /<(script type="module"|link rel="modulepreload")/g,
    (_, tag: string) => `<${tag} fetchpriority="low"`,
  );
  // Mantine's light colour scheme, which the live app sets on <html> as it starts.
  html = replace(html, '<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">');
  html = replace(
    html,
    /<title>[^<]*<\/title>/,
    `<title>${shellTexts.documentTitle(signInTexts.heading)}</title>`,
  );
  html = replace(
    html,
    '</head>',
    // While the copy is there the live app renders out of sight: its loaders never show, and the
    // page it draws in place of the copy is new content, not content that moved (CLS stays 0).
    `  <style nonce="${NONCE_PLACEHOLDER}">\n#${PRERENDER_ID}~#root{display:none}\n${css}\n</style>\n  </head>`,
  );
  html = replace(
    html,
    '<div id="root"></div>',
    `<div id="${PRERENDER_ID}" inert>${markup}</div>\n    <div id="root"></div>`,
  );
  return html;
}

function main() {
  const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
  const html = prerenderSignIn(indexHtml, renderSignInFirstView());
  writeFileSync(join(dist, 'sign-in.html'), html);
  console.log(`prerendered sign-in page: ${join(dist, 'sign-in.html')} (${html.length} bytes)`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
