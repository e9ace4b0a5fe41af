// The pages of sections 2.1 and 2.3 with their exact texts, the applications page's cards and
// clicks, and the read-only profile.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeErrorDetails } from '../../src/client/app/error-details';
import { applicationsTexts } from '../../src/client/pages/applications.texts';
import { privacyStatement, websiteTerms } from '../../src/client/pages/legal.texts';
import { profileTexts } from '../../src/client/pages/profile.texts';
import {
  cookiesDisabledTexts,
  errorTexts,
  notFoundTexts,
  permissionDeniedTexts,
  sessionExpiredTexts,
} from '../../src/client/pages/status.texts';
import { targets, users } from './fixtures';
import { fakeServices, renderApp } from './render';

vi.mock('../../src/client/flows/sign-in/SignInPage', () => ({
  default: () => <h1>Sign in page</h1>,
}));

afterEach(() => {
  vi.restoreAllMocks();
});

const h1 = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

describe('status pages: the spec texts word for word', () => {
  it('/not-found', async () => {
    renderApp({ user: users.anonymous, path: '/not-found' });
    await h1(notFoundTexts.heading);
    expect(screen.getByText('The page you are looking for does not exist.')).toBeInTheDocument();
  });

  it('every unknown path redirects to /not-found', async () => {
    const { router } = renderApp({ user: users.anonymous, path: '/no/such/page?x=1' });
    await h1(notFoundTexts.heading);
    expect(router.state.location.pathname).toBe('/not-found');
  });

  it('/permission-denied', async () => {
    renderApp({ user: users.anonymous, path: '/permission-denied' });
    await h1(permissionDeniedTexts.heading);
    expect(
      screen.getByText('You do not have permission to access this page or perform this action.'),
    ).toBeInTheDocument();
  });

  it('/session-expired-error', async () => {
    renderApp({ user: users.anonymous, path: '/session-expired-error' });
    await h1(sessionExpiredTexts.heading);
    expect(
      screen.getByText('Your session has expired. Please refresh this page to try again.'),
    ).toBeInTheDocument();
  });

  it('/cookies-disabled', async () => {
    renderApp({ user: users.anonymous, path: '/cookies-disabled' });
    await h1(cookiesDisabledTexts.heading);
    expect(screen.getByText(cookiesDisabledTexts.body)).toBeInTheDocument();
    expect(cookiesDisabledTexts.body).toMatch(/^Cookies must be enabled/);
  });
});

describe('/error', () => {
  const details = {
    message: 'Database unavailable',
    stackTraceHash: 'a1b2c3d4',
    timestamp: '2025-11-21T08:00:00Z',
  };

  it('shows the text, message, trace id, timestamp and the support email', async () => {
    storeErrorDetails(details);
    const services = fakeServices();
    renderApp({ user: users.anonymous, path: '/error', services });
    await h1(errorTexts.heading);
    expect(
      screen.getByText('The service we tried to load is temporarily unavailable...'),
    ).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByText('a1b2c3d4')).toBeInTheDocument();
    expect(screen.getByText(errorTexts.traceId)).toBeInTheDocument();
    expect(document.querySelector('time')).toHaveAttribute('datetime', '2025-11-21T08:00:00Z');
    expect(await screen.findByRole('link', { name: 'support@example.com' })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    );
  });

  it('leaves out the support email inside a frame', async () => {
    vi.spyOn(window, 'top', 'get').mockReturnValue({} as Window);
    storeErrorDetails(details);
    const services = fakeServices();
    renderApp({ user: users.anonymous, path: '/error', services });
    await h1(errorTexts.heading);
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.queryByText(/support@example.com/)).toBeNull();
    expect(services.getSupportEmail).not.toHaveBeenCalled();
  });

  it('without stored details still says the service is unavailable', async () => {
    renderApp({ user: users.anonymous, path: '/error' });
    await h1(errorTexts.heading);
    expect(screen.getByText(errorTexts.unavailable)).toBeInTheDocument();
    expect(screen.queryByText(errorTexts.traceId)).toBeNull();
  });
});

