// The two-step profile wizards as a user meets them (sections 2.3, 4.7 and 5):
// - step 1 of change-email and change-mobile checks the new value with the contract's rules, as
//   every other form and the server do: trimmed first, then required, then the format, then the
//   length (a 501-character text that is no email is 'Invalid email format'; a mobile padded with
//   spaces is counted without them);
// - the view of an unexpected failure shows the progress of the step that failed: 50 percent for
//   step 1, 100 percent for step 2.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { changeEmailMachine } from '../../machines/profile/change-email/change-email.machine';
import { changeMobileMachine } from '../../machines/profile/change-mobile/change-mobile.machine';
import { enrolAuthenticatorAppMachine } from '../../machines/profile/enrol-authenticator-app/enrol-authenticator-app.machine';
import { PROFILE_ROUTES } from '../../machines/routes';
import { forcedTexts } from '../../src/client/flows/forced/shared/forced.texts';
import ChangeEmailPage from '../../src/client/flows/profile/ChangeEmailPage';
import ChangeMobilePage from '../../src/client/flows/profile/ChangeMobilePage';
import EnrolAuthenticatorAppPage from '../../src/client/flows/profile/EnrolAuthenticatorAppPage';
import { profileFormTexts, wizardTexts } from '../../src/client/flows/profile/profile.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';

const CURRENT_PASSWORD = 'Harbour-Lights-2026';
const FAILURE = 'The server could not be reached.';
const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });

type Mounted = ReturnType<typeof mountForcedPage>;

function mountWizard(machine: AnyStateMachine, sources: string[], route: string, page: React.ReactNode) {
  return mountForcedPage({
    machine,
    sources,
    route: `${route}/*`,
    entry: route,
    page,
    user: users.customer,
  });
}

const CODE_SOURCES = ['start', 'verify', 'resend', 'cancelChange'];
const mountChangeEmail = () =>
  mountWizard(changeEmailMachine, CODE_SOURCES, PROFILE_ROUTES.CHANGE_EMAIL, <ChangeEmailPage />);
const mountChangeMobile = () =>
  mountWizard(changeMobileMachine, CODE_SOURCES, PROFILE_ROUTES.CHANGE_MOBILE, <ChangeMobilePage />);

/** Replaces the field's text as one paste (a long text typed key by key is slow in jsdom). */
async function enterText(m: Mounted, label: string, text: string) {
  await m.user.clear(input(label));
  await m.user.click(input(label));
  if (text !== '') await m.user.paste(text);
}

/** Step 1 with the new value and the current password, then Next. */
async function submitStep1(m: Mounted, label: string, value: string) {
  await screen.findByLabelText(new RegExp(`^${label}`), { selector: 'input' });
  await enterText(m, label, value);
  await enterText(m, profileFormTexts.currentPassword, CURRENT_PASSWORD);
  await m.user.click(screen.getByRole('button', { name: wizardTexts.next }));
}

async function expectRefused(m: Mounted, label: string, message: string) {
  await waitFor(() => expect(input(label)).toHaveAttribute('aria-invalid', 'true'));
  expect(input(label)).toHaveAccessibleDescription(expect.stringContaining(message));
  expect(input(label)).toHaveFocus();
  expect(m.api.calls.filter((c) => c.src === 'start')).toEqual([]);
}

/** The failure view, with the progress and step heading of the step that failed. */
async function expectFailedAt(progress: 50 | 100) {
  expect(await screen.findByRole('alert')).toHaveTextContent(FAILURE);
  expect(screen.getByRole('button', { name: wizardTexts.back })).toBeInTheDocument();
  expect(screen.getByTestId('step-progress')).toHaveTextContent(forcedTexts.percent(progress));
  expect(screen.getByRole('progressbar', { name: wizardTexts.progress })).toHaveAttribute(
    'aria-valuenow',
    String(progress),
  );
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(
    progress === 50 ? wizardTexts.stepDetails : wizardTexts.stepVerification,
  );
}

