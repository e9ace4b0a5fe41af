// WCAG 2.4.2 and 2.4.6: a page with sub-screens (the admin screens, a wizard's steps) marks the
// sub-screen's heading (data-step-heading); the document title names it before the page's h1, so
// that each screen is told apart ('Invitations - Administration - Identity Portal'), and after a
// route change the focus goes to that heading. A page without one keeps its h1's title.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setApiFetch } from '../../src/client/api';
import { shellTexts } from '../../src/client/app/texts';
import { adminTexts } from '../../src/client/flows/admin/admin.texts';
import { identityTexts } from '../../src/client/flows/admin/identities.texts';
import { users } from './fixtures';
import { renderApp } from './render';

afterEach(() => setApiFetch(null));

const title = (...headings: string[]) => shellTexts.documentTitle(headings.join(' - '));

describe('the admin screens', () => {
  it('are titled by their own heading, then the page', async () => {
    // The screens' own calls stay unanswered: their headings are drawn before them.
    setApiFetch(() => new Promise<Response>(() => {}));
    renderApp({ user: users.admin, path: '/admin/invitations' });
    await screen.findByRole('heading', { level: 2, name: adminTexts.invitations.heading }, { timeout: 5000 });
    await waitFor(() =>
      expect(document.title).toBe(title(adminTexts.invitations.heading, adminTexts.heading)),
    );
  });

  it('take the focus to their heading on a route change, and the title follows it', async () => {
    setApiFetch(() => new Promise<Response>(() => {}));
    const user = userEvent.setup();
    renderApp({ user: users.admin, path: '/admin' });
    const adminNav = await screen.findByRole('navigation', { name: adminTexts.navLabel }, { timeout: 5000 });
    // The landing, without a screen of its own, keeps the page's title.
    await waitFor(() => expect(document.title).toBe(title(adminTexts.heading)));

    await user.click(within(adminNav).getByRole('link', { name: adminTexts.nav.apps }));
    const apps = await screen.findByRole('heading', { level: 2, name: adminTexts.apps.heading });
    await waitFor(() => expect(apps).toHaveFocus());
    expect(document.title).toBe(title(adminTexts.apps.heading, adminTexts.heading));

    await user.click(within(adminNav).getByRole('link', { name: identityTexts.navRoles }));
    const roles = await screen.findByRole(
      'heading',
      { level: 2, name: identityTexts.roles.heading },
      { timeout: 5000 },
    );
    await waitFor(() => expect(roles).toHaveFocus());
    expect(document.title).toBe(title(identityTexts.roles.heading, adminTexts.heading));
  });
});

describe('a page without a sub-screen heading', () => {
  it("keeps its h1's title", async () => {
    renderApp({ user: users.anonymous, path: '/not-found' });
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    await waitFor(() => expect(document.title).toBe('Page not found - Identity Portal'));
  });
});
