// The page frame every route renders in: skip link, header, main (the route), footer; and focus
// moved to the new page's heading after each in-app navigation.
import { Container } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
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

/**
 * After a route change (not on the first page) keyboard and screen reader users start at the new
 * page's h1; every page's document title follows its h1.
 */
function FocusHeadingOnRouteChange() {
  const { pathname } = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const main = document.getElementById(MAIN_ID);
    const heading = main?.querySelector<HTMLElement>('h1');
    if (heading?.textContent) document.title = shellTexts.documentTitle(heading.textContent);
    const firstPage = previous.current === null;
    const moved = previous.current !== pathname;
    previous.current = pathname;
    if (firstPage || !moved) return;
    if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
    } else {
      main?.focus();
    }
  }, [pathname]);
  return null;
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
      <FocusHeadingOnRouteChange />
    </div>
  );
}
