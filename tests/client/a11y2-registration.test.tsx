// WCAG 3.3.7: in registration, coming back from SMS verification with 'Change mobile number', the
// mobile step starts from the number already entered (the machine keeps it), not from an empty field.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { registrationMachine } from '../../machines/registration/registration.machine';
import { REGISTRATION_ROUTE } from '../../machines/routes';
import { ANONYMOUS_USER } from '../../src/contract/entities';
import { factorEnrolmentTexts as fe } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.texts';
import { registrationTexts as t } from '../../src/client/flows/registration/registration.texts';
import RegistrationPage from '../../src/client/flows/registration/RegistrationPage';
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
const TYPED = '+61 400 000 123';

describe('registration, select-sms-factor', { timeout: 30_000 }, () => {
  afterEach(() => notifications.clean());

  it("starts from the mobile already entered after 'Change mobile number'", async () => {
    const m = mountForcedPage({
      machine: registrationMachine,
      sources: REGISTRATION_SOURCES,
      route: `${REGISTRATION_ROUTE}/*`,
      entry: REGISTRATION_ROUTE,
      page: <RegistrationPage />,
      user: ANONYMOUS_USER,
    });
    const answer = (id: string, output: unknown) =>
      act(() => m.api.answer({ type: `xstate.done.actor.${id}`, output } as never));

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

    await m.user.click(await screen.findByRole('button', { name: t.authenticator.chooseSms }));
    await screen.findByRole('button', { name: fe.selectSms.submit });
    expect(input(/^Mobile/)).toHaveValue('');
    await enter(m.user, input(/^Mobile/), TYPED);
    await m.user.click(button(fe.selectSms.submit));
    await answer('enrolSms', { type: 'enrolled', mobile: TYPED });

    await m.user.click(await screen.findByRole('link', { name: fe.smsVerification.changeMobile }));
    await screen.findByRole('button', { name: fe.selectSms.submit });
    await waitFor(() => expect(input(/^Mobile/)).toHaveValue(TYPED));
  });
});
