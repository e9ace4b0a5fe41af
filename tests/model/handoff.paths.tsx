// Generated handoff paths executed against the mounted applications page: the user clicks cards,
// the scripted fake API answers as each step of the path says, and each state is checked by what
// the user sees (busy card, the hidden form posting the response, the 8 s toast of a refusal).
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handoffMachine } from '../../machines/handoff/handoff.machine';
import type { HandoffTarget } from '../../src/contract/entities';
import { handoffTexts } from '../../src/client/flows/handoff/handoff.texts';
import { applicationsTexts, facilityLabel } from '../../src/client/pages/applications.texts';
import { users } from '../machines/fixtures/sign-in.fixtures';
import {
  HANDOFF_APPS,
  handoffPaths,
  type HandoffModelEvent,
  type HandoffModelEventType,
  type HandoffSnapshot,
} from './handoff.model';
import type { MachineCoverage } from './harness/coverage';
import { mountApplications, restorePage } from './harness/handoff-pages';

type Mounted = ReturnType<typeof mountApplications>;

const PATH_TIMEOUT_MS = 30_000;

/** The card of a target: its link, named by the app and the facility. */
export function cardOf(target: HandoffTarget): HTMLElement {
  const facility = facilityLabel(target);
  const card = screen
    .getAllByRole('link')
    .find(
      (link) =>
        within(link).queryByRole('heading', { name: target.appName }) !== null &&
        (facility === null ? link.textContent === target.appName : link.textContent?.includes(facility)),
    );
  if (!card) throw new Error(`No card for ${target.appCode} ${target.facilityCode ?? ''}`);
  return card;
}

async function expectCards() {
  expect(
    await screen.findByRole('heading', { level: 1, name: applicationsTexts.heading }),
  ).toBeInTheDocument();
  await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(HANDOFF_APPS.length));
  for (const target of HANDOFF_APPS) expect(cardOf(target)).toBeInTheDocument();
}

function stateChecks(m: Mounted, spies: Spies) {
  let postings = 0;
  return {
    idle: async (s: HandoffSnapshot) => {
      await expectCards();
      expect(screen.queryByTestId('saml-post-form')).not.toBeInTheDocument();
      for (const target of HANDOFF_APPS) expect(cardOf(target)).not.toHaveAttribute('aria-busy');
      const refusal = s.context.refusal;
      if (refusal) {
        // Section 8: the toast, word for word.
        expect(
          await screen.findByText(handoffTexts.refused(refusal.appName, refusal.message)),
        ).toBeInTheDocument();
      }
    },
    handingOff: async (s: HandoffSnapshot) => {
      const target = s.context.target as HandoffTarget;
      await expectCards();
      await waitFor(() => expect(cardOf(target)).toHaveAttribute('aria-busy', 'true'));
      const call = await m.api.waiting('samlHandoff');
      expect(call.input).toEqual({ appCode: target.appCode, facilityCode: target.facilityCode });
    },
    posting: async (s: HandoffSnapshot) => {
      postings += 1;
      const target = s.context.target as HandoffTarget;
      const saml = s.context.saml;
      expect(await screen.findByText(handoffTexts.handingOff(target.appName))).toHaveAttribute(
        'role',
        'status',
      );
      const form = screen.getByTestId('saml-post-form');
      expect(form).toHaveAttribute('method', 'post');
      expect(form).toHaveAttribute('action', saml?.assertionConsumerServiceUrl);
      const hidden = Object.fromEntries(
        [...form.querySelectorAll('input[type=hidden]')].map((i) => [
          i.getAttribute('name'),
          i.getAttribute('value'),
        ]),
      );
      expect(hidden).toEqual(
        saml?.relayState === null
          ? { SAMLResponse: saml.samlResponse }
          : { SAMLResponse: saml?.samlResponse, RelayState: saml?.relayState },
      );
      await waitFor(() => expect(spies.formSubmit).toHaveBeenCalledTimes(postings));
    },
  };
}

const HANDOFF_EVENT_TYPES = Object.keys({
  'user.handoff': true,
  'page.restored': true,
  'xstate.done.actor.samlHandoff': true,
  'xstate.error.actor.samlHandoff': true,
} satisfies Record<HandoffModelEventType, true>) as HandoffModelEventType[];

function eventExecutors(m: Mounted) {
  return async (event: HandoffModelEvent) => {
    switch (event.type) {
      case 'user.handoff':
        await m.user.click(cardOf(event.target));
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

export function defineHandoffPaths(coverage: MachineCoverage): void {
  const paths = handoffPaths();

  describe(`handoff: ${paths.length} generated paths against the applications page`, () => {
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
      expect(Object.keys(stateChecks({} as Mounted, {} as Spies)).sort()).toEqual(
        Object.keys(handoffMachine.root.states).sort(),
      );
    });

    it.each(paths.map((path) => [path.description, path] as const))(
      '%s',
      async (_, path) => {
        const m = mountApplications({ user: users.customer, apps: HANDOFF_APPS }, coverage.inspect);
        const checks = stateChecks(m, spies);
        const perform = eventExecutors(m);
        const states = Object.fromEntries(
          Object.entries(checks).map(([key, check]) => [
            key,
            async (s: HandoffSnapshot) => {
              await waitFor(() => {
                expect(m.running<HandoffSnapshot>()?.value).toEqual(s.value);
                expect(m.running<HandoffSnapshot>()?.context).toEqual(s.context);
              });
              await check(s);
            },
          ]),
        );
        const events = Object.fromEntries(
          HANDOFF_EVENT_TYPES.map((type) => [
            type,
            (step: { event: unknown }) => perform(step.event as HandoffModelEvent),
          ]),
        );
        await path.test({ states, events });
      },
      PATH_TIMEOUT_MS,
    );
  });
}
