// The registration wizard mounted with the scripted fake API (as its generated paths do), and the
// walk from the start form to the authenticator-app step that several client tests begin from.
import { act, screen } from '@testing-library/react';
import { registrationMachine } from '../../machines/registration/registration.machine';
import { REGISTRATION_ROUTE } from '../../machines/routes';
import { registrationTexts as t } from '../../src/client/flows/registration/registration.texts';
import RegistrationPage from '../../src/client/flows/registration/RegistrationPage';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import {
  authenticatorSetup,
  detailsAnswers,
  registrationFacts,
  startAnswers,
  typedStart,
} from '../machines/registration.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';
import { enter } from '../model/harness/user';
import { REGISTRATION_SOURCES } from '../model/registration.paths';

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const button = (name: string) => screen.getByRole('button', { name });

export function mountRegistration() {
  const m = mountForcedPage({
    machine: registrationMachine,
    sources: REGISTRATION_SOURCES,
    route: `${REGISTRATION_ROUTE}/*`,
    entry: REGISTRATION_ROUTE,
    page: <RegistrationPage />,
    user: ANONYMOUS_USER,
  });
  /** Answers the pending call `id` with `output`. */
  const answer = (id: string, output: unknown) =>
    act(() => m.api.answer({ type: `xstate.done.actor.${id}`, output } as never));
  /** From the start form to the authenticator-app step, as a new account 'C10009'. */
  const toAuthenticatorStep = async () => {
    await answer('prepareRegistration', registrationFacts.gatewayUp);
    await screen.findByRole('button', { name: t.start.submit });
    await enter(m.user, input(/^Email/), typedStart.email);
    await enter(m.user, input(/^Invitation code/), typedStart.inviteCode);
    await enter(m.user, input(/^Security code/), typedStart.captchaCode);
    await m.user.click(button(t.start.submit));
    await answer('startRegistration', startAnswers.newAccount);
    await screen.findByRole('button', { name: t.details.submit });
    await enter(m.user, input(/^Username/), 'C10009');
    await m.user.click(button(t.details.submit));
    await answer('collectDetails', detailsAnswers.collected);
    await answer('loadAuthenticatorSetup', authenticatorSetup);
  };
  return { m, answer, toAuthenticatorStep };
}
