// The page document and the CSP: index.html has no inline scripts or styles and carries the nonce
// placeholder; Mantine's injected style tags carry the nonce the server wrote into it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MantineProvider, Text } from '@mantine/core';
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cssVariablesResolver, DIMMED_TEXT, getStyleNonce, theme } from '../../src/client/app/theme';

const html = readFileSync(resolve(process.cwd(), 'src/client/index.html'), 'utf8');
const page = new DOMParser().parseFromString(html, 'text/html');

function setNonceMeta(content: string | null) {
  document.head.querySelector('meta[name="csp-nonce"]')?.remove();
  if (content === null) return;
  const meta = document.createElement('meta');
  meta.name = 'csp-nonce';
  meta.content = content;
  document.head.append(meta);
}

afterEach(() => setNonceMeta(null));

describe('index.html', () => {
  it('is in English, has a title and the nonce placeholder the server fills', () => {
    expect(page.documentElement.lang).toBe('en');
    expect(page.title).not.toBe('');
    expect(page.querySelector('meta[name="csp-nonce"]')?.getAttribute('content')).toBe('__CSP_NONCE__');
  });

  it('has no inline script or style (the CSP forbids unsafe-inline)', () => {
    const scripts = [...page.querySelectorAll('script')];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.getAttribute('src')).toBeTruthy();
      expect(script.textContent?.trim()).toBe('');
    }
    expect(page.querySelectorAll('style')).toHaveLength(0);
    expect(page.querySelectorAll('[style]')).toHaveLength(0);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});

describe('getStyleNonce', () => {
  it('reads the nonce the server wrote into the meta tag', () => {
    setNonceMeta('r4nd0m');
    expect(getStyleNonce()).toBe('r4nd0m');
  });

  it('gives nothing for the unfilled placeholder (Vite dev server) or without the tag', () => {
    setNonceMeta('__CSP_NONCE__');
    expect(getStyleNonce()).toBe('');
    setNonceMeta(null);
    expect(getStyleNonce()).toBe('');
  });

  it("is put on Mantine's style tags", () => {
    setNonceMeta('r4nd0m');
    render(
      <MantineProvider
        theme={theme}
        getStyleNonce={getStyleNonce}
        cssVariablesResolver={cssVariablesResolver}
        deduplicateCssVariables={false}
      >
        <Text>hello</Text>
      </MantineProvider>,
    );
    const styles = [...document.querySelectorAll('style[data-mantine-styles]')];
    expect(styles.length).toBeGreaterThan(0);
    for (const style of styles) expect(style.getAttribute('nonce')).toBe('r4nd0m');
    // Every theme variable is written (default-css-variables.css is not imported).
    const css = styles.map((s) => s.textContent).join('');
    expect(css).toContain('--mantine-color-harbour-7');
    // Dimmed text meets WCAG AA contrast.
    expect(css).toContain(`--mantine-color-dimmed: ${DIMMED_TEXT}`);
  });
});
