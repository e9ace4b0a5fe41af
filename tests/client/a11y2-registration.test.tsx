// WCAG 3.3.7: in registration, coming back from SMS verification with 'Change mobile number', the
// mobile step starts from the number already entered (the machine keeps it), not from an empty field.
import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { factorEnrolmentTexts as fe } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.texts';
import { registrationTexts as t } from '../../src/client/flows/registration/registration.texts';
import { enter } from '../model/harness/user';
import { mountRegistration } from './mount-registration';

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const button = (name: string) => screen.getByRole('button', { name });
const TYPED = '+61 400 000 123';

describe('registration, select-sms-factor', { timeout: 30_000 }, () => {
  afterEach(() => notifications.clean());

  it("starts from the mobile already entered after 'Change mobile number'", async () => {
    const { m, answer, toAuthenticatorStep } = mountRegistration();
    await toAuthenticatorStep();

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
