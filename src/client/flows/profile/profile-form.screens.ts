// The single-step screens of section 2.3 as specs for ProfileFormPage: fields with the contract's
// rules (section 5), texts and toasts (section 8).
import { limits, newPassword, optionalString, requiredString } from '../../../contract/fields';
import { securityAnswer } from '../../../contract/forced';
import { formatIsoDate } from '../../app/format';
import type { ProfileFormSpec } from './ProfileFormPage';
import { PHONE_HINT, profileToasts, screenTexts as s } from './profile.texts';

const passwordTexts = s.changePassword;

export const profileFormScreens = {
  changeName: {
    screen: 'changeName',
    heading: s.changeName.heading,
    submitLabel: s.changeName.submit,
    toast: profileToasts.name,
    lockedWhenVerified: true,
    fields: [
      {
        name: 'name',
        label: s.changeName.label,
        kind: 'text',
        required: true,
        schema: requiredString(limits.name),
        autoComplete: 'name',
        initial: (u) => u.name ?? '',
      },
    ],
    readOnlyValue: (u) => u.name ?? '',
  },
  changePhone: {
    screen: 'changePhone',
    heading: s.changePhone.heading,
    submitLabel: s.changePhone.submit,
    toast: profileToasts.phone,
    intro: s.changePhone.clearHint,
    fields: [
      {
        name: 'phone',
        label: s.changePhone.label,
        kind: 'text',
        required: false,
        schema: optionalString(limits.phone),
        hint: PHONE_HINT,
        autoComplete: 'tel',
        initial: (u) => u.phone ?? '',
      },
    ],
  },
  changeDateOfBirth: {
    screen: 'changeDateOfBirth',
    heading: s.changeDateOfBirth.heading,
    submitLabel: s.changeDateOfBirth.submit,
    toast: profileToasts.dateOfBirth,
    lockedWhenVerified: true,
    fields: [
      {
        name: 'birthDate',
        label: s.changeDateOfBirth.label,
        kind: 'date',
        required: false,
        hint: s.changeDateOfBirth.hint,
        placeholder: s.changeDateOfBirth.placeholder,
        initial: (u) => u.birthDate ?? '',
      },
    ],
    readOnlyValue: (u) => (u.birthDate ? formatIsoDate(u.birthDate) : ''),
  },
  changePassword: {
    screen: 'changePassword',
    heading: passwordTexts.heading,
    submitLabel: passwordTexts.submit,
    toast: profileToasts.password,
    intro: passwordTexts.notice,
    fields: [
      {
        name: 'newPassword',
        label: passwordTexts.newPassword,
        kind: 'password',
        required: true,
        schema: newPassword,
        hint: passwordTexts.hint,
        autoComplete: 'new-password',
      },
      {
        name: 'confirmNewPassword',
        label: passwordTexts.confirmNewPassword,
        kind: 'password',
        required: true,
        autoComplete: 'new-password',
      },
    ],
    validate: (values): Record<string, string> =>
      values.confirmNewPassword && values.newPassword !== values.confirmNewPassword
        ? { confirmNewPassword: passwordTexts.mismatch }
        : {},
  },
  removeMobile: {
    screen: 'removeMobile',
    heading: s.removeMobile.heading,
    submitLabel: s.removeMobile.submit,
    toast: profileToasts.removedMobile,
    intro: s.removeMobile.intro,
    fields: [],
  },
  unenrolSms: {
    screen: 'unenrolSms',
    heading: s.unenrolSms.heading,
    submitLabel: s.unenrolSms.submit,
    toast: profileToasts.disabledSms,
    intro: s.unenrolSms.intro,
    fields: [],
  },
  unenrolAuthenticatorApp: {
    screen: 'unenrolAuthenticatorApp',
    heading: s.unenrolAuthenticatorApp.heading,
    submitLabel: s.unenrolAuthenticatorApp.submit,
    toast: profileToasts.disabledApp,
    intro: s.unenrolAuthenticatorApp.intro,
    fields: [],
  },
} satisfies Record<string, ProfileFormSpec>;

/** Section 3: the questions offered first. */
const DEFAULT_QUESTIONS = ['DRIVERS_LICENCE', 'MEDICARE'] as const;

export function securityQuestionsScreen(
  questions: ReadonlyArray<{ code: string; description: string }>,
): ProfileFormSpec {
  const t = s.changeSecurityQuestions;
  const options = questions.map((q) => ({ value: q.code, label: q.description }));
  const initial = (index: 0 | 1) => () =>
    questions.some((q) => q.code === DEFAULT_QUESTIONS[index])
      ? DEFAULT_QUESTIONS[index]
      : (questions[index]?.code ?? '');
  const answer = (n: number) =>
    ({
      name: `answer${n}`,
      label: t.answer(n),
      kind: 'text',
      required: true,
      schema: securityAnswer,
      autoComplete: 'off',
    }) as const;
  return {
    screen: 'changeSecurityQuestions',
    heading: t.heading,
    submitLabel: t.submit,
    toast: profileToasts.securityQuestions,
    intro: t.intro,
    fields: [
      {
        name: 'question1',
        label: t.question(1),
        kind: 'select',
        required: true,
        options,
        initial: initial(0),
      },
      answer(1),
      {
        name: 'question2',
        label: t.question(2),
        kind: 'select',
        required: true,
        options,
        initial: initial(1),
      },
      answer(2),
    ],
    validate: (values): Record<string, string> =>
      values.question1 && values.question1 === values.question2 ? { question2: t.sameQuestion } : {},
  };
}
