// Server-rendered pages of the demo service providers: every value is escaped, styles carry the
// request's CSP nonce (no inline script anywhere), and each page has a language, a title and one h1.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** HTML that is already safe (built from escaped parts). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A template tag that escapes every interpolated value unless it is SafeHtml (or a list of them). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export const DEMO_STYLES = `
  :root { color-scheme: light; font-family: system-ui, sans-serif; color: #1a1a1a; background: #fff; }
  body { margin: 0; }
  main { max-width: 52rem; margin: 0 auto; padding: 1.5rem; line-height: 1.5; }
  h1 { font-size: 1.75rem; margin: 0 0 .5rem; }
  h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
  a { color: #0b4f9c; }
  .demo-note { color: #4a4a4a; }
  .verdict { padding: .75rem 1rem; border-radius: .375rem; border: 1px solid; }
  .verdict-ok { background: #e9f7ee; border-color: #2f7a45; color: #1d4d2b; }
  .verdict-rejected { background: #fdecec; border-color: #b42318; color: #7a1a12; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .375rem .5rem; border-bottom: 1px solid #d0d0d0; overflow-wrap: anywhere; }
  .actions { display: flex; gap: 1rem; flex-wrap: wrap; margin-top: 1.5rem; }
  iframe { width: 100%; height: 44rem; border: 1px solid #b0b0b0; border-radius: .375rem; }
`;

export interface PageOptions {
  title: string;
  /** The style nonce of the request's CSP; null when styles come from a stylesheet URL. */
  styleNonce: string | null;
  stylesheet?: string;
  script?: string;
  mainAttributes?: Record<string, string>;
  body: SafeHtml;
}

export function page(options: PageOptions): string {
  const attributes = Object.entries(options.mainAttributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  const style =
    options.styleNonce !== null
      ? `<style nonce="${escapeHtml(options.styleNonce)}">${DEMO_STYLES}</style>`
      : `<link rel="stylesheet" href="${escapeHtml(options.stylesheet ?? '')}">`;
  const script = options.script ? `<script type="module" src="${escapeHtml(options.script)}"></script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
${style}
${script}
</head>
<body>
<main${attributes}>
${options.body.value}
</main>
</body>
</html>
`;
}