describe('/profile/change-email step 1: the email rule of section 5', { timeout: 30_000 }, () => {
  it('a 501-character text that is no email is an invalid email, not too long', async () => {
    const m = mountChangeEmail();
    await submitStep1(m, wizardTexts.newEmail, 'a'.repeat(501));
    await expectRefused(m, wizardTexts.newEmail, 'Invalid email format');
    expect(screen.queryByText('Size cannot be greater than 500')).toBeNull();
  });

  it('a valid email over 500 characters is too long; padded with spaces, one of 500 is sent trimmed', async () => {
    const m = mountChangeEmail();
    const email500 = `${'a'.repeat(488)}@example.com`;
    expect(email500).toHaveLength(500);
    await submitStep1(m, wizardTexts.newEmail, `a${email500}`);
    await expectRefused(m, wizardTexts.newEmail, 'Size cannot be greater than 500');

    await enterText(m, wizardTexts.newEmail, `  ${email500}  `);
    await m.user.click(screen.getByRole('button', { name: wizardTexts.next }));
    expect((await m.api.waiting('start')).input).toEqual({
      currentPassword: CURRENT_PASSWORD,
      value: email500,
    });
  });

  it('only spaces is a required field', async () => {
    const m = mountChangeEmail();
    await submitStep1(m, wizardTexts.newEmail, '    ');
    await expectRefused(m, wizardTexts.newEmail, 'Required field');
  });
});

describe('/profile/change-mobile step 1: the mobile rule of section 5', { timeout: 30_000 }, () => {
  it('a mobile padded with spaces beyond 20 characters is taken, and sent trimmed', async () => {
    const m = mountChangeMobile();
    const padded = '     +61 400 000 001     ';
    expect(padded.length).toBeGreaterThan(20);
    await submitStep1(m, wizardTexts.mobile, padded);
    expect((await m.api.waiting('start')).input).toEqual({
      currentPassword: CURRENT_PASSWORD,
      value: '+61 400 000 001',
    });
  });

  it('a mobile of 21 characters without its spaces is too long; only spaces is a required field', async () => {
    const m = mountChangeMobile();
    await submitStep1(m, wizardTexts.mobile, ` +61 400 000 001 23456 `);
    await expectRefused(m, wizardTexts.mobile, 'Size cannot be greater than 20');
    await enterText(m, wizardTexts.mobile, '   ');
    await m.user.click(screen.getByRole('button', { name: wizardTexts.next }));
    await expectRefused(m, wizardTexts.mobile, 'Required field');
  });
});

describe('the failure view shows the step that failed (section 2.3)', { timeout: 30_000 }, () => {
  const fail = (m: Mounted, src: string) =>
    m.api.answer({ type: `xstate.error.actor.${src}`, error: new Error(FAILURE) });

  it('change email: a failed start is step 1 (50 percent)', async () => {
    const m = mountChangeEmail();
    await submitStep1(m, wizardTexts.newEmail, 'new@example.com');
    await fail(m, 'start');
    await expectFailedAt(50);
  });

  it('change email: a failed verification is step 2 (100 percent)', async () => {
    const m = mountChangeEmail();
    await submitStep1(m, wizardTexts.newEmail, 'new@example.com');
    await m.api.answer({
      type: 'xstate.done.actor.start',
      output: { type: 'codeSent', destination: 'new@example.com' },
    });
    await screen.findByLabelText(new RegExp(`^${forcedTexts.code}`), { selector: 'input' });
    await enterText(m, forcedTexts.code, '123456');
    await m.user.click(screen.getByRole('button', { name: wizardTexts.verify }));
    await fail(m, 'verify');
    await expectFailedAt(100);
  });

  const mountEnrolApp = () =>
    mountWizard(
      enrolAuthenticatorAppMachine,
      ['loadSetup', 'verify'],
      PROFILE_ROUTES.ENROL_AUTHENTICATOR_APP,
      <EnrolAuthenticatorAppPage />,
    );

  it('enable authenticator app: a failed setup is step 1 (50 percent)', async () => {
    const m = mountEnrolApp();
    await fail(m, 'loadSetup');
    await expectFailedAt(50);
  });

  it('enable authenticator app: a failed verification is step 2 (100 percent)', async () => {
    const m = mountEnrolApp();
    await m.api.answer({
      type: 'xstate.done.actor.loadSetup',
      output: { setupKey: 'JBSW Y3DP EHPK 3PXP', qrCode: 'data:image/png;base64,iVBORw0KGgo=' },
    });
    await m.user.click(await screen.findByRole('button', { name: wizardTexts.next }));
    await screen.findByLabelText(new RegExp(`^${forcedTexts.code}`), { selector: 'input' });
    await enterText(m, forcedTexts.code, '123456');
    await enterText(m, profileFormTexts.currentPassword, CURRENT_PASSWORD);
    await m.user.click(screen.getByRole('button', { name: wizardTexts.verify }));
    await fail(m, 'verify');
    await expectFailedAt(100);
  });
});
