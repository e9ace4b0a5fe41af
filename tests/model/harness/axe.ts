// axe-core on the mounted page, with what jsdom cannot judge (colour contrast, landmarks of a page
// mounted without its shell) left to the browser suite.
import axe from 'axe-core';

export async function axeViolations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
