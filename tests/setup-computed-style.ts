// jsdom's getComputedStyle matches every stylesheet rule against the element and, for inherited
// properties, against each ancestor; Testing Library asks for it on every element a role query
// looks at, several times per query. In the generated path suites that was half their running time.
// This setup file lets one synchronous stretch of code reuse an element's computed style: nothing
// can change the DOM in between unless an event is dispatched or React work is flushed, and the
// cache is dropped at the next microtask, on every Testing Library event and async wrapper, and
// around React's act. It is loaded first, before Testing Library reads React's act.
import React from 'react';

let cache: WeakMap<Element, Map<string, CSSStyleDeclaration>> | null = null;
const drop = () => {
  cache = null;
};

const original = window.getComputedStyle.bind(window);
window.getComputedStyle = ((element: Element, pseudo?: string | null) => {
  if (!cache) {
    cache = new WeakMap();
    queueMicrotask(drop);
  }
  let styles = cache.get(element);
  if (!styles) cache.set(element, (styles = new Map()));
  const key = pseudo ?? '';
  let style = styles.get(key);
  if (!style) styles.set(key, (style = original(element, pseudo)));
  return style;
}) as typeof window.getComputedStyle;

function dropAround<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => R {
  return (...args: A) => {
    drop();
    try {
      return run(...args);
    } finally {
      drop();
    }
  };
}

const reactExports = React as unknown as { act?: (callback: () => unknown) => unknown };
if (typeof reactExports.act !== 'function') throw new Error('React.act is missing: not a development build');
reactExports.act = dropAround(reactExports.act);

// Testing Library for React sets its wrappers when loaded; wrap them after that.
const { configure, getConfig } = await import('@testing-library/react');
const { eventWrapper, asyncWrapper } = getConfig();
configure({ eventWrapper: dropAround(eventWrapper), asyncWrapper: dropAround(asyncWrapper) });

/** For the harness's own test: whether a style is being reused now. */
export const computedStyleCacheActive = () => cache !== null;
