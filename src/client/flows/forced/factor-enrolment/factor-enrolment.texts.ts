// Every user-visible string of /forced-actions/factor-enrolment (sections 2.6, 5 and 8). Strings
// quoted from the spec are word for word; tests import them from here.
import { fieldTexts } from '../../shared/field.texts';
import { forcedTexts } from '../shared/forced.texts';

export const factorEnrolmentTexts = {
  /** Section 2.6: the heading when MFA is required, and otherwise. */
  headingMfa: 'Multi-factor enrolment',
  headingSecurity: 'Security enrolment',
  email: {
    title: 'Verify your email address',
    instructions: 'Enter the code we sent to your email address.',
    submit: 'Verify',
  },
  selectSms: {
    title: 'Add SMS as a factor',
    instructions:
      'Receive sign-in codes by SMS on your mobile. You can keep using email with security questions instead.',
    mobile: 'Mobile',
    /** Section 5: the mobile's international-format hint. */
    mobileHint: fieldTexts.mobileHint,
    submit: 'Send code',
    chooseEmail: 'Use email instead',
  },
  smsVerification: {
    title: 'Verify your mobile',
    instructions: (mobile: string | null) =>
      mobile
        ? `Enter the code we sent by SMS to ${mobile}.`
        : 'Enter the code we sent by SMS to your mobile.',
    submit: 'Verify',
    changeMobile: 'Change mobile number',
  },
  securityQuestions: {
    title: 'Security questions',
    instructions:
      'Choose two different questions and enter your answers. You may be asked one of them later.',
    question: (n: 1 | 2) => `Question ${n}`,
    answer: (n: 1 | 2) => `Answer ${n}`,
    sameQuestion: 'Choose two different questions',
    submit: 'Finish enrolment',
  },
  ...forcedTexts,
} as const;
