// /admin/* (signed-in admins only; anyone else, signed in or not, is sent to / with the admin target
// path kept, see adminGuard): the admin navigation and the admin screens built so far. The address is read
// here rather than through nested <Routes> (see AccessRequestsPage).
import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ACCESS_REQUESTS_ROUTE, ADMIN_ROUTE, NOT_FOUND_ROUTE } from '../app/routes';
import { adminTexts as t } from '../flows/admin/admin.texts';
import { AppsScreen } from '../flows/admin/AppsScreen';
import { identityTexts } from '../flows/admin/identities.texts';
import { ADMIN_IDENTITIES_ROUTE } from '../flows/admin/identities.routes';
import { loadChunk } from '../app/chunk-reload';
import { InvitationsScreen } from '../flows/admin/InvitationsScreen';
import { SmsGatewayScreen } from '../flows/admin/SmsGatewayScreen';
import { navTexts } from '../app/shell/nav.texts';

export const ADMIN_INVITATIONS_ROUTE = `${ADMIN_ROUTE}/invitations`;
export const ADMIN_APPS_ROUTE = `${ADMIN_ROUTE}/apps`;
export const ADMIN_SMS_GATEWAY_ROUTE = `${ADMIN_ROUTE}/sms-gateway`;
export const ADMIN_ROLES_ROUTE = `${ADMIN_ROUTE}/roles`;
export { ADMIN_IDENTITIES_ROUTE };

const SECTIONS = [
  { path: ADMIN_IDENTITIES_ROUTE, label: identityTexts.navIdentities },
  { path: ADMIN_INVITATIONS_ROUTE, label: t.nav.invitations },
  { path: ADMIN_APPS_ROUTE, label: t.nav.apps },
  { path: ADMIN_SMS_GATEWAY_ROUTE, label: t.nav.smsGateway },
  { path: ADMIN_ROLES_ROUTE, label: identityTexts.navRoles },
  // Section 6 gives admins the access-request routes (and only admins decide on requests), while
  // the header's Access Requests link is for VIEW_ACCESS_REQUESTS holders (section 2.2): admins
  // reach them from here.
  { path: ACCESS_REQUESTS_ROUTE, label: navTexts.accessRequests },
] as const;

// The identity screens: a lazy chunk of their own (the history view and the sign-out modal).
const identityScreens = () => loadChunk(() => import('../flows/admin/identity-screens'), 'identity-screens');
const IdentitySearchScreen = lazy(() => identityScreens().then((m) => ({ default: m.IdentitySearchScreen })));
const IdentityScreen = lazy(() => identityScreens().then((m) => ({ default: m.IdentityScreen })));
const IdentityRolesScreen = lazy(() => identityScreens().then((m) => ({ default: m.IdentityRolesScreen })));

/** The identity an address under /admin/identities/ names, if it names one. */
function identityIdOf(path: string): string | null {
  const match = /^\/admin\/identities\/([^/]+)$/.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

function NotFound() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(NOT_FOUND_ROUTE, { replace: true });
  }, [navigate]);
  return null;
}

function Section({ pathname }: { pathname: string }) {
  const path = pathname.replace(/\/+$/, '');
  if (path === ADMIN_ROUTE) return <Text>{t.landing}</Text>;
  if (path === ADMIN_INVITATIONS_ROUTE) return <InvitationsScreen />;
  if (path === ADMIN_APPS_ROUTE) return <AppsScreen />;
  if (path === ADMIN_SMS_GATEWAY_ROUTE) return <SmsGatewayScreen />;
  if (path === ADMIN_IDENTITIES_ROUTE) return <IdentitySearchScreen />;
  if (path === ADMIN_ROLES_ROUTE) return <IdentityRolesScreen />;
  const identityId = identityIdOf(path);
  // Keyed by id: another identity (an actor link in its history) starts its own machine.
  if (identityId !== null) return <IdentityScreen key={identityId} id={identityId} />;
  return <NotFound />;
}

export default function AdminPage() {
  const { pathname } = useLocation();
  return (
    <Container size="xl" px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading}</Title>
        <Group component="nav" aria-label={t.navLabel} gap="xs">
          {SECTIONS.map((section) => (
            <Button
              key={section.path}
              component={Link}
              to={section.path}
              variant={pathname.startsWith(section.path) ? 'filled' : 'subtle'}
              aria-current={pathname.startsWith(section.path) ? 'page' : undefined}
            >
              {section.label}
            </Button>
          ))}
        </Group>
        <Suspense fallback={null}>
          <Section pathname={pathname} />
        </Suspense>
      </Stack>
    </Container>
  );
}
