// Generated select-facility paths executed against the mounted /forced-actions/select-facility page:
// the user clicks a facility, the scripted fake API answers as each step of the path says, and each
// state is checked by what the user sees.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectFacilityMachine } from '../../machines/forced/select-facility/select-facility.machine';
import { shellTexts } from '../../src/client/app/texts';
import { selectFacilityTexts as t } from '../../src/client/flows/forced/select-facility/select-facility.texts';
import type { Facility } from '../../src/contract/entities';
import { users } from '../machines/fixtures/sign-in.fixtures';
import type { MachineCoverage } from './harness/coverage';
import { mountSelectFacility, restorePage } from './harness/handoff-pages';
import {
  APP_NAME,
  selectFacilityPaths,
  type SelectFacilityModelEvent,
  type SelectFacilityModelEventType,
  type SelectFacilitySnapshot,
} from './select-facility.model';
import { loansContext } from './single-sign-on.paths';

type Mounted = ReturnType<typeof mountSelectFacility>;

const PATH_TIMEOUT_MS = 30_000;

/** A facility's button: named by its name, then its alias or code. */
export const facilityButtonOf = (facility: Facility) =>
  screen.getByRole('button', { name: new RegExp(`^${facility.name}`) });

/** What the path has done so far that the page's words depend on. */
interface PathSoFar {
  /** The app lookup (GET apps/{appCode}) failed: the toast can name the app by its code only. */
  appLookupFailed: boolean;
}

async function expectList(s: SelectFacilitySnapshot, { busy }: { busy: boolean }, so: PathSoFar) {
  expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
  expect(screen.getByRole('list', { name: t.question })).toBeInTheDocument();
  for (const facility of s.context.facilities) {
    const button = facilityButtonOf(facility);
    // Section 2.6: name and alias-or-code.
    expect(button).toHaveTextContent(facility.name);
    expect(button).toHaveTextContent(facility.aliasOrCode);
    const isBusy = busy && s.context.facility?.code === facility.code;
    await waitFor(() => {
      if (isBusy) expect(button).toHaveAttribute('data-loading', 'true');
      else expect(button).not.toHaveAttribute('data-loading');
    });
  }
  // Section 8: a refusal is the 8 s toast (as on the applications page), not an alert on the page.
  expect(inlineAlerts()).toEqual([]);
  if (s.context.refusal) {
    // Section 8 names the app by its name, as everywhere else; by its code (all a facility carries)
    // only when the lookup failed.
    const app = so.appLookupFailed ? (s.context.facility?.app.code ?? '') : APP_NAME;
    const text = t.refused(app, s.context.refusal.message);
    expect(isToast(await screen.findByText(text))).toBe(true);
  }
}

/** Whether an element is inside one of the shell's toasts (Mantine notifications). */
export const isToast = (element: HTMLElement): boolean =>
  element.closest('.mantine-Notifications-root') !== null;

/** The alerts on the page itself, not in a toast. */
export const inlineAlerts = (): HTMLElement[] => screen.queryAllByRole('alert').filter((a) => !isToast(a));

