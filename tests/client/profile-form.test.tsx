// The single-step profile screens check each field with the contract's own schema before sending,
// so that what the server would refuse with a 400 (and section 8 would turn into /error) is told at
// the field instead: the new password's policy of section 9, and security answers counted after
// trimming, as the server counts them, and so are the name and the phone (section 5's rules from
// the contract: trimmed, then required, then the length). The date of birth takes a typed
// 'DD Mon YYYY' (section 9's helper) as well as YYYY-MM-DD, and a typed date it cannot take is
// refused at the field.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileFormMachine } from '../../machines/profile/profile-form/profile-form.machine';
import { PROFILE_ROUTES } from '../../machines/routes';
import ChangePasswordPage from '../../src/client/flows/profile/ChangePasswordPage';
import { ProfileFormPage, type ProfileFormSpec } from '../../src/client/flows/profile/ProfileFormPage';
import {
  profileFormScreens,
  securityQuestionsScreen,
} from '../../src/client/flows/profile/profile-form.screens';
import { profileFormTexts, screenTexts } from '../../src/client/flows/profile/profile.texts';
import { todayIsoDate } from '../../src/contract/profile';
import { users } from '../machines/continue-sign-in.fixtures';
import { mountForcedPage } from '../model/harness/forced-pages';

const HINT = 'At least 14 characters with at least 1 letter and 1 number';
const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

/** The screen's form, once the check of identity verification has answered 'not verified'. */
async function opened<M extends ReturnType<typeof mountForcedPage>>(m: M): Promise<M> {
  await m.api.answer({ type: 'xstate.done.actor.isIdentityVerified', output: false });
  return m;
}

function mountChangePassword() {
  return mountForcedPage({
    machine: profileFormMachine,
    sources: ['isIdentityVerified', 'submit'],
    route: PROFILE_ROUTES.CHANGE_PASSWORD,
    entry: PROFILE_ROUTES.CHANGE_PASSWORD,
    page: <ChangePasswordPage />,
    user: users.customer,
  });
}

describe('/profile/change-password', { timeout: 30_000 }, () => {
  it('refuses at the field a long password without a digit, and one that is too short, with the spec hint', async () => {
    const m = await opened(mountChangePassword());
    const fill = async (password: string) => {
      await m.user.clear(input(/^New password/));
      await m.user.type(input(/^New password/), password);
      await m.user.clear(input(/^Confirm new password/));
      await m.user.type(input(/^Confirm new password/), password);
    };
    await m.user.type(
      await screen.findByLabelText(/^Current password/, { selector: 'input' }),
      'Old-password-1',
    );

    for (const refused of ['abcdefghijklmnop', '12345678901234567', 'Short-pass-1']) {
      await fill(refused);
      await m.user.click(screen.getByRole('button', { name: screenTexts.changePassword.submit }));
      await waitFor(() =>
        expect(input(/^New password/)).toHaveAccessibleDescription(expect.stringContaining(HINT)),
      );
      expect(input(/^New password/)).toHaveAttribute('aria-invalid', 'true');
      expect(input(/^New password/)).toHaveFocus();
    }
    expect(m.api.calls.filter((c) => c.src === 'submit')).toEqual([]);

    await fill('Letters-and-digits-2027');
    await m.user.click(screen.getByRole('button', { name: screenTexts.changePassword.submit }));
    await m.api.waiting('submit');
    expect(m.api.lastCall('submit')?.input).toMatchObject({
      newPassword: 'Letters-and-digits-2027',
      confirmNewPassword: 'Letters-and-digits-2027',
    });
  });
});

describe('/profile/change-security-questions', () => {
  const questions = [
    { code: 'DRIVERS_LICENCE', description: 'Driver licence number' },
    { code: 'MEDICARE', description: 'Medicare number' },
  ];

  it('counts an answer after trimming, as the server does: "abc " is too short', async () => {
    const m = await opened(
      mountForcedPage({
        machine: profileFormMachine,
        sources: ['isIdentityVerified', 'submit'],
        route: PROFILE_ROUTES.CHANGE_SECURITY_QUESTIONS,
        entry: PROFILE_ROUTES.CHANGE_SECURITY_QUESTIONS,
        page: <ProfileFormPage spec={securityQuestionsScreen(questions)} />,
        user: users.customer,
      }),
    );
    await m.user.type(await screen.findByLabelText(/^Answer 1/, { selector: 'input' }), 'abc ');
    await m.user.type(input(/^Answer 2/), 'long enough');
    await m.user.type(input(/^Current password/), 'Old-password-1');
    await m.user.click(screen.getByRole('button', { name: screenTexts.changeSecurityQuestions.submit }));
    await waitFor(() =>
      expect(input(/^Answer 1/)).toHaveAccessibleDescription(
        expect.stringContaining('Size cannot be less than 4'),
      ),
    );
    expect(m.api.calls.filter((c) => c.src === 'submit')).toEqual([]);

    await m.user.type(input(/^Answer 1/), 'd');
    await m.user.click(screen.getByRole('button', { name: screenTexts.changeSecurityQuestions.submit }));
    await m.api.waiting('submit');
    expect(m.api.lastCall('submit')?.input).toMatchObject({
      question1: 'DRIVERS_LICENCE',
      answer1: 'abc d',
      question2: 'MEDICARE',
      answer2: 'long enough',
    });
  });
});

