// What the forced-step path suites check the same way: status lines, where a finished step went
// and what it left in the session, and the run of one generated path against a mounted page.
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { ForcedStepOutput } from '../../../machines/forced/continue-sign-in/forced-step';
import { ANONYMOUS_USER } from '../../../src/contract/entities';
import { previousSignInTexts } from '../../../src/client/app/texts';
import type { MountedForcedPage } from './forced-pages';

export async function expectStatus(text: string): Promise<void> {
  expect(await screen.findByText(text)).toHaveAttribute('role', 'status');
}

/** The step finished: the address, the navigation state and the session are as its output says. */
export async function expectLanded(m: MountedForcedPage, output: ForcedStepOutput): Promise<void> {
  expect(await screen.findByTestId('landed-path')).toHaveTextContent(output.route);
  const state = JSON.parse(screen.getByTestId('landed-state').textContent ?? 'null') as unknown;
  const session = m.store.getState();
  switch (output.kind) {
    case 'signedIn':
      expect(session.currentUser).toEqual(output.currentUser);
      expect(session.targetPath).toBeNull();
      expect(session.adminTargetPath).toBeNull();
      expect(session.singleSignOnAppName).toBe(output.singleSignOnAppName);
      if (output.previousSignInAttempt) {
        expect(await screen.findByText(previousSignInTexts.title)).toBeInTheDocument();
      }
      expect(state).toBeNull();
      break;
    case 'forcedAction':
      expect(session.currentUser).toEqual(output.currentUser);
      expect(state).toEqual(
        output.smsUnavailableMessage ? { smsUnavailableMessage: output.smsUnavailableMessage } : null,
      );
      break;
    case 'cancelled':
      expect(session.currentUser).toEqual(ANONYMOUS_USER);
      expect(state).toBeNull();
      break;
  }
}

interface RunnablePath<S> {
  test: (params: {
    states: Record<string, (s: S) => Promise<void>>;
    events: Record<string, (step: { event: unknown }) => Promise<void>>;
  }) => Promise<unknown>;
}

/**
 * Runs one path: before each state's own check the page's actor must be where the model says,
 * with the same context (or, where the graph's nodes keep only part of the context, the same
 * `project`ion of it); each event is performed as the user (or the server) would. The check is
 * then given the page's own snapshot, whose context is the one the page shows.
 */
export async function runPath<S extends { value: unknown; context: unknown }, E>(
  m: { running: () => S | null },
  path: RunnablePath<S>,
  checks: Record<string, (s: S) => Promise<void>>,
  eventTypes: readonly string[],
  perform: (event: E) => Promise<void>,
  project: (s: S) => unknown = (s) => s.context,
): Promise<void> {
  const states = Object.fromEntries(
    Object.entries(checks).map(([key, check]) => [
      key,
      async (s: S) => {
        await waitFor(() => {
          const running = m.running();
          expect(running?.value).toEqual(s.value);
          expect(running && project(running)).toEqual(project(s));
        });
        await check(m.running() ?? s);
      },
    ]),
  );
  const events = Object.fromEntries(
    eventTypes.map((type) => [type, (step: { event: unknown }) => perform(step.event as E)]),
  );
  await path.test({ states, events });
}

/** The atomic and final states of a machine, as 'parent.child' keys (what the checks are keyed by). */
export function leafStates(root: { states: Record<string, unknown> }, prefix = ''): string[] {
  return Object.entries(root.states).flatMap(([key, node]) => {
    const children = (node as { states: Record<string, unknown> }).states;
    const name = prefix ? `${prefix}.${key}` : key;
    return Object.keys(children).length ? leafStates(node as never, name) : [name];
  });
}
