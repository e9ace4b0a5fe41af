// Section 2.2's header: the unauthenticated variant (Sign in, User guide, App and Realm badges) and
// the authenticated one (loaded lazily so that the sign-in page does not carry its menus).
import { Anchor, Container, Group } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import type { CurrentUser } from '../../../contract/entities';
import { loadChunk } from '../chunk-reload';
import { isPending, isSignedIn, landingRoute } from '../guards/guards';
import { SIGN_IN_ROUTE, USER_GUIDE_ROUTE } from '../routes';
import { useSession } from '../session/use-session';
import { shellTexts } from '../texts';

const AuthenticatedNav = lazy(() => loadChunk(() => import('./AuthenticatedNav'), 'AuthenticatedNav'));
const ContextBadges = lazy(() => loadChunk(() => import('./ContextBadges'), 'ContextBadges'));

/** The brand links signed-in users to their landing page (applications, or access requests). */
export function brandRoute(user: CurrentUser | null): string {
  return user && isSignedIn(user) ? landingRoute(user) : SIGN_IN_ROUTE;
}

/** Sign in and User guide; a sign-in pending at a forced step has no guide (section 6). */
function AnonymousNav({ pending }: { pending: boolean }) {
  return (
    <Group component="nav" aria-label={shellTexts.mainNavigation} gap="lg">
      <Anchor component={Link} to={SIGN_IN_ROUTE} fw={500} underline="hover">
        {shellTexts.signIn}
      </Anchor>
      {!pending && (
        <Anchor component={Link} to={USER_GUIDE_ROUTE} fw={500} underline="hover">
          {shellTexts.userGuide}
        </Anchor>
      )}
    </Group>
  );
}

export function AppHeader() {
  const { currentUser, context } = useSession();
  const signedIn = currentUser !== null && isSignedIn(currentUser);
  return (
    <header className="portal-header">
      <Container size="lg" className="portal-header-inner">
        <Group gap="md">
          <Link to={brandRoute(currentUser)} className="portal-brand">
            {shellTexts.brand}
          </Link>
          {!signedIn && context?.showInHeader && (
            <Suspense fallback={null}>
              <ContextBadges context={context} />
            </Suspense>
          )}
        </Group>
        {currentUser === null ? null : signedIn ? (
          <Suspense fallback={null}>
            <AuthenticatedNav user={currentUser} />
          </Suspense>
        ) : (
          <AnonymousNav pending={isPending(currentUser)} />
        )}
      </Container>
    </header>
  );
}