/**
 * Name (max 100) and phone (max 20) as section 5 and the server count them: trimmed first, then
 * required, then the length. Spaces around the text are not counted.
 */
describe('/profile/change-name and /profile/change-phone: lengths counted after trimming', () => {
  function mountScreen(spec: ProfileFormSpec, route: string) {
    return opened(
      mountForcedPage({
        machine: profileFormMachine,
        sources: ['isIdentityVerified', 'submit'],
        route,
        entry: route,
        page: <ProfileFormPage spec={spec} />,
        user: users.customer,
      }),
    );
  }

  /** Replaces the field's text as one paste (a long text typed key by key is slow in jsdom). */
  async function enterText(m: ReturnType<typeof mountForcedPage>, label: RegExp, text: string) {
    await m.user.clear(input(label));
    if (text !== '') {
      await m.user.click(input(label));
      await m.user.paste(text);
    }
  }

  async function submitRefused(m: ReturnType<typeof mountForcedPage>, label: RegExp, submit: string) {
    await m.user.click(screen.getByRole('button', { name: submit }));
    await waitFor(() => expect(input(label)).toHaveAttribute('aria-invalid', 'true'));
    expect(input(label)).toHaveFocus();
    expect(m.api.calls.filter((c) => c.src === 'submit')).toEqual([]);
  }

  it('name: 100 characters padded with spaces is sent; 101 characters, or only spaces, are refused at the field', async () => {
    const t = screenTexts.changeName;
    const m = await mountScreen(profileFormScreens.changeName, PROFILE_ROUTES.CHANGE_NAME);
    await screen.findByLabelText(/^Name/, { selector: 'input' });
    await m.user.type(input(/^Current password/), 'Old-password-1');

    await enterText(m, /^Name/, 'N'.repeat(101));
    await submitRefused(m, /^Name/, t.submit);
    expect(input(/^Name/)).toHaveAccessibleDescription(
      expect.stringContaining('Size cannot be greater than 100'),
    );

    await enterText(m, /^Name/, '     ');
    await submitRefused(m, /^Name/, t.submit);
    expect(input(/^Name/)).toHaveAccessibleDescription(expect.stringContaining('Required field'));

    const padded = `  ${'N'.repeat(100)}  `;
    await enterText(m, /^Name/, padded);
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await m.api.waiting('submit');
    expect(input(/^Name/)).not.toHaveAttribute('aria-invalid', 'true');
    expect(String((m.api.lastCall('submit')?.input as { name: string }).name).trim()).toBe('N'.repeat(100));
  });

  it('phone: 20 characters padded with spaces is sent; 21 characters are refused at the field', async () => {
    const t = screenTexts.changePhone;
    const m = await mountScreen(profileFormScreens.changePhone, PROFILE_ROUTES.CHANGE_PHONE);
    await screen.findByLabelText(/^Phone/, { selector: 'input' });
    await m.user.type(input(/^Current password/), 'Old-password-1');

    const phone = '+64 2 8888 8888 0000';
    expect(phone).toHaveLength(20);
    await enterText(m, /^Phone/, `${phone}1`);
    await submitRefused(m, /^Phone/, t.submit);
    expect(input(/^Phone/)).toHaveAccessibleDescription(
      expect.stringContaining('Size cannot be greater than 20'),
    );

    await enterText(m, /^Phone/, `   ${phone}   `);
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await m.api.waiting('submit');
    expect(input(/^Phone/)).not.toHaveAttribute('aria-invalid', 'true');
    expect(String((m.api.lastCall('submit')?.input as { phone: string }).phone).trim()).toBe(phone);
  });
});

