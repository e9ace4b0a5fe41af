// jsdom's computed styles, cut down to what decides whether an element is hidden.
//
// Testing Library's role queries and accessible names, jest-dom's toBeVisible and user-event's
// pointer-events check ask jsdom for computed styles to learn one thing: whether an element is
// hidden (display: none, visibility: hidden or collapse) or takes no pointer events. jsdom answers
// every getComputedStyle by matching the element, and for inherited properties each ancestor,
// against every rule of its user-agent stylesheet (112 rules: fonts, margins, form controls,
// tables...) and of the page, and by resolving twelve colour properties through the ancestors;
// after any change to the DOM it starts over. In the generated path suites that was a third of
// their running time (the merge wizard's paths: 63 s alone, 47 s with both cuts below).
//
// 1. The user-agent rules that hide something (closed dialogs, [hidden], <head>'s elements, hidden
//    inputs, popovers) are kept, the ones that only lay out or colour are not. The page's own
//    rules (Mantine's, with its hidden-from/visible-from classes) are all kept.
// 2. Of the properties jsdom resolves, display, visibility and pointer-events are resolved as
//    before; colours are left as declared (jsdom lays nothing out and these suites load none of
//    the portal's stylesheets, so no colour here is the one a user sees: contrast and colours are
//    judged by axe in the browser suite, in Chromium).
//
// jsdom parses its stylesheet at its first computed style, through @acemir/cssom's parse (looked up
// on the module at each call), so this file wraps parse before any test runs and trims that one
// text's result; the resolved properties are a table jsdom reads at each call. It is loaded first,
// once per worker (the path suites share their worker's modules).
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

// jsdom's own copies of its modules (lib/api.js is its main file).
const jsdomMain = createRequire(import.meta.url).resolve('jsdom');
const requireFromJsdom = createRequire(jsdomMain);
const jsdomFile = (file: string) => path.join(path.dirname(jsdomMain), 'jsdom', file);
const cssom = requireFromJsdom('@acemir/cssom') as CssomModule;
const userAgentSheet = readFileSync(jsdomFile('browser/default-stylesheet.css'), 'utf8');

/** The properties jsdom keeps resolving: those that hide an element or stop its pointer events. */
export const RESOLVED_PROPERTIES = ['display', 'visibility', 'pointer-events'] as const;

const styleRules = requireFromJsdom(jsdomFile('living/helpers/style-rules.js')) as {
  propertiesWithResolvedValueImplemented: Record<string, unknown>;
};
const resolved = styleRules.propertiesWithResolvedValueImplemented;
for (const property of RESOLVED_PROPERTIES) {
  if (!(property in resolved)) throw new Error(`jsdom no longer resolves ${property}: see this file`);
}
for (const property of Object.keys(resolved)) {
  if (!(RESOLVED_PROPERTIES as readonly string[]).includes(property)) delete resolved[property];
}

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
