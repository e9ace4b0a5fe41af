// The whole portal, handoff included, against a fake fetch: the applications page and the header's
// application grid hand off through the real handoff machine, actors and api layer (no handoff
// override), post the response through the hidden form, and show a refusal as section 8's toast.
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiFetch } from '../../src/client/api';
import { shellTexts } from '../../src/client/app/texts';
import type { FakeAnswer } from './fixtures';
import { fakeFetch, json, targets, users } from './fixtures';
import { fakeServices, renderApp } from './render';
import { navTexts } from '../../src/client/app/shell/nav.texts';

vi.mock('../../src/client/flows/sign-in/SignInPage', () => ({
  default: () => <h1>Sign in page</h1>,
}));

const samlOf = (appCode: string) => ({
  assertionConsumerServiceUrl: `https://sp.example.com/${appCode.toLowerCase()}/acs`,
  samlResponse: `response-for-${appCode}`,
  relayState: null,
});

let answer: (body: { appCode: string; facilityCode: string | null }) => FakeAnswer;
let requests: ReturnType<typeof fakeFetch>['requests'];
let submit: ReturnType<typeof vi.fn<() => void>>;

beforeEach(() => {
  answer = (body) =>
    json({
      ...(body.appCode === 'PAYROLL' ? targets.payroll : targets.loansF002),
      saml: samlOf(body.appCode),
    });
  const fake = fakeFetch((request) =>
    answer(request.json() as { appCode: string; facilityCode: string | null }),
  );
  requests = fake.requests;
  setApiFetch(fake.fetch);
  submit = vi.fn<() => void>();
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(submit);
});
afterEach(() => {
  setApiFetch(null);
  notifications.clean();
  vi.restoreAllMocks();
});

const postedForm = async () => {
  await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
  return screen.getByTestId('saml-post-form');
};

describe('handoff in the portal', () => {
  it('a card on the applications page hands off and posts the response to the consumer URL', async () => {
    const user = userEvent.setup();
    renderApp({
      user: users.customer,
      path: '/profile/my-applications',
      services: fakeServices([targets.loansF001, targets.loansF002, targets.payroll]),
    });
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('link', { name: /Bay Branch/ }));
    const form = await postedForm();
    expect(requests.map((r) => [r.method, r.url.pathname, r.json()])).toEqual([
      ['POST', '/rest/ui/current-user/saml-handoff', { appCode: 'LOANS', facilityCode: 'F002' }],
    ]);
    expect(form).toHaveAttribute('action', 'https://sp.example.com/loans/acs');
    expect(within(main).getByRole('status')).toHaveTextContent('Handing off to Loans');
  });

  it('the header grid hands off the same way', async () => {
    const user = userEvent.setup();
    // On a page that loads nothing of its own over the api (the privacy statement).
    renderApp({
      user: users.customer,
      path: '/privacy-statement',
      services: fakeServices([targets.payroll]),
    });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    await user.click(await screen.findByRole('menuitem', { name: 'Payroll' }));
    const form = await postedForm();
    expect(requests.map((r) => [r.method, r.url.pathname, r.json()])).toEqual([
      ['POST', '/rest/ui/current-user/saml-handoff', { appCode: 'PAYROLL', facilityCode: null }],
    ]);
    expect(form).toHaveAttribute('action', 'https://sp.example.com/payroll/acs');
    expect(form.querySelector('input[name=RelayState]')).toBeNull();
    // The page itself stays as it was: the header only announces the handoff.
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy statement' })).toBeInTheDocument();
  });

  it("a VIEW_ACCESS_REQUESTS holder's grid opens new windows at the access-requests page, not the applications page they are denied", async () => {
    const user = userEvent.setup();
    renderApp({ user: users.auditor, path: '/privacy-statement', services: fakeServices([targets.payroll]) });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    expect(await screen.findByRole('menuitem', { name: 'Payroll' })).toHaveAttribute(
      'href',
      '/access-requests?handoff=PAYROLL',
    );
  });

  it('a handoff address on a page other than the applications page hands off through the header, once', async () => {
    const { router } = renderApp({
      user: users.auditor,
      path: '/privacy-statement?handoff=LOANS&facility=F002',
      services: fakeServices([targets.loansF001, targets.loansF002, targets.payroll]),
    });
    const form = await postedForm();
    expect(requests.map((r) => [r.method, r.url.pathname, r.json()])).toEqual([
      ['POST', '/rest/ui/current-user/saml-handoff', { appCode: 'LOANS', facilityCode: 'F002' }],
    ]);
    expect(form).toHaveAttribute('action', 'https://sp.example.com/loans/acs');
    expect(router.state.location).toMatchObject({ pathname: '/privacy-statement', search: '' });
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy statement' })).toBeInTheDocument();
  });

  it('a handoff address naming no accessible target hands off to nothing', async () => {
    const { router } = renderApp({
      user: users.auditor,
      path: '/privacy-statement?section=2&handoff=TREASURY',
      services: fakeServices([targets.payroll]),
    });
    // The handoff's parameters go; the page's own stay.
    await waitFor(() => expect(router.state.location.search).toBe('?section=2'));
    expect(requests).toEqual([]);
    expect(submit).not.toHaveBeenCalled();
  });

  it('a refusal from the header grid is the toast of section 8, for 8 s', async () => {
    answer = () => json({ message: 'Payroll is closed for maintenance.' }, 422);
    const show = vi.spyOn(notifications, 'show');
    const user = userEvent.setup();
    // On a page that loads nothing of its own over the api (the privacy statement).
    renderApp({
      user: users.customer,
      path: '/privacy-statement',
      services: fakeServices([targets.payroll]),
    });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    await user.click(await screen.findByRole('menuitem', { name: 'Payroll' }));
    expect(
      await screen.findByText(
        'The following error occurred and you cannot handoff to Payroll. Payroll is closed for maintenance.',
      ),
    ).toBeInTheDocument();
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ autoClose: 8_000 }));
    expect(submit).not.toHaveBeenCalled();
  });

  it('the header grid opened from the keyboard gives the focus to the first application once loaded', async () => {
    const user = userEvent.setup();
    let answerApps: (apps: (typeof targets.payroll)[]) => void = () => {};
    const services = fakeServices([targets.payroll]);
    services.getAccessibleApps = vi.fn(
      () => new Promise<(typeof targets.payroll)[]>((resolve) => (answerApps = resolve)),
    );
    renderApp({ user: users.customer, path: '/privacy-statement', services });
    const grid = await screen.findByRole('button', { name: navTexts.applicationGrid });
    grid.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: shellTexts.loading })).toBeDisabled();
    answerApps([targets.payroll]);
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Payroll' })).toHaveFocus());
  });

  it("the header grid says 'You do not have access to any other applications' when there are none", async () => {
    const user = userEvent.setup();
    renderApp({ user: users.customer, path: '/profile', services: fakeServices([]) });
    await user.click(await screen.findByRole('button', { name: navTexts.applicationGrid }));
    expect(
      await screen.findByRole('menuitem', { name: 'You do not have access to any other applications' }),
    ).toBeDisabled();
  });
});
