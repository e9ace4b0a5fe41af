// WCAG 4.1.3: when the header's application list fails to load, the application grid's menu says
// so (it opened empty, with no message), in the status region its 'Loading' item already had, so
// that the failure is announced; opening the menu again tries again.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { navTexts } from '../../src/client/app/shell/nav.texts';
import { shellTexts } from '../../src/client/app/texts';
import type { HandoffTarget } from '../../src/contract/entities';
import { targets, users } from './fixtures';
import { fakeServices, renderApp } from './render';

describe('the application grid', () => {
  it('says the applications could not be loaded, in the status region of its loading item', async () => {
    const user = userEvent.setup();
    const services = fakeServices();
    let fail!: (error: Error) => void;
    services.getAccessibleApps.mockImplementationOnce(
      () => new Promise<HandoffTarget[]>((_, reject) => (fail = reject)),
    );
    renderApp({ user: users.customer, path: '/profile', services });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    const menu = await screen.findByRole('menu');
    const status = within(menu).getByRole('status');
    expect(status).toHaveTextContent(shellTexts.loading);

    fail(new Error('The server could not be reached.'));
    await waitFor(() => expect(status).toHaveTextContent(navTexts.applicationsLoadFailed));
    expect(within(menu).getByRole('status')).toBe(status);
    const item = within(menu).getByRole('menuitem', { name: navTexts.applicationsLoadFailed });
    expect(item).toBeDisabled();

    // Opened again, the list is asked for again.
    services.getAccessibleApps.mockResolvedValueOnce([targets.payroll]);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: navTexts.applicationGrid }));
    expect(await screen.findByRole('menuitem', { name: 'Payroll' })).toBeInTheDocument();
    expect(services.getAccessibleApps).toHaveBeenCalledTimes(2);
  });
});
