// jsdom set-up shared by the client and model suites: jest-dom matchers and the browser APIs
// Mantine relies on that jsdom lacks.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor wait up to 5 s instead of 1 s: the first render of a page imports its lazy
// modules, which on a loaded 2-core CI machine has taken over a second (a11y2-nav's grid test
// failed once so, its header not yet drawn). Only how long a failing wait takes changes.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverPolyfill {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverPolyfill });
}
Object.defineProperty(window, 'scrollTo', { writable: true, value: () => {} });
Element.prototype.scrollIntoView = Element.prototype.scrollIntoView ?? (() => {});