function stateChecks(m: Mounted, spies: Spies, so: PathSoFar) {
  let postings = 0;
  return {
    loading: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
      expect(screen.getByLabelText(shellTexts.loading)).toBeInTheDocument();
      await m.api.waiting('getFacilities');
    },
    loadingApp: async (s: SelectFacilitySnapshot) => {
      // The list waits for the name.
      expect(await screen.findByRole('heading', { level: 1, name: t.heading })).toBeInTheDocument();
      expect(screen.getByLabelText(shellTexts.loading)).toBeInTheDocument();
      expect(screen.queryByRole('list', { name: t.question })).not.toBeInTheDocument();
      const call = await m.api.waiting('getApp');
      expect(call.input).toEqual({ appCode: s.context.facilities[0]?.app.code });
    },
    choosing: (s: SelectFacilitySnapshot) => expectList(s, { busy: false }, so),
    handingOff: async (s: SelectFacilitySnapshot) => {
      await expectList(s, { busy: true }, so);
      expect(screen.getByRole('button', { name: t.cancel })).toBeDisabled();
      const call = await m.api.waiting('selectFacilityHandoff');
      expect(call.input).toEqual({
        appCode: s.context.facility?.app.code,
        facilityCode: s.context.facility?.code,
      });
    },
    noFacilities: async () => {
      expect(await screen.findByText(t.noFacilities)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: t.cancel })).toBeEnabled();
    },
    posting: async (s: SelectFacilitySnapshot) => {
      postings += 1;
      const saml = s.context.saml;
      expect(await screen.findByText(t.handingOff(s.context.facility?.name ?? ''))).toHaveAttribute(
        'role',
        'status',
      );
      const form = screen.getByTestId('saml-post-form');
      expect(form).toHaveAttribute('action', saml?.assertionConsumerServiceUrl);
      expect((form.querySelector('input[name=SAMLResponse]') as HTMLInputElement).value).toBe(
        saml?.samlResponse,
      );
      expect((form.querySelector('input[name=RelayState]') as HTMLInputElement).value).toBe(saml?.relayState);
      await waitFor(() => expect(spies.formSubmit).toHaveBeenCalledTimes(postings));
    },
    failed: async (s: SelectFacilitySnapshot) => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(t.loadFailed);
      expect(alert).toHaveTextContent(s.context.errorMessage ?? '');
      expect(screen.getByRole('button', { name: t.retry })).toBeInTheDocument();
    },
  };
}

const SELECT_FACILITY_EVENT_TYPES = Object.keys({
  'user.choose': true,
  'user.retry': true,
  'page.restored': true,
  'xstate.done.actor.getFacilities': true,
  'xstate.error.actor.getFacilities': true,
  'xstate.done.actor.getApp': true,
  'xstate.error.actor.getApp': true,
  'xstate.done.actor.selectFacilityHandoff': true,
  'xstate.error.actor.selectFacilityHandoff': true,
} satisfies Record<SelectFacilityModelEventType, true>) as SelectFacilityModelEventType[];

function eventExecutors(m: Mounted, so: PathSoFar) {
  return async (event: SelectFacilityModelEvent, before: SelectFacilitySnapshot) => {
    switch (event.type) {
      case 'xstate.error.actor.getApp':
        so.appLookupFailed = true;
        await act(() => m.api.answer(event));
        return;
      case 'user.choose': {
        const facility = before.context.facilities.find((f) => f.code === event.facilityCode);
        if (!facility) throw new Error(`No facility ${event.facilityCode}`);
        await m.user.click(facilityButtonOf(facility));
        return;
      }
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

export function defineSelectFacilityPaths(coverage: MachineCoverage): void {
  const paths = selectFacilityPaths();

  describe(`forced/select-facility: ${paths.length} generated paths against the select-facility page`, () => {
    let spies: Spies;
    beforeEach(() => {
      const formSubmit = vi.fn();
      vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(formSubmit);
      spies = { formSubmit };
    });
    afterEach(() => {
      notifications.clean();
      vi.restoreAllMocks();
    });

    it('has a check for every state', () => {
      expect(Object.keys(stateChecks({} as Mounted, {} as Spies, { appLookupFailed: false })).sort()).toEqual(
        Object.keys(selectFacilityMachine.root.states).sort(),
      );
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountSelectFacility({ user: users.pending, context: loansContext }, coverage.inspect);
        const so: PathSoFar = { appLookupFailed: false };
        const checks = stateChecks(m, spies, so);
        const perform = eventExecutors(m, so);
        const states = Object.fromEntries(
          Object.entries(checks).map(([key, check]) => [
            key,
            async (s: SelectFacilitySnapshot) => {
              await waitFor(() => {
                expect(m.running<SelectFacilitySnapshot>()?.value).toEqual(s.value);
                expect(m.running<SelectFacilitySnapshot>()?.context).toEqual(s.context);
              });
              await check(s);
            },
          ]),
        );
        // Each event is performed on the state the path was in before it.
        const events = Object.fromEntries(
          SELECT_FACILITY_EVENT_TYPES.map((type) => [
            type,
            async (step: { event: unknown }) => {
              const index = path.steps.findIndex((candidate) => candidate === step);
              const before = path.steps[index - 1]?.state as SelectFacilitySnapshot;
              await perform(step.event as SelectFacilityModelEvent, before);
            },
          ]),
        );
        await path.test({ states, events });
      },
      PATH_TIMEOUT_MS,
    );
  });
}
