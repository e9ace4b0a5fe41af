// Generated continue-sign-in paths executed against a forced step's view of its continuation: the
// scripted fake API answers the user and MFA start calls, and each state is checked by what the user
// sees (progress, the SAML form, the hand-off, the failure) and where the step went.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { continueSignInMachine } from '../../machines/forced/continue-sign-in/continue-sign-in.machine';
import type { ContinueSignInOutput } from '../../machines/forced/continue-sign-in/continue-sign-in.types';
import { forcedTexts as t } from '../../src/client/flows/forced/shared/forced.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import {
  continueSignInPaths,
  type ContinueSignInModelEvent,
  type ContinueSignInModelEventType,
  type ContinueSignInSnapshot,
} from './continue-sign-in.model';
import type { MachineCoverage } from './harness/coverage';
import { expectLanded, expectStatus, leafStates, runPath } from './harness/forced-checks';
import { mountContinuation, type MountedForcedPage } from './harness/forced-pages';

type S = ContinueSignInSnapshot;
const PATH_TIMEOUT_MS = 30_000;

/** The transient states (left at once by their eventless transitions) have no view of their own. */
const TRANSIENT = ['deciding', 'jwtHandoff', 'directLogin.choosingLanding'];

interface Spies {
  formSubmit: ReturnType<typeof vi.fn>;
  postJwtToParent: ReturnType<typeof vi.fn>;
}

function stateChecks(m: MountedForcedPage, spies: Spies): Record<string, (s: S) => Promise<void>> {
  return {
    postingSaml: async (s) => {
      const saml = s.context.outcome.saml;
      await expectStatus(t.handingOff);
      const form = screen.getByTestId('saml-post-form');
      expect(form).toHaveAttribute('action', saml?.assertionConsumerServiceUrl);
      const hidden = Object.fromEntries(
        [...form.querySelectorAll('input[type=hidden]')].map((i) => [
          i.getAttribute('name'),
          i.getAttribute('value'),
        ]),
      );
      expect(hidden).toEqual({ SAMLResponse: saml?.samlResponse, RelayState: saml?.relayState });
      await waitFor(() => expect(spies.formSubmit).toHaveBeenCalledTimes(1));
    },
    handingOffToParent: async (s) => {
      await expectStatus(t.handingOff);
      expect(spies.postJwtToParent).toHaveBeenCalledWith(expect.anything(), {
        jwt: s.context.outcome.jwt,
        frameOrigin: s.context.outcome.frameOrigin,
      });
    },
    'forcedAction.loadingUser': async () => {
      await expectStatus(t.signingIn);
      await m.api.waiting('getCurrentUser');
    },
    'forcedAction.startingMfa': async () => {
      await expectStatus(t.signingIn);
      await m.api.waiting('startMfa');
    },
    'directLogin.loadingUser': async () => {
      await expectStatus(t.signingIn);
      await m.api.waiting('getCurrentUser');
    },
    failed: async (s) => {
      expect(await screen.findByRole('heading', { level: 1, name: t.failedHeading })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(s.context.errorMessage ?? '');
      // A JWT outside a frame is posted nowhere.
      if (s.context.outcome.outcome === 'JWT') expect(spies.postJwtToParent).not.toHaveBeenCalled();
    },
    signedIn: (s) => expectLanded(m, s.output as Exclude<ContinueSignInOutput, { kind: 'failed' }>),
    forwarded: (s) => expectLanded(m, s.output as Exclude<ContinueSignInOutput, { kind: 'failed' }>),
  };
}

const EVENT_TYPES = Object.keys({
  'xstate.done.actor.getCurrentUser': true,
  'xstate.error.actor.getCurrentUser': true,
  'xstate.done.actor.startMfa': true,
  'xstate.error.actor.startMfa': true,
} satisfies Record<ContinueSignInModelEventType, true>);

export function defineContinueSignInPaths(coverage: MachineCoverage): void {
  const paths = continueSignInPaths();

  describe(`forced/continue-sign-in: ${paths.length} generated paths against a step's continuation`, () => {
    let spies: Spies;
    beforeEach(() => {
      const formSubmit = vi.fn();
      vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(formSubmit);
      spies = { formSubmit, postJwtToParent: vi.fn() };
    });
    afterEach(() => {
      notifications.clean();
      vi.restoreAllMocks();
    });

    it('has a check for every state the user can see', () => {
      const checked = Object.keys(stateChecks({} as MountedForcedPage, {} as Spies));
      expect([...checked, ...TRANSIENT].sort()).toEqual(leafStates(continueSignInMachine.root).sort());
    });

    it.each(
      paths.map(({ scenario, path }) => [`${scenario.name}: ${path.description}`, scenario, path] as const),
    )(
      '%s',
      async (_, scenario, path) => {
        const m = mountContinuation(scenario.input, {
          user: users.pending,
          inspect: coverage.inspect,
          actions: { postJwtToParent: spies.postJwtToParent },
          guards: scenario.guards,
        });
        await runPath(
          m,
          path as never,
          stateChecks(m, spies),
          EVENT_TYPES,
          (event: ContinueSignInModelEvent) => act(() => m.api.answer(event)),
        );
      },
      PATH_TIMEOUT_MS,
    );
  });
}
