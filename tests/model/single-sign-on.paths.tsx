// Generated single-sign-on paths executed against the mounted /single-sign-on page: the user
// answers the question or picks a facility, the scripted fake API answers as each step of the path
// says, and each state is checked by what the user sees (and where the page went on Cancel).
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPLICATIONS_ROUTE } from '../../machines/routes';
import { singleSignOnMachine } from '../../machines/single-sign-on/single-sign-on.machine';
import { shellTexts } from '../../src/client/app/texts';
import { singleSignOnTexts as t } from '../../src/client/flows/single-sign-on/single-sign-on.texts';
import type { Context, HandoffTarget } from '../../src/contract/entities';
import { users } from '../machines/fixtures/sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { mountSingleSignOn, restorePage } from './harness/handoff-pages';
import {
  singleSignOnPaths,
  type SingleSignOnModelEvent,
  type SingleSignOnModelEventType,
  type SingleSignOnSnapshot,
} from './single-sign-on.model';

type Mounted = ReturnType<typeof mountSingleSignOn>;

const PATH_TIMEOUT_MS = 30_000;

export const loansContext: Context = {
  appCode: 'LOANS',
  realmCode: 'CUSTOMERS',
  showInHeader: true,
  type: 'SAML',
};

const APP = 'Loans';

/** A facility's button in the list: named by the facility's name (then its alias or code). */
export const facilityButton = (target: HandoffTarget) =>
  screen.getByRole('button', { name: new RegExp(`^${target.facilityName ?? ''}`) });

async function expectSignedInAs() {
  expect(
    await screen.findByText(t.signedInAs(users.customer.name, users.customer.username)),
  ).toBeInTheDocument();
  expect(screen.getByRole('button', { name: t.signOut })).toBeInTheDocument();
}

function expectRefusal(s: SingleSignOnSnapshot) {
  const alert = screen.queryByRole('alert');
  if (s.context.refusal) {
    // Section 8: the handoff error inline, word for word.
    expect(alert).toHaveTextContent(t.refused(s.context.refusal.appName, s.context.refusal.message));
  } else {
    expect(alert).toBeNull();
  }
}

async function expectConfirm(s: SingleSignOnSnapshot, { busy }: { busy: boolean }) {
  expect(await screen.findByRole('heading', { level: 2, name: t.confirm(APP) })).toBeInTheDocument();
  const yes = screen.getByRole('button', { name: t.yes });
  await waitFor(() => {
    if (busy) expect(yes).toHaveAttribute('data-loading', 'true');
    else expect(yes).not.toHaveAttribute('data-loading');
  });
  if (busy) expect(screen.getByRole('button', { name: t.cancel })).toBeDisabled();
  else expect(screen.getByRole('button', { name: t.cancel })).toBeEnabled();
  expectRefusal(s);
}

async function expectChoose(s: SingleSignOnSnapshot, { busy }: { busy: boolean }) {
  const question = await screen.findByRole('heading', { level: 2, name: t.choose(APP) });
  expect(screen.getByRole('list', { name: question.textContent ?? '' })).toBeInTheDocument();
  for (const target of s.context.targets) {
    const button = facilityButton(target);
    expect(button).toHaveTextContent(target.facilityName ?? '');
    const isBusy = busy && s.context.target?.facilityCode === target.facilityCode;
    await waitFor(() => {
      if (isBusy) expect(button).toHaveAttribute('data-loading', 'true');
      else expect(button).not.toHaveAttribute('data-loading');
    });
  }
  expectRefusal(s);
}

function stateChecks(m: Mounted, spies: Spies) {
  let postings = 0;
  return {
    loadingTargets: async () => {
      await expectSignedInAs();
      expect(screen.getByLabelText(shellTexts.loading)).toBeInTheDocument();
      const call = await m.api.waiting('getHandoffTargets');
      expect(call.input).toEqual({ appCode: 'LOANS' });
    },
    loadingApp: async () => {
      await expectSignedInAs();
      const call = await m.api.waiting('getApp');
      expect(call.input).toEqual({ appCode: 'LOANS' });
    },
    confirming: async (s: SingleSignOnSnapshot) => {
      await expectSignedInAs();
      await expectConfirm(s, { busy: false });
    },
    choosing: async (s: SingleSignOnSnapshot) => {
      await expectSignedInAs();
      await expectChoose(s, { busy: false });
    },
    noAccess: async () => {
      await expectSignedInAs();
      expect(await screen.findByText(t.noAccess(APP))).toBeInTheDocument();
      expect(screen.getByRole('button', { name: t.continueToPortal })).toBeInTheDocument();
    },
    handingOff: async (s: SingleSignOnSnapshot) => {
      if (s.context.targets.length > 1) await expectChoose(s, { busy: true });
      else await expectConfirm(s, { busy: true });
      const call = await m.api.waiting('ssoSamlHandoff');
      expect(call.input).toEqual({ appCode: 'LOANS', facilityCode: s.context.target?.facilityCode });
    },
    posting: async (s: SingleSignOnSnapshot) => {
      postings += 1;
      const saml = s.context.saml;
      expect(await screen.findByText(t.handingOff(APP))).toHaveAttribute('role', 'status');
      const form = screen.getByTestId('saml-post-form');
      expect(form).toHaveAttribute('method', 'post');
      expect(form).toHaveAttribute('action', saml?.assertionConsumerServiceUrl);
      expect((form.querySelector('input[name=SAMLResponse]') as HTMLInputElement).value).toBe(
        saml?.samlResponse,
      );
      expect((form.querySelector('input[name=RelayState]') as HTMLInputElement | null)?.value ?? null).toBe(
        saml?.relayState,
      );
      await waitFor(() => expect(spies.formSubmit).toHaveBeenCalledTimes(postings));
    },
    failed: async (s: SingleSignOnSnapshot) => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(t.loadFailed);
      expect(alert).toHaveTextContent(s.context.errorMessage ?? '');
      expect(screen.getByRole('button', { name: t.retry })).toBeInTheDocument();
    },
    cancelled: async () => {
      // The user stays signed in and lands on their page of the portal.
      expect(await screen.findByTestId('landed-path')).toHaveTextContent(APPLICATIONS_ROUTE);
      expect(m.store.getState().currentUser).toEqual(users.customer);
      expect(m.services.logout).not.toHaveBeenCalled();
    },
  };
}

