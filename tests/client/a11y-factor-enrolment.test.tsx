// WCAG 3.3.7: coming back from SMS verification with 'Change mobile number', the mobile step starts
// from the number already entered (the machine keeps it), not from an empty field.
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { factorEnrolmentMachine } from '../../machines/forced/factor-enrolment/factor-enrolment.machine';
import { FORCED_ACTION_ROUTES } from '../../machines/routes';
import { factorEnrolmentTexts as t } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.texts';
import { enrolmentFacts, users } from '../machines/continue-sign-in.fixtures';
import { mountFactorEnrolment } from '../model/harness/forced-pages';

const BASE = FORCED_ACTION_ROUTES.FACTOR_ENROLMENT;
const mobileInput = () => screen.getByLabelText(/^Mobile/, { selector: 'input' });

describe('select-sms-factor', { timeout: 30_000 }, () => {
  afterEach(() => notifications.clean());

  it("starts from the mobile already entered after 'Change mobile number'", async () => {
    const m = mountFactorEnrolment({
      machine: factorEnrolmentMachine,
      user: users.pending,
      entry: `${BASE}/select-sms-factor`,
    });
    await act(() =>
      m.api.answer({ type: 'xstate.done.actor.loadEnrolment', output: enrolmentFacts.mfaRequired }),
    );
    await screen.findByLabelText(/^Mobile/, { selector: 'input' });
    expect(mobileInput()).toHaveValue('');
    await m.user.type(mobileInput(), '+61 400 000 123');
    await m.user.click(screen.getByRole('button', { name: t.selectSms.submit }));
    await act(() =>
      m.api.answer({
        type: 'xstate.done.actor.enrolSms',
        output: { type: 'enrolled', mobile: '+61 400 000 123' },
      }),
    );
    await m.user.click(await screen.findByRole('link', { name: t.smsVerification.changeMobile }));
    await waitFor(() => expect(mobileInput()).toHaveValue('+61 400 000 123'));
  });
});
