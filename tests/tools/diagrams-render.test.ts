// Every generated Mermaid diagram (visualizations/*.mmd) parses with Mermaid itself, as GitHub and
// the Mermaid tools read them. Generated text that merely looks right is not enough: a machine-level
// transition once came out as ` -->  : route.changed`, which Mermaid refuses, and the password
// reset, registration and guide search diagrams did not draw at all.
import { JSDOM } from 'jsdom';
import type Mermaid from 'mermaid';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderVisualizations } from '../../scripts/visualize';

const diagrams = renderVisualizations().filter((file) => file.path.endsWith('.mmd'));

let mermaid: typeof Mermaid;

describe('the generated Mermaid diagrams', () => {
  beforeAll(async () => {
    // Mermaid sanitizes with DOMPurify, which needs a window when it is loaded; the rest of this
    // project's tools tests run in plain Node, so the window is made here for Mermaid alone.
    const { window } = new JSDOM('<!doctype html><html><body></body></html>');
    Object.assign(globalThis, { window, document: window.document });
    mermaid = (await import('mermaid')).default;
    mermaid.initialize({ startOnLoad: false });
  });

  it('are there, one per machine', () => {
    expect(diagrams.length).toBeGreaterThanOrEqual(30);
  });

  it.each(diagrams.map((d) => [d.path, d.content] as const))(
    '%s parses as a state diagram',
    async (_, text) => {
      await expect(mermaid.parse(text)).resolves.toMatchObject({ diagramType: 'stateDiagram' });
    },
  );
});