describe('/profile/change-date-of-birth', { timeout: 30_000 }, () => {
  const t = screenTexts.changeDateOfBirth;
  const dateInput = () => input(/^Date of birth/);

  async function mountDateOfBirth() {
    const m = await opened(
      mountForcedPage({
        machine: profileFormMachine,
        sources: ['isIdentityVerified', 'submit'],
        route: PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH,
        entry: PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH,
        page: <ProfileFormPage spec={profileFormScreens.changeDateOfBirth} />,
        user: { ...users.customer, birthDate: '1980-01-01' },
      }),
    );
    await screen.findByLabelText(/^Date of birth/, { selector: 'input' });
    return m;
  }

  async function typeDate(m: Awaited<ReturnType<typeof mountDateOfBirth>>, text: string) {
    await m.user.clear(dateInput());
    await m.user.type(dateInput(), text);
    await m.user.tab();
  }

  /** The field is invalid and described by its error, in a live region; the typed text stays. */
  async function expectRefused(message: string, typed: string) {
    await waitFor(() => expect(dateInput()).toHaveAccessibleDescription(expect.stringContaining(message)));
    expect(dateInput()).toHaveAttribute('aria-invalid', 'true');
    expect(dateInput()).toHaveValue(typed);
    const error = screen.getByText(message);
    expect(error.closest('[aria-live]')).not.toBeNull();
  }

  it("takes a typed 'DD Mon YYYY' as well as YYYY-MM-DD, shown in the field's own format", async () => {
    const m = await mountDateOfBirth();
    // The field says which forms it reads.
    expect(dateInput()).toHaveAccessibleDescription(expect.stringContaining(t.hint));
    await typeDate(m, '17 May 1990');
    await waitFor(() => expect(dateInput()).toHaveValue('1990-05-17'));
    expect(dateInput()).not.toHaveAttribute('aria-invalid', 'true');
    await m.user.type(input(/^Current password/), 'Old-password-1');
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await m.api.waiting('submit');
    expect(m.api.lastCall('submit')?.input).toMatchObject({ birthDate: '1990-05-17' });
  });

  it('takes a typed YYYY-MM-DD', async () => {
    const m = await mountDateOfBirth();
    await typeDate(m, '1975-12-31');
    await waitFor(() => expect(dateInput()).toHaveValue('1975-12-31'));
    await m.user.type(input(/^Current password/), 'Old-password-1');
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await m.api.waiting('submit');
    expect(m.api.lastCall('submit')?.input).toMatchObject({ birthDate: '1975-12-31' });
  });

  it('refuses at the field, on blur and on submit, a date before 1900-01-01, after today, or unreadable', async () => {
    const m = await mountDateOfBirth();
    await m.user.type(input(/^Current password/), 'Old-password-1');
    const today = todayIsoDate();
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    const refused: Array<[string, string]> = [
      ['1899-12-31', 'Value must be greater than or equal to 1900-01-01'],
      ['31 Dec 1899', 'Value must be greater than or equal to 1900-01-01'],
      [todayIsoDate(tomorrow), `Value must be less than or equal to ${today}`],
      ['31 Feb 2000', profileFormTexts.invalidDate],
      ['17/05/1990', profileFormTexts.invalidDate],
    ];
    for (const [typed, message] of refused) {
      await typeDate(m, typed);
      await expectRefused(message, typed);
      await m.user.click(screen.getByRole('button', { name: t.submit }));
      await expectRefused(message, typed);
      expect(dateInput()).toHaveFocus();
    }
    expect(m.api.calls.filter((c) => c.src === 'submit')).toEqual([]);

    // Corrected, the error goes and the date is sent.
    await typeDate(m, '01 Jan 1900');
    await waitFor(() => expect(dateInput()).not.toHaveAttribute('aria-invalid', 'true'));
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await m.api.waiting('submit');
    expect(m.api.lastCall('submit')?.input).toMatchObject({ birthDate: '1900-01-01' });
  });

  it('is still cleared by emptying it', async () => {
    const m = await mountDateOfBirth();
    expect(dateInput()).toHaveValue('1980-01-01');
    await m.user.clear(dateInput());
    await m.user.tab();
    expect(dateInput()).toHaveValue('');
    expect(dateInput()).not.toHaveAttribute('aria-invalid', 'true');
    await m.user.type(input(/^Current password/), 'Old-password-1');
    await m.user.click(screen.getByRole('button', { name: t.submit }));
    await m.api.waiting('submit');
    expect(m.api.lastCall('submit')?.input).toMatchObject({ birthDate: '' });
  });
});