/** The transient state (left at once by its eventless transitions) has no view of its own. */
export const SINGLE_SIGN_ON_TRANSIENT_STATES = ['offering'];

const SINGLE_SIGN_ON_EVENT_TYPES = Object.keys({
  'user.confirm': true,
  'user.choose': true,
  'user.cancel': true,
  'user.retry': true,
  'page.restored': true,
  'xstate.done.actor.getHandoffTargets': true,
  'xstate.error.actor.getHandoffTargets': true,
  'xstate.done.actor.getApp': true,
  'xstate.error.actor.getApp': true,
  'xstate.done.actor.ssoSamlHandoff': true,
  'xstate.error.actor.ssoSamlHandoff': true,
} satisfies Record<SingleSignOnModelEventType, true>) as SingleSignOnModelEventType[];

function eventExecutors(m: Mounted) {
  return async (event: SingleSignOnModelEvent, before: SingleSignOnSnapshot) => {
    switch (event.type) {
      case 'user.confirm':
        await m.user.click(screen.getByRole('button', { name: t.yes }));
        return;
      case 'user.choose': {
        const target = before.context.targets.find((x) => x.facilityCode === event.facilityCode);
        if (!target) throw new Error(`No target ${event.facilityCode}`);
        await m.user.click(facilityButton(target));
        return;
      }
      case 'user.cancel':
        await m.user.click(
          screen.getByRole('button', { name: before.matches('noAccess') ? t.continueToPortal : t.cancel }),
        );
        return;
      case 'user.retry':
        await m.user.click(screen.getByRole('button', { name: t.retry }));
        return;
      case 'page.restored':
        await restorePage();
        return;
      default:
        await act(() => m.api.answer(event));
    }
  };
}

interface Spies {
  formSubmit: ReturnType<typeof vi.fn>;
}

export function defineSingleSignOnPaths(coverage: MachineCoverage): void {
  const paths = singleSignOnPaths();

  describe(`single-sign-on: ${paths.length} generated paths against the /single-sign-on page`, () => {
    let spies: Spies;
    beforeEach(() => {
      const formSubmit = vi.fn();
      vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(formSubmit);
      spies = { formSubmit };
    });
    afterEach(() => vi.restoreAllMocks());

    it('has a check for every state the user can see', () => {
      const checked = Object.keys(stateChecks({} as Mounted, {} as Spies));
      expect(new Set([...checked, ...SINGLE_SIGN_ON_TRANSIENT_STATES])).toEqual(
        new Set(Object.keys(singleSignOnMachine.root.states)),
      );
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountSingleSignOn({ user: users.customer, context: loansContext }, coverage.inspect);
        const checks = stateChecks(m, spies);
        const perform = eventExecutors(m);
        const states = Object.fromEntries(
          Object.entries(checks).map(([key, check]) => [
            key,
            async (s: SingleSignOnSnapshot) => {
              if (s.status !== 'done') {
                await waitFor(() => {
                  expect(m.running<SingleSignOnSnapshot>()?.value).toEqual(s.value);
                  expect(m.running<SingleSignOnSnapshot>()?.context).toEqual(s.context);
                });
              }
              await check(s);
            },
          ]),
        );
        // Each event is performed on the state the path was in before it.
        const events = Object.fromEntries(
          SINGLE_SIGN_ON_EVENT_TYPES.map((type) => [
            type,
            async (step: { event: unknown }) => {
              const index = path.steps.findIndex((candidate) => candidate === step);
              const before = path.steps[index - 1]?.state as SingleSignOnSnapshot;
              await perform(step.event as SingleSignOnModelEvent, before);
            },
          ]),
        );
        await path.test({ states, events });
      },
      PATH_TIMEOUT_MS,
    );
  });
}
