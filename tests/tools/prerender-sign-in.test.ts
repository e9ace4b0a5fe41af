// scripts/prerender-sign-in.ts: the sign-in page's first view drawn into index.html, with no style
// attribute the CSP would block, no id the live page also uses, and the spec's texts.
import { describe, expect, it } from 'vitest';
import { renderSignInFirstView } from '../../src/client/app/prerender/sign-in-first-view';
import { extractStyles, prerenderSignIn, renameIds } from '../../scripts/prerender-sign-in';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Identity Portal</title>
    <script type="module" crossorigin src="/assets/index-A.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/framework-B.js">
    <link rel="stylesheet" crossorigin href="/assets/index-C.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('the prerendered sign-in page', () => {
  const html = prerenderSignIn(INDEX, renderSignInFirstView());
  const copy = html.slice(html.indexOf('<div id="portal-prerender"'), html.indexOf('<div id="root">'));

  it('holds the sign-in form view with the spec’s texts, inert, before the live root', () => {
    expect(copy).toMatch(/^<div id="portal-prerender" inert>/);
    for (const text of [
      '>Sign in</h1>',
      '>Username<',
      '>Password<',
      '>Received an invitation? Register your account here.</a>',
      '>Having problems signing in?</a>',
      '>Sign in</span>',
      'href="/registration"',
      'href="/password-reset"',
    ]) {
      expect(copy).toContain(text);
    }
    expect(html).toContain('<title>Sign in - Identity Portal</title>');
    expect(html).toContain('<html lang="en" data-mantine-color-scheme="light">');
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toMatch(/<script(?![^>]*src=)/);
  });

  it('keeps the CSP strict: no style attribute, every style element with the nonce', () => {
    expect(html).not.toContain(' style="');
    const styles = html.match(/<style[^>]*>/g) ?? [];
    expect(styles.length).toBeGreaterThan(1);
    for (const tag of styles) expect(tag).toContain('nonce="__CSP_NONCE__"');
    expect(html).toContain('#portal-prerender~#root{display:none}');
  });

  it('prefixes every id and the references to it', () => {
    const ids = [...copy.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids.filter((id) => id !== 'portal-prerender').every((id) => id.startsWith('prerender-'))).toBe(
      true,
    );
    for (const [, target] of copy.matchAll(/ for="([^"]+)"/g)) expect(ids).toContain(target);
    expect(copy).toContain('href="#prerender-main-content"');
  });

  it('loads the scripts at low priority: the first paint does not wait for them', () => {
    expect(html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index-A.js">');
    expect(html).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-C.css">');
  });
});

describe('the transforms', () => {
  it('renameIds renames ids, for, href="#…" and aria references, and leaves unknown ones', () => {
    expect(
      renameIds(
        '<label id="a-label" for="a"></label><input id="a" aria-describedby="a-label other"/><a href="#a"></a>',
      ),
    ).toBe(
      '<label id="prerender-a-label" for="prerender-a"></label>' +
        '<input id="prerender-a" aria-describedby="prerender-a-label other"/><a href="#prerender-a"></a>',
    );
  });

  it('extractStyles moves each distinct style into one rule that outranks class rules', () => {
    const { markup, css } = extractStyles(
      '<p style="--x:1;font-family:&quot;A B&quot;"></p><p style="--x:1;font-family:&quot;A B&quot;"></p><b style="color:red"></b>',
    );
    expect(markup).toBe(
      '<p data-prerender-style="0"></p><p data-prerender-style="0"></p><b data-prerender-style="1"></b>',
    );
    expect(css).toBe(
      '#portal-prerender [data-prerender-style="0"]{--x:1;font-family:"A B"}\n' +
        '#portal-prerender [data-prerender-style="1"]{color:red}',
    );
  });
});
