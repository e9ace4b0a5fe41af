// The profile wizards keep the keyboard user's focus (WCAG 2.4.3): a refusal that stays on the step
// takes it to the refused field, or, with no field of the form refused, to the refusal's message (the
// busy button, disabled by its loading state, has dropped it to the page).
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeEmailMachine } from '../../machines/profile/change-email/change-email.machine';
import { enrolAuthenticatorAppMachine } from '../../machines/profile/enrol-authenticator-app/enrol-authenticator-app.machine';
import { PROFILE_ROUTES } from '../../machines/routes';
import { forcedTexts } from '../../src/client/flows/forced/shared/forced.texts';
import ChangeEmailPage from '../../src/client/flows/profile/ChangeEmailPage';
import EnrolAuthenticatorAppPage from '../../src/client/flows/profile/EnrolAuthenticatorAppPage';
import { profileFormTexts, wizardTexts } from '../../src/client/flows/profile/profile.texts';
import { users } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';

const CURRENT_PASSWORD = 'Harbour-Lights-2026';
const MESSAGE = 'This change cannot be made now.';
const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
type Mounted = ReturnType<typeof mountForcedPage>;

async function enterText(m: Mounted, label: string, text: string) {
  await m.user.clear(input(label));
  await m.user.click(input(label));
  await m.user.paste(text);
}

const refused = (fieldErrors: Array<{ fieldName: string; message: string }>) => ({
  type: 'refused',
  message: MESSAGE,
  fieldErrors,
});

async function changeEmailRefused(output: unknown) {
  const m = mountForcedPage({
    machine: changeEmailMachine,
    sources: ['start', 'verify', 'resend', 'cancelChange'],
    route: `${PROFILE_ROUTES.CHANGE_EMAIL}/*`,
    entry: PROFILE_ROUTES.CHANGE_EMAIL,
    page: <ChangeEmailPage />,
    user: users.customer,
  });
  await screen.findByLabelText(new RegExp(`^${wizardTexts.newEmail}`), { selector: 'input' });
  await enterText(m, wizardTexts.newEmail, 'new.address@example.com');
  await enterText(m, profileFormTexts.currentPassword, CURRENT_PASSWORD);
  await m.user.click(screen.getByRole('button', { name: wizardTexts.next }));
  await m.api.waiting('start');
  await act(() => m.api.answer({ type: 'xstate.done.actor.start', output } as never));
  return m;
}

async function enrolAppRefused(output: unknown) {
  const m = mountForcedPage({
    machine: enrolAuthenticatorAppMachine,
    sources: ['loadSetup', 'verify'],
    route: `${PROFILE_ROUTES.ENROL_AUTHENTICATOR_APP}/*`,
    entry: PROFILE_ROUTES.ENROL_AUTHENTICATOR_APP,
    page: <EnrolAuthenticatorAppPage />,
    user: users.customer,
  });
  await m.api.answer({
    type: 'xstate.done.actor.loadSetup',
    output: { setupKey: 'JBSW Y3DP EHPK 3PXP', qrCode: 'data:image/png;base64,iVBORw0KGgo=' },
  });
  await m.user.click(await screen.findByRole('button', { name: wizardTexts.next }));
  await screen.findByLabelText(new RegExp(`^${forcedTexts.code}`), { selector: 'input' });
  await enterText(m, forcedTexts.code, '123456');
  await enterText(m, profileFormTexts.currentPassword, CURRENT_PASSWORD);
  await m.user.click(screen.getByRole('button', { name: wizardTexts.verify }));
  await m.api.waiting('verify');
  await act(() => m.api.answer({ type: 'xstate.done.actor.verify', output } as never));
  return m;
}

async function expectAlertFocused() {
  const alert = (await screen.findByText(MESSAGE)).closest<HTMLElement>('[role="alert"]');
  expect(alert).not.toBeNull();
  await waitFor(() => expect(alert).toHaveFocus());
}

describe('a profile code wizard, step 1', { timeout: 30_000 }, () => {
  afterEach(() => notifications.clean());

  it('a refusal without a field error moves the focus to its message', async () => {
    await changeEmailRefused(refused([]));
    await expectAlertFocused();
  });

  it('a refusal on a field not in the form moves the focus to its message', async () => {
    await changeEmailRefused(refused([{ fieldName: 'username', message: MESSAGE }]));
    await expectAlertFocused();
  });

  it('a refusal on the new email still moves the focus to it', async () => {
    await changeEmailRefused(refused([{ fieldName: 'email', message: MESSAGE }]));
    await waitFor(() => expect(input(wizardTexts.newEmail)).toHaveFocus());
  });
});

describe('a profile authenticator-app wizard, code verification', { timeout: 30_000 }, () => {
  afterEach(() => notifications.clean());

  it('a refusal without a field error moves the focus to its message', async () => {
    await enrolAppRefused(refused([]));
    await expectAlertFocused();
  });

  it('a refusal on a field not in the form shows its message and moves the focus to it', async () => {
    await enrolAppRefused(refused([{ fieldName: 'factor', message: MESSAGE }]));
    await expectAlertFocused();
  });

  it('a refusal of the code still empties the code field and moves the focus to it', async () => {
    await enrolAppRefused(refused([{ fieldName: 'code', message: MESSAGE }]));
    await waitFor(() => expect(input(forcedTexts.code)).toHaveFocus());
    expect(input(forcedTexts.code)).toHaveValue('');
  });

  it('a refusal of the password empties it and moves the focus to it', async () => {
    await enrolAppRefused(refused([{ fieldName: 'currentPassword', message: MESSAGE }]));
    await waitFor(() => expect(input(profileFormTexts.currentPassword)).toHaveFocus());
  });
});