describe('applications page (section 2.3)', () => {
  const path = '/profile/my-applications';

  it('has the heading Applications and a card per application with app and facility name', async () => {
    const services = fakeServices([targets.loansF001, targets.loansF002, targets.payroll]);
    renderApp({ user: users.customer, path, services });
    await h1('Applications');
    const cards = await screen.findAllByRole('link', { name: /Loans|Payroll/ });
    expect(cards.map((card) => card.textContent)).toEqual([
      'LoansHarbour Branch (HB1)',
      'LoansBay Branch (F002)',
      'Payroll',
    ]);
    expect(within(cards[0]!).getByRole('heading', { level: 2, name: 'Loans' })).toBeInTheDocument();
  });

  it("with none: 'You do not have access to any other applications.'", async () => {
    renderApp({ user: users.customer, path, services: fakeServices([]) });
    expect(await screen.findByText('You do not have access to any other applications.')).toBeInTheDocument();
    expect(applicationsTexts.none).toBe('You do not have access to any other applications.');
  });

  it('a left click hands off through onHandoff', async () => {
    const user = userEvent.setup();
    const handoff = vi.fn();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp({ user: users.customer, path, services: fakeServices([targets.loansF001]), handoff });
    await user.click(await screen.findByRole('link', { name: /Loans/ }));
    expect(handoff).toHaveBeenCalledWith(targets.loansF001);
    expect(open).not.toHaveBeenCalled();
  });

  it('a ctrl, meta or middle click opens a new window instead', async () => {
    const handoff = vi.fn();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp({ user: users.customer, path, services: fakeServices([targets.loansF001]), handoff });
    const card = await screen.findByRole('link', { name: /Loans/ });
    const href = '/profile/my-applications?handoff=LOANS&facility=F001';
    expect(card).toHaveAttribute('href', href);
    fireEvent.click(card, { ctrlKey: true });
    fireEvent.click(card, { metaKey: true });
    fireEvent(card, new MouseEvent('auxclick', { bubbles: true, cancelable: true, button: 1 }));
    expect(open).toHaveBeenCalledTimes(3);
    expect(open).toHaveBeenCalledWith(href, '_blank', 'noopener');
    expect(handoff).not.toHaveBeenCalled();
  });

  it('the page opened in a new window hands off to the target its address names, once', async () => {
    const handoff = vi.fn();
    const { router } = renderApp({
      user: users.customer,
      path: '/profile/my-applications?handoff=LOANS&facility=F002',
      services: fakeServices([targets.loansF001, targets.loansF002]),
      handoff,
    });
    await waitFor(() => expect(handoff).toHaveBeenCalledWith(targets.loansF002));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(handoff).toHaveBeenCalledTimes(1);
  });
});

describe('profile page (read only)', () => {
  it('shows the personal details with a masked password', async () => {
    const services = fakeServices();
    renderApp({ user: users.customer, path: '/profile', services });
    await h1(profileTexts.heading);
    const details = screen.getByRole('region', { name: profileTexts.personalDetails });
    const value = (label: string) => within(details).getByText(label).nextElementSibling?.textContent;
    expect(value('Username')).toBe('C10001');
    expect(value('Name')).toBe('Casey Customer');
    expect(value('Email')).toBe('c10001@example.com');
    expect(value('Mobile')).toBe('+61 400 000 001');
    expect(value('Phone')).toBe(profileTexts.notProvided);
    expect(value('Date of birth')).toBe('17 May 1980');
    expect(value('Password')).toContain(profileTexts.maskedPassword);
    expect(within(details).queryByText(profileTexts.salaryNumber)).toBeNull();
    expect(services.getSalaryNumber).not.toHaveBeenCalled();
  });

  it('shows the salary number for staff only', async () => {
    renderApp({ user: users.staff, path: '/profile' });
    await h1(profileTexts.heading);
    const label = screen.getByText(profileTexts.salaryNumber);
    await waitFor(() => expect(label.nextElementSibling?.textContent).toBe('100001'));
  });
});

describe('legal pages', () => {
  it.each([
    ['/privacy-statement', privacyStatement],
    ['/website-terms', websiteTerms],
  ])('%s has its heading and sections', async (path, document) => {
    renderApp({ user: users.anonymous, path });
    await h1(document.heading);
    for (const section of document.sections) {
      expect(screen.getByRole('heading', { level: 2, name: section.heading })).toBeInTheDocument();
    }
  });
});
