// Mounting the real route tree in memory for shell and page tests: a session store with a scripted
// first load, fake services, and the sign-in page replaced (it belongs to the sign-in flow's suite).
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { App } from '../../src/client/app/App';
import type { HandoffHandler } from '../../src/client/app/handoff-context';
import { registerNavigator } from '../../src/client/app/navigation';
import { createRoutes } from '../../src/client/app/router';
import type { PortalServices } from '../../src/client/app/services';
import { SessionStore } from '../../src/client/app/session/session-store';
import { createAppVersionActor } from '../../src/client/app/version/app-version';
import type { Context, CurrentUser, HandoffTarget } from '../../src/contract/entities';
import { contexts } from './fixtures';

export type FakeServices = { [K in keyof PortalServices]: ReturnType<typeof vi.fn<PortalServices[K]>> };

export function fakeServices(apps: HandoffTarget[] = []): FakeServices {
  return {
    loadSession: vi.fn<PortalServices['loadSession']>(),
    getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => apps),
    logout: vi.fn<PortalServices['logout']>(async () => {}),
    getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => '100001'),
    getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => 'support@example.com'),
  };
}

export interface RenderAppOptions {
  path?: string;
  /** Entries before `path` in the memory history. */
  history?: string[];
  user?: CurrentUser;
  context?: Context | null;
  services?: FakeServices;
  handoff?: HandoffHandler;
  reloadPage?: () => void;
}

export function renderApp({
  path = '/',
  history = [],
  user,
  context = contexts.portal,
  services = fakeServices(),
  handoff,
  reloadPage = vi.fn(),
}: RenderAppOptions = {}) {
  const session = new SessionStore(async () => {
    if (!user) throw new Error('renderApp: no user given');
    return { currentUser: user, context };
  });
  const router = createMemoryRouter(createRoutes(session), {
    initialEntries: [...history, path],
    initialIndex: history.length,
  });
  registerNavigator(
    (to, options) => router.navigate(to, options),
    () => `${router.state.location.pathname}${router.state.location.search}`,
  );
  const appVersion = createAppVersionActor(reloadPage);
  appVersion.start();
  const view = render(
    <App
      router={router}
      session={session}
      services={services}
      appVersion={appVersion}
      handoff={handoff}
      env="test"
    />,
  );
  return { ...view, router, session, services, appVersion, reloadPage };
}
