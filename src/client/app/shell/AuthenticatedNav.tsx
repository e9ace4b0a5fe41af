// The authenticated header (section 2.2): Access Requests link for VIEW_ACCESS_REQUESTS holders,
// the application-grid dropdown (a click hands off through the handoff flow) and the person menu
// (Profile, User guide, Sign out).
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import { ActionIcon, Anchor, Button, Group, Loader, Menu, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { CurrentUser, HandoffTarget } from '../../../contract/entities';
import { useHandoffFlow } from '../../flows/handoff/use-handoff-flow';
import {
  HANDOFF_APP_PARAM,
  HANDOFF_FACILITY_PARAM,
  handoffClickHandlers,
  targetFromSearch,
} from '../handoff';
import { holdsViewAccessRequests, isApplicationsPath, landingRoute } from '../guards/guards';
import { ACCESS_REQUESTS_ROUTE, ADMIN_ROUTE, PROFILE_ROUTE, USER_GUIDE_ROUTE } from '../routes';
import { useServices } from '../services';
import { useSignOut } from '../session/use-sign-out';
import { shellTexts } from '../texts';
import { facilityLabel } from '../../pages/applications.texts';
import { AppGridIcon, ChevronDownIcon } from './icons';
import { IdentitySearchBar } from '../../flows/admin/IdentitySearchBar';
import { navTexts } from './nav.texts';

/**
 * Dropdowns stay inside the header landmark, and without Mantine's focus placeholder (a focusable
 * role=presentation element that is not a menu item).
 */
const menuProps = {
  position: 'bottom-end',
  withinPortal: false,
  withInitialFocusPlaceholder: false,
} as const;

type AppsState = { status: 'idle' | 'loading' | 'failed' } | { status: 'loaded'; targets: HandoffTarget[] };

function AppGridMenu({ user }: { user: CurrentUser }) {
  const services = useServices();
  const { handoff: onHandoff, busyTarget, postForm } = useHandoffFlow({ variant: 'hidden' });
  const [apps, setApps] = useState<AppsState>({ status: 'idle' });
  const [opened, setOpened] = useState(false);
  const dropdown = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const navigate = useNavigate();
  // A link opened in a new window lands on the user's landing page with its target in the address.
  const newWindowPage = landingRoute(user);
  const addressHandoff =
    !isApplicationsPath(location.pathname) && new URLSearchParams(location.search).has(HANDOFF_APP_PARAM);

  // The list arrives after the menu opened (it is loaded on the first open): the arrow keys move
  // between items only once one has the focus, so the first application takes it then, as a menu
  // opened with its items there would give it.
  useEffect(() => {
    if (!opened || apps.status !== 'loaded') return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.hasAttribute('data-menu-item')) return;
    dropdown.current?.querySelector<HTMLElement>('[data-menu-item]:not([data-disabled])')?.focus();
  }, [opened, apps.status]);

  const load = () => {
    if (apps.status === 'loading' || apps.status === 'loaded') return;
    setApps({ status: 'loading' });
    services.getAccessibleApps().then(
      (targets) => setApps({ status: 'loaded', targets }),
      () => setApps({ status: 'failed' }),
    );
  };

  // A handoff address on any page but the applications page (which hands off itself): hand off to
  // the target it names among the accessible ones, once, and leave the page's own address.
  useEffect(() => {
    if (!addressHandoff) return;
    if (apps.status === 'idle') load();
    if (apps.status !== 'loaded') return;
    const search = new URLSearchParams(location.search);
    const target = targetFromSearch(search, apps.targets);
    // The page's own parameters stay; only the handoff's go.
    const rest = new URLSearchParams(search);
    rest.delete(HANDOFF_APP_PARAM);
    rest.delete(HANDOFF_FACILITY_PARAM);
    const left = rest.toString();
    navigate(
      { pathname: location.pathname, search: left ? `?${left}` : '', hash: location.hash },
      { replace: true },
    );
    if (target) onHandoff(target);
    // load is a new function each render; the effect runs again when what it reads changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [addressHandoff, apps, location, navigate, onHandoff]);

  return (
    <>
      <Menu
        {...menuProps}
        width={300}
        onOpen={() => {
          setOpened(true);
          load();
        }}
        onClose={() => setOpened(false)}
      >
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={navTexts.applicationGrid}
            loading={busyTarget !== null}
            loaderProps={{ 'aria-hidden': true }}
          >
            <AppGridIcon />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown ref={dropdown}>
          <Menu.Label>{navTexts.applicationGrid}</Menu.Label>
          {apps.status === 'loaded' ? (
            apps.targets.length === 0 ? (
              <Menu.Item disabled>{navTexts.noOtherApplications}</Menu.Item>
            ) : (
              apps.targets.map((target) => {
                const facility = facilityLabel(target);
                return (
                  <Menu.Item
                    key={`${target.appCode}:${target.facilityCode ?? ''}`}
                    component="a"
                    {...handoffClickHandlers(target, onHandoff, newWindowPage)}
                  >
                    <Text size="sm" fw={600}>
                      {target.appName}
                    </Text>
                    {facility && <Text size="xs">{facility}</Text>}
                  </Menu.Item>
                );
              })
            )
          ) : (
            // Loading, then the failure if the list did not come (WCAG 4.1.3): one item whose text
            // is a status region from the start, so that the failure is announced when it comes.
            <Menu.Item disabled leftSection={apps.status === 'failed' ? undefined : <Loader size="xs" />}>
              <span role="status">
                {apps.status === 'failed' ? navTexts.applicationsLoadFailed : shellTexts.loading}
              </span>
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {postForm}
    </>
  );
}

function PersonMenu({ user }: { user: CurrentUser }) {
  const signOut = useSignOut();
  const name = user.name ?? user.username ?? navTexts.profile;
  return (
    <Menu {...menuProps} width={200}>
      <Menu.Target>
        <Button variant="subtle" rightSection={<ChevronDownIcon />} aria-label={navTexts.accountMenu(name)}>
          {name}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={PROFILE_ROUTE}>
          {navTexts.profile}
        </Menu.Item>
        <Menu.Item component={Link} to={USER_GUIDE_ROUTE}>
          {shellTexts.userGuide}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item onClick={() => void signOut()}>{navTexts.signOut}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export default function AuthenticatedNav({ user }: { user: CurrentUser }) {
  return (
    <Group component="nav" aria-label={shellTexts.mainNavigation} gap="sm">
      {holdsViewAccessRequests(user) && (
        <Anchor component={Link} to={ACCESS_REQUESTS_ROUTE} fw={500} underline="hover">
          {navTexts.accessRequests}
        </Anchor>
      )}
      {user.isAdmin && (
        <Anchor component={Link} to={`${ADMIN_ROUTE}/invitations`} fw={500} underline="hover">
          {navTexts.administration}
        </Anchor>
      )}
      {/* Section 2.2: the admin's search bar. */}
      {user.isAdmin && <IdentitySearchBar />}
      <AppGridMenu user={user} />
      <PersonMenu user={user} />
    </Group>
  );
}
