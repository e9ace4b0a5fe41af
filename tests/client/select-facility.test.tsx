// The forced select-facility page in the whole portal against a fake fetch, through its real actors
// and the api layer: the handoff toast names the app by the name GET apps/{appCode} answers, and a
// failed lookup of that name (whatever its status) leaves the user on the step, the toast naming
// the app by its code (section 8's global handling is the step's own calls', not the lookup's).
import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiFetch } from '../../src/client/api';
import type { App } from '../../src/contract/entities';
import type { FakeAnswer } from './fixtures';
import { contexts, fakeFetch, json, users } from './fixtures';
import { renderApp } from './render';

vi.mock('../../src/client/flows/sign-in/SignInPage', () => ({
  default: () => <h1>Sign in page</h1>,
}));

const STEP = '/forced-actions/select-facility';
const REFUSAL = 'Your access to this facility has been suspended.';
const toastFor = (app: string) => `The following error occurred and you cannot handoff to ${app}. ${REFUSAL}`;

const loans: App = {
  code: 'LOANS',
  name: 'Loans',
  contextType: 'SAML',
  facilityHandoff: 'SELECTED_BEFORE_HANDOFF',
  accessRequestHandling: 'MANUAL',
  frameOrigin: null,
};

let appAnswer: FakeAnswer;
let requests: ReturnType<typeof fakeFetch>['requests'];

beforeEach(() => {
  appAnswer = json(loans);
  const fake = fakeFetch((request) => {
    const path = request.url.pathname;
    if (path.endsWith('/forced-actions/select-facility/facilities')) {
      return json([
        { code: 'F001', name: 'Harbour Branch', aliasOrCode: 'HB1', app: { code: 'LOANS' } },
        { code: 'F002', name: 'Hillside Branch', aliasOrCode: 'F002', app: { code: 'LOANS' } },
      ]);
    }
    if (path.endsWith('/apps/LOANS')) return appAnswer;
    if (path.endsWith('/forced-actions/select-facility/saml-handoff')) return json({ message: REFUSAL }, 422);
    return json({ message: 'not scripted' }, 500);
  });
  requests = fake.requests;
  setApiFetch(fake.fetch);
});
afterEach(() => {
  setApiFetch(null);
  notifications.clean();
  vi.restoreAllMocks();
});

/** Renders the step, clicks a facility (refused), and records every address the router went to. */
async function refusedHandoff() {
  const user = userEvent.setup();
  const view = renderApp({ user: users.pending, context: contexts.loans, path: STEP });
  const visited: string[] = [];
  view.router.subscribe((state) => visited.push(state.location.pathname));
  await user.click(await screen.findByRole('button', { name: /^Hillside Branch/ }));
  return { ...view, visited };
}

const calls = () => requests.map((r) => `${r.method} ${r.url.pathname}`);
const ONE_VISIT = [
  'GET /rest/ui/forced-actions/select-facility/facilities',
  'GET /rest/ui/apps/LOANS',
  'POST /rest/ui/forced-actions/select-facility/saml-handoff',
];

describe('select-facility: the app named in the handoff toast', () => {
  it("a refused handoff's toast names the app by the name GET apps/LOANS answers", async () => {
    await refusedHandoff();
    expect(await screen.findByText(toastFor('Loans'))).toBeInTheDocument();
    expect(calls()).toEqual(ONE_VISIT);
  });

  it.each([
    [401, { message: 'Session expired', url: '/' }],
    [403, { message: 'Forbidden' }],
    [404, { message: 'Not found' }],
    [500, { message: 'Internal error' }],
  ])('a failed lookup (%s) stays on the step; the toast names the app by its code', async (status, body) => {
    appAnswer = json(body, status);
    const { router, session, visited } = await refusedHandoff();
    expect(await screen.findByText(toastFor('LOANS'))).toBeInTheDocument();
    // A navigation to a lazily loaded page (e.g. /error) lands later: let any under way finish.
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    // Never sent anywhere (not even for a moment, and back by the forced-step guard): one visit.
    expect(visited.filter((path) => path !== STEP)).toEqual([]);
    expect(router.state.location.pathname).toBe(STEP);
    expect(calls()).toEqual(ONE_VISIT);
    expect(session.getState().currentUser?.type).toBe('AUTHENTICATION_PENDING');
  });

  it('a lookup answered with something not JSON stays on the step too', async () => {
    appAnswer = { text: 'not json', status: 200 };
    const { router, visited } = await refusedHandoff();
    expect(await screen.findByText(toastFor('LOANS'))).toBeInTheDocument();
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(visited.filter((path) => path !== STEP)).toEqual([]);
    expect(router.state.location.pathname).toBe(STEP);
    expect(calls()).toEqual(ONE_VISIT);
  });
});
