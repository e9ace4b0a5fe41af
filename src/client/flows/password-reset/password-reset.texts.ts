// Every user-visible string of /password-reset (sections 2.4, 4.5, 5 and 8). Strings quoted from
// the spec are word for word; tests import them from here.
import { fieldTexts } from '../shared/field.texts';
import { messages } from '../../../contract/fields';
import { forcedTexts } from '../forced/shared/forced.texts';
import { shellTexts } from '../../app/texts';
import { SMS_ONLY_UNAVAILABLE_MESSAGE } from '../../../contract/reset';

const failedHeading = 'Reset password could not continue';

export const passwordResetTexts = {
  heading: 'Reset password',
  /** Section 2.4, word for word: the heading and the text when the realm does not allow sign-in. */
  unavailableHeading: 'Reset password is unavailable',
  unavailable: 'Reset password is currently unavailable.',
  loading: 'Loading',
  start: {
    title: 'Get started',
    instructions:
      'Enter the email address of your account. If it belongs to an account, we will email you a verification code.',
    email: 'Email',
    captchaAlt: 'Security code image',
    refreshCaptcha: 'Show another security code',
    securityCode: 'Security code',
    submit: 'Send code',
  },
  emailVerification: {
    title: 'Verify your email address',
    instructions: (email: string | null) =>
      email
        ? `If ${email} belongs to an account, we have emailed it a verification code. Enter it below.`
        : 'Enter the code we emailed you.',
    submit: 'Verify',
  },
  userSelection: {
    title: 'Choose your account',
    instructions:
      'Several accounts use this email address. Choose the account whose password you want to reset.',
    legend: 'Account',
    submit: 'Continue',
    required: messages.required,
  },
  authenticatorApp: {
    title: 'Authenticator app',
    instructions: 'Enter the 6-digit code your authenticator app shows now.',
    submit: 'Verify',
  },
  sms: {
    title: 'SMS verification',
    instructions: (mobile: string | null) =>
      mobile
        ? `Enter the code we sent by SMS to ${mobile}.`
        : 'Enter the code we sent by SMS to your mobile.',
    sending: 'Sending a code to your mobile',
    submit: 'Verify',
  },
  /** Section 2.6's skip link, on the authenticator app and SMS screens. */
  skip: "I don't have access",
  securityQuestions: {
    title: 'Security questions',
    instructions: 'Answer your security questions.',
    answer: (question: string) => question,
    submit: 'Verify',
  },
  setPassword: {
    title: 'Set a new password',
    newPassword: 'New password',
    confirmPassword: 'Confirm new password',
    /** Section 5's hint, word for word. */
    hint: messages.passwordHint,
    mismatch: fieldTexts.passwordMismatch,
    submit: 'Reset password',
  },
  /**
   * set-password when SMS is the account's only second factor and it is down: the server's words
   * (it refuses the new password with them), the failed view's heading, and the header's link text
   * for the same page.
   */
  cannotFinish: {
    title: failedHeading,
    message: SMS_ONLY_UNAVAILABLE_MESSAGE,
    signIn: shellTexts.signIn,
  },
  /** Where the wizard ends: the user signs in with the new password. */
  done: 'Your password has been reset. Sign in with your new password.',
  failedHeading,
  startAgain: 'Start again',
  smsUnavailableTitle: forcedTexts.smsUnavailableTitle,
  resent: forcedTexts.resent,
  resendCode: forcedTexts.resendCode,
  resending: forcedTexts.resending,
  progress: forcedTexts.progress,
  percent: forcedTexts.percent,
  code: forcedTexts.code,
  validation: messages,
} as const;
