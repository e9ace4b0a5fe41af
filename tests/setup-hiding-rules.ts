// jsdom's user-agent stylesheet, cut down to the rules that hide an element.
//
// Testing Library's role queries and accessible names, jest-dom's toBeVisible and axe ask jsdom for
// computed styles to learn one thing: whether an element is hidden (display: none, visibility:
// hidden or collapse). jsdom answers every getComputedStyle by matching the element, and for
// inherited properties each ancestor, against every rule of its user-agent stylesheet (112 rules:
// fonts, margins, form controls, tables...) and of the page; after any change to the DOM it starts
// over. In the generated path suites that matching was a third of their running time (the merge
// wizard's paths: 80 s, 50 s with only the hiding rules).
//
// So the suites run with the user-agent rules that hide something (closed dialogs, [hidden],
// <head>'s elements, hidden inputs...) and without the ones that only lay out or colour. The
// page's own rules (Mantine's, which include its hidden-from/visible-from classes) are all kept.
// What a layout rule would have given (a div's display: block) is judged nowhere in these suites:
// jsdom lays nothing out. Rendering is the browser suite's part, in Chromium.
//
// jsdom parses its stylesheet at its first computed style, through @acemir/cssom's parse (looked up
// on the module at each call), so this file wraps parse before any test runs and trims that one
// text's result. It is loaded first, once per worker (the path suites share their worker's modules).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface Rule {
  style?: { getPropertyValue(name: string): string };
  cssRules?: ArrayLike<Rule>;
  deleteRule?(index: number): void;
}
interface Sheet {
  cssRules: ArrayLike<Rule>;
  deleteRule(index: number): void;
}
interface CssomModule {
  parse: ((text: string, ...rest: unknown[]) => Sheet) & { [TRIMMED]?: true };
}

const TRIMMED = Symbol.for('portal.hidingRules.installed');

/** Whether a style rule can hide the elements it matches. */
function hides(rule: Rule): boolean {
  const style = rule.style;
  if (!style) return false;
  const value = (name: string) => style.getPropertyValue(name).trim().toLowerCase();
  return (
    value('display') === 'none' ||
    ['hidden', 'collapse'].includes(value('visibility')) ||
    value('content-visibility') === 'hidden'
  );
}

/** Deletes, in place, every rule (and grouping rule left empty) that hides nothing. */
function keepHidingRules(list: { cssRules?: ArrayLike<Rule>; deleteRule?(index: number): void }): void {
  const rules = list.cssRules;
  if (!rules || !list.deleteRule) return;
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.cssRules && !rule.style) {
      keepHidingRules(rule);
      if (rule.cssRules.length === 0) list.deleteRule(i);
    } else if (!hides(rule)) {
      list.deleteRule(i);
    }
  }
}

const requireFromJsdom = createRequire(createRequire(import.meta.url).resolve('jsdom'));
const cssom = requireFromJsdom('@acemir/cssom') as CssomModule;
const userAgentSheet = readFileSync(
  path.join(path.dirname(requireFromJsdom.resolve('jsdom')), 'jsdom/browser/default-stylesheet.css'),
  'utf8',
);

if (!cssom.parse[TRIMMED]) {
  const parse = cssom.parse;
  const trimmed: CssomModule['parse'] = (text, ...rest) => {
    const sheet = parse(text, ...rest);
    if (text === userAgentSheet) keepHidingRules(sheet);
    return sheet;
  };
  trimmed[TRIMMED] = true;
  cssom.parse = trimmed;
}

/**
 * For the harness's own test: the user-agent rules jsdom matches (trimmed), and the whole sheet's
 * rules with the hiding ones marked (parsed from the same text plus a newline, which the wrapper
 * leaves whole).
 */
export function userAgentRules(): { kept: Rule[]; whole: Array<{ rule: Rule; hides: boolean }> } {
  const flat = (rules: ArrayLike<Rule>): Rule[] =>
    Array.from(rules).flatMap((r) => (r.cssRules && !r.style ? flat(r.cssRules) : [r]));
  return {
    kept: flat(cssom.parse(userAgentSheet).cssRules),
    whole: flat(cssom.parse(`${userAgentSheet}\n`).cssRules).map((rule) => ({ rule, hides: hides(rule) })),
  };
}
