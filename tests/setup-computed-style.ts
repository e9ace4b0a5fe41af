// jsdom's getComputedStyle matches every stylesheet rule against the element and, for inherited
// properties, against each ancestor; Testing Library asks for it on every element a role query
// looks at, several times per query. In the generated path suites that was half their running time.
// This setup file lets one synchronous stretch of code reuse an element's computed style: nothing
// can change the DOM in between unless an event is dispatched or React work is flushed, and the
// cache is dropped at the next microtask, on every Testing Library event and async wrapper, and
// around React's act. It is loaded first, before Testing Library reads React's act.
import React from 'react';

// One cache for the whole worker: with `isolate: false` this file runs again for every test file
// while React, Testing Library and the jsdom window may be the ones an earlier file already wrapped.
// Every wrapper reads and drops this one slot, and each is installed once (marked by INSTALLED).
const INSTALLED = Symbol.for('portal.computedStyleCache.installed');
interface CacheSlot {
  cache: WeakMap<Element, Map<string, CSSStyleDeclaration>> | null;
}
const global = globalThis as typeof globalThis & { [INSTALLED]?: CacheSlot };
const slot: CacheSlot = (global[INSTALLED] ??= { cache: null });
const drop = () => {
  slot.cache = null;
};
type Marked = { [INSTALLED]?: true };
const isInstalled = (f: unknown) => typeof f === 'function' && (f as Marked)[INSTALLED] === true;
function mark<F>(f: F): F {
  (f as Marked)[INSTALLED] = true;
  return f;
}

if (!isInstalled(window.getComputedStyle)) {
  const original = window.getComputedStyle.bind(window);
  window.getComputedStyle = mark(((element: Element, pseudo?: string | null) => {
    if (!slot.cache) {
      slot.cache = new WeakMap();
      queueMicrotask(drop);
    }
    let styles = slot.cache.get(element);
    if (!styles) slot.cache.set(element, (styles = new Map()));
    const key = pseudo ?? '';
    let style = styles.get(key);
    if (!style) styles.set(key, (style = original(element, pseudo)));
    return style;
  }) as typeof window.getComputedStyle);
}

function dropAround<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => R {
  if (isInstalled(run)) return run;
  return mark((...args: A) => {
    drop();
    try {
      return run(...args);
    } finally {
      drop();
    }
  });
}

const reactExports = React as unknown as { act?: (callback: () => unknown) => unknown };
if (typeof reactExports.act !== 'function') throw new Error('React.act is missing: not a development build');
reactExports.act = dropAround(reactExports.act);

// Testing Library for React sets its wrappers when loaded; wrap them after that.
const { configure, getConfig } = await import('@testing-library/react');
const { eventWrapper, asyncWrapper } = getConfig();
configure({ eventWrapper: dropAround(eventWrapper), asyncWrapper: dropAround(asyncWrapper) });

/** For the harness's own test: whether a style is being reused now. */
export const computedStyleCacheActive = () => slot.cache !== null;
