// The trimmed user-agent stylesheet of tests/setup-hiding-rules.ts: it keeps every rule that hides
// an element, and only those, so what the suites judge hidden is what jsdom's whole sheet judges.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RESOLVED_PROPERTIES, userAgentRules } from '../setup-hiding-rules';

const selectorOf = (rule: object) => (rule as { selectorText?: string }).selectorText ?? '';

describe('the user-agent rules jsdom matches in these suites', () => {
  it('are every rule of the whole sheet that hides, and no other', () => {
    const { kept, whole } = userAgentRules();
    expect(whole.length).toBeGreaterThan(100);
    const hiding = whole.filter((r) => r.hides).map((r) => selectorOf(r.rule));
    expect(kept.map(selectorOf)).toEqual(hiding);
    expect(hiding).toEqual(
      expect.arrayContaining([
        'dialog:not([open])',
        '[hidden]:not([hidden="until-found" i]):not(embed)',
        'input[type="hidden" i]',
      ]),
    );
    expect(hiding.length).toBeLessThan(12);
  });

  it('still hide what the whole sheet hides from role queries and toBeVisible', () => {
    render(
      <div>
        <button hidden>Hidden by attribute</button>
        <dialog>
          <button>Inside a closed dialog</button>
        </dialog>
        <input type="hidden" aria-label="Hidden input" />
        <button>Shown</button>
      </div>,
    );
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Shown']);
    expect(screen.getByText('Hidden by attribute')).not.toBeVisible();
    expect(screen.getByText('Inside a closed dialog')).not.toBeVisible();
    expect(screen.getByText('Shown')).toBeVisible();
    expect(window.getComputedStyle(screen.getByText('Hidden by attribute')).display).toBe('none');
  });

  it('resolve display, visibility and pointer-events through the ancestors, and leave colours as declared', () => {
    render(
      <div>
        <div style={{ visibility: 'hidden', color: 'rgb(1, 2, 3)' }}>
          <button>Inherits hidden</button>
        </div>
        <div style={{ pointerEvents: 'none' }}>
          <span>Takes no pointer events</span>
        </div>
      </div>,
    );
    expect(RESOLVED_PROPERTIES).toEqual(['display', 'visibility', 'pointer-events']);
    const hidden = screen.getByText('Inherits hidden');
    expect(window.getComputedStyle(hidden).visibility).toBe('hidden');
    expect(hidden).not.toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
    expect(window.getComputedStyle(screen.getByText('Takes no pointer events')).pointerEvents).toBe('none');
    // Not inherited here: the suites judge no colour (the browser suite does, in Chromium).
    expect(window.getComputedStyle(hidden).color).toBe('');
  });
});
