// The sign-in page as an anonymous visitor first sees it (shell, heading, empty form, links,
// footer), drawn to HTML at build time by scripts/prerender-sign-in.ts from the same components the
// live page renders. The server sends that copy at '/' to a visitor without a session cookie, so
// the page paints from HTML and CSS while the scripts load (src/client/main.tsx removes it when the
// live page is drawn). Never part of the browser bundle.
import { MantineProvider } from '@mantine/core';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SignInFormView, SignInFrame } from '../../flows/sign-in/SignInForm';
import { SIGN_IN_ROUTE } from '../routes';
import { SessionProvider } from '../session/SessionProvider';
import { ANONYMOUS_USER, SessionStore } from '../session/session-store';
import { ShellLayout } from '../shell/ShellLayout';
import { cssVariablesResolver, theme } from '../theme';

/** What the server replaces with the request's CSP style nonce (src/server/http/plugins/portal.ts). */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

const ignore = () => {};

/** The markup of the portal's root element (what #root holds) on the sign-in page's form view. */
export function renderSignInFirstView(): string {
  const session = new SessionStore(null);
  session.setCurrentUser(ANONYMOUS_USER);
  return renderToString(
    // The providers of src/client/app/App.tsx that this view reads.
    <MantineProvider
      theme={theme}
      getStyleNonce={() => NONCE_PLACEHOLDER}
      cssVariablesResolver={cssVariablesResolver}
      deduplicateCssVariables={false}
    >
      <SessionProvider store={session}>
        <MemoryRouter initialEntries={[SIGN_IN_ROUTE]}>
          <Routes>
            <Route element={<ShellLayout />}>
              <Route
                path={SIGN_IN_ROUTE}
                element={
                  <SignInFrame>
                    <SignInFormView
                      busy={false}
                      showsSecurityCode={false}
                      captchaSrc={null}
                      refusal={null}
                      onSubmit={ignore}
                      onRefreshCaptcha={ignore}
                    />
                  </SignInFrame>
                }
              />
            </Route>
          </Routes>
        </MemoryRouter>
      </SessionProvider>
    </MantineProvider>,
  );
}
