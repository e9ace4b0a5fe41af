// The page frame every route renders in: skip link, header, main (the route), footer; and focus
// moved to the new page's heading after each in-app navigation.
import { Container } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { loadChunk } from '../chunk-reload';
import { isPending, isSignedIn } from '../guards/guards';
import { useSession } from '../session/use-session';
import { shellTexts } from '../texts';
import { AppFooter } from './AppFooter';
import { AppHeader } from './AppHeader';

export const MAIN_ID = 'main-content';

function focusMain() {
  document.getElementById(MAIN_ID)?.focus();
}

function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className="portal-skip-link"
      onClick={(event) => {
        // Focus instead of a hash change, which the router would take for a navigation.
        event.preventDefault();
        focusMain();
      }}
    >
      {shellTexts.skipToContent}
    </a>
  );
}

/** The heading of the page's sub-screen (a wizard's step, an admin screen, a request), if any. */
const subScreenHeading = (main: HTMLElement) => main.querySelector<HTMLElement>('[data-step-heading]');

/**
 * The document title (WCAG 2.4.2): the page's h1, after the heading of its sub-screen when it marks
 * one (data-step-heading), so that each admin screen, request and wizard step is told apart:
 * 'Invitations - Administration - Identity Portal'. Null before the page has its h1.
 */
function documentTitleOf(main: HTMLElement): string | null {
  const h1 = main.querySelector('h1');
  if (!h1) return null;
  const page = h1.textContent!.trim();
  const sub = subScreenHeading(main)?.textContent?.trim();
  return shellTexts.documentTitle(sub && sub !== page ? `${sub} - ${page}` : page);
}

/**
 * The document title follows the page's headings as they are drawn and as they change (a request
 * or identity loaded, a wizard's next step), however late.
 */
function DocumentTitle() {
  useEffect(() => {
    const main = document.getElementById(MAIN_ID)!;
    const update = () => {
      const title = documentTitleOf(main);
      if (title !== null && document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return null;
}

/**
 * After a route change (not on the first page) keyboard and screen reader users start at the new
 * page's heading: its sub-screen's title (data-step-heading: a wizard's step, an admin screen, a
 * request) before the page's h1. A heading drawn later (a lazy chunk, a loading step) still takes
 * the focus for 5 s, while the focus has not moved on from where this put it.
 */
function FocusHeadingOnRouteChange() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    const main = document.getElementById(MAIN_ID)!;
    const moved = previous.current !== pathname;
    previous.current = pathname;
    let at: Element | null = null;
    const settle = () => {
      const heading = subScreenHeading(main) ?? main.querySelector('h1');
      const active = document.activeElement;
      if (moved && heading && (active === at || active === document.body)) {
        heading.tabIndex = -1;
        heading.focus();
        at = heading;
      }
    };
    if (moved) (at = main).focus();
    settle();
    const observer = new MutationObserver(settle);
    observer.observe(main, { childList: true, subtree: true });
    const stop = () => observer.disconnect();
    setTimeout(stop, 5000);
    return stop;
  }, [pathname]);
  return null;
}

// Loaded once a session is there: the sign-in page does not carry the watchers or their dialogs.
const SessionWatchers = lazy(() => loadChunk(() => import('./SessionWatchers'), 'SessionWatchers'));

/** Section 4.2's watcher and the idle warning, while a session is signed in or at a forced step. */
function SessionWatchersGate() {
  const { currentUser } = useSession();
  if (currentUser === null || !(isSignedIn(currentUser) || isPending(currentUser))) return null;
  return (
    <Suspense fallback={null}>
      <SessionWatchers user={currentUser} />
    </Suspense>
  );
}

export function ShellLayout() {
  return (
    <div className="portal-page">
      <SkipLink />
      <AppHeader />
      <main id={MAIN_ID} className="portal-main" tabIndex={-1}>
        <Container size="lg">
          <Outlet />
        </Container>
      </main>
      <AppFooter />
      <DocumentTitle />
      <FocusHeadingOnRouteChange />
      <SessionWatchersGate />
    </div>
  );
}
