// Entry of the portal: styles, start-up wiring, and the React root.
import './app/styles';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startPortal } from './app/bootstrap';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The sign-in page's build-time copy (sign-in.html, scripts/prerender-sign-in.ts) stands in for the
// page while #root, hidden, loads. It goes as soon as the live app has drawn a page heading: the
// observer runs after React's commit and before the next paint, so the two never show together.
const prerendered = document.getElementById('portal-prerender');
if (prerendered) {
  const observer = new MutationObserver(() => {
    if (!container.querySelector('main h1')) return;
    observer.disconnect();
    prerendered.remove();
  });
  observer.observe(container, { childList: true, subtree: true });
}

// The start-up work in tasks of its own, so the browser can answer input between them: the modules'
// evaluation, the router's first navigation, then the first render, itself in slices (a transition).
setTimeout(() => {
  const props = startPortal();
  setTimeout(() => {
    const root = createRoot(container);
    startTransition(() =>
      root.render(
        <StrictMode>
          <App {...props} />
        </StrictMode>,
      ),
    );
  });
});
