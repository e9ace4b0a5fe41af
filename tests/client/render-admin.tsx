// Mounts one admin screen as a signed-in admin would see it, with the machines' implementations the
// test gives (the admin screens' client tests share it).
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders } from '../../src/client/app/App';
import type { PortalServices } from '../../src/client/app/services';
import { SessionStore } from '../../src/client/app/session';
import {
  FlowImplementationsProvider,
  type FlowImplementationsByMachine,
} from '../../src/client/flows/shared/flow-implementations';
import { users } from '../machines/fixtures/sign-in.fixtures';

const services = (): PortalServices => ({
  loadSession: vi.fn<PortalServices['loadSession']>(),
  getAccessibleApps: vi.fn<PortalServices['getAccessibleApps']>(async () => []),
  logout: vi.fn<PortalServices['logout']>(async () => {}),
  getSalaryNumber: vi.fn<PortalServices['getSalaryNumber']>(async () => null),
  getSupportEmail: vi.fn<PortalServices['getSupportEmail']>(async () => null),
});

export function renderAdmin(screenUnderTest: ReactNode, implementations: FlowImplementationsByMachine) {
  const admin = { ...users.auditor, isAdmin: true, roles: ['ADMIN'] };
  const store = new SessionStore(async () => ({ currentUser: admin, context: null }));
  return render(
    <AppProviders session={store} services={services()} env="test">
      <FlowImplementationsProvider value={implementations}>
        <MemoryRouter>{screenUnderTest}</MemoryRouter>
      </FlowImplementationsProvider>
    </AppProviders>,
  );
}
