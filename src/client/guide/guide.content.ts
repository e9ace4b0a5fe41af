// The user guide's content (section 1's topics). Step names, button labels and field texts are
// imported from the texts modules the screens themselves use, so the guide cannot drift from the
// product: rename a button there and the guide follows.
import { limits, messages } from '../../contract/fields';
import { idleWarningTexts } from '../app/idle-warning/idle-warning.texts';
import { reenterPasswordTexts } from '../app/reenter-password/reenter-password.texts';
import { changeExpiredPasswordTexts } from '../flows/forced/change-expired-password/change-expired-password.texts';
import { factorEnrolmentTexts } from '../flows/forced/factor-enrolment/factor-enrolment.texts';
import { mergeAccountsTexts } from '../flows/forced/merge-accounts/merge-accounts.texts';
import { mfaTexts } from '../flows/forced/mfa/mfa.texts';
import { forcedTexts } from '../flows/forced/shared/forced.texts';
import { selectFacilityTexts } from '../flows/forced/select-facility/select-facility.texts';
import { passwordResetTexts } from '../flows/password-reset/password-reset.texts';
import { screenTexts, wizardTexts } from '../flows/profile/profile.texts';
import { registrationTexts } from '../flows/registration/registration.texts';
import { signInTexts } from '../flows/sign-in/sign-in.texts';
import { profileTexts, signOutAllTexts } from '../pages/profile.texts';
import type { GuideTopic } from './guide.types';

const q = (label: string) => `'${label}'`;
/** The hint in mid-sentence: only its first letter lower-cased, so 'C99999' keeps its capital. */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const signIn = signInTexts;
const reset = passwordResetTexts;
const reg = registrationTexts;
const enrol = factorEnrolmentTexts;
const merge = mergeAccountsTexts;

export const guideTopics: readonly GuideTopic[] = [
  {
    id: 'sso-and-mfa',
    heading: 'Single sign-on and multi-factor authentication',
    intro: [
      'The portal is where you sign in to the bank’s business applications. This part explains the ideas the rest of the guide relies on.',
    ],
    sections: [
      {
        id: 'what-is-sso',
        heading: 'What single sign-on is',
        level: 3,
        paragraphs: [
          'Single sign-on (SSO) means you sign in once, at the portal, and then move to the business applications you have access to without signing in again.',
          `After signing in, the ${q('Applications')} page lists a card for each application and facility you can use. Select a card to hand off to it; a middle click or Ctrl click opens it in a new window.`,
        ],
      },
      {
        id: 'what-is-mfa',
        heading: 'What multi-factor authentication is',
        level: 3,
        paragraphs: [
          'Multi-factor authentication (MFA) asks for a second proof besides your password: a code from an authenticator app, a code sent by SMS to your mobile, or a code sent to your email address together with your security questions.',
          'Someone who learns your password still cannot sign in as you without that second factor.',
        ],
      },
      {
        id: 'mfa-authenticator-app',
        heading: profileTexts.factorNames.AUTHENTICATOR_APP,
        level: 4,
        paragraphs: [
          'An authenticator app on your phone shows a 6-digit code for your account that changes every 30 seconds. Enter the code the app shows at the moment you are asked.',
        ],
      },
      {
        id: 'mfa-sms',
        heading: 'SMS codes',
        level: 4,
        paragraphs: [
          'With SMS as a factor, the portal sends a one-time code to your mobile whenever it needs one. A code is valid for 10 minutes and can be used once.',
          `If the code has not arrived within a few minutes, select ${q(forcedTexts.resendCode)} and a new code is sent.`,
        ],
      },
      {
        id: 'mfa-email',
        heading: 'Email and security questions',
        level: 4,
        paragraphs: [
          'When your account needs a verification code at sign-in and has no authenticator app or SMS, the code is sent to your email address. Your security questions are asked when you reset your password.',
        ],
      },
      {
        id: 'trusted-devices',
        heading: profileTexts.trustedDevices,
        level: 3,
        paragraphs: [
          `Trusted devices are browsers you chose to trust when you entered a verification code, by ticking ${q(mfaTexts.trustDevice(mfaTexts.period(1)))} or ${q(mfaTexts.trustDevice(mfaTexts.period(7)))} (the period is the one your organisation chose). Sign-ins from a trusted browser skip the verification code until the period ends.`,
          'Do not trust a shared or public computer. You can see and remove your trusted devices on your profile.',
        ],
      },
    ],
  },
  {
    id: 'sign-in',
    heading: signIn.heading,
    intro: ['Sign in at the portal’s home page with the username and password of your account.'],
    sections: [
      {
        id: 'signing-in',
        screenshot: 'sign-in',
        heading: 'Signing in with your username and password',
        level: 3,
        paragraphs: [
          `Enter your ${signIn.username} and ${signIn.password}, then select ${q(signIn.submit)}. If ${q(signIn.capsLockOn)} appears under the password, Caps Lock would change what you type.`,
        ],
      },
      {
        id: 'security-code-image',
        heading: 'Security code image',
        level: 4,
        paragraphs: [
          `After ${limits.failedSignInsBeforeCaptcha} failed attempts the page also asks for a ${signIn.securityCode}: type the characters the image shows. If you cannot read them, ask for a new image.`,
        ],
      },
      {
        id: 'sign-in-steps',
        heading: 'Steps during sign-in',
        level: 3,
        paragraphs: [
          'Your password is sometimes not the last step. The portal may ask you to do one of these first, and then continues the sign-in where you were going.',
        ],
        list: [
          `${q(changeExpiredPasswordTexts.heading)}: your password has expired and you choose a new one.`,
          `${q(enrol.headingMfa)} or ${q(enrol.headingSecurity)}: you set up a factor and your security questions.`,
          `${q(mfaTexts.heading.AUTHENTICATOR_APP)}, ${q(mfaTexts.heading.SMS)} or ${q(mfaTexts.heading.EMAIL)}: you enter a one-time code.`,
          `${q(merge.notice.heading)}: several accounts share your email address (see Merging duplicate accounts).`,
          `${q(selectFacilityTexts.heading)}: you choose the facility to continue to.`,
        ],
      },
      {
        id: 'verification-code',
        heading: 'Entering a verification code',
        level: 4,
        paragraphs: [
          `Enter the code and select ${q(mfaTexts.verify)}. If you cannot use the authenticator app or your mobile right now, select ${q(mfaTexts.noAccess)} to verify another way.`,
        ],
      },
      {
        id: 'factor-enrolment',
        heading: 'Setting up your factors',
        level: 4,
        paragraphs: [
          `When your account has no factor yet, you first verify your email address (${q(enrol.email.title)}), then may add your mobile (${q(enrol.selectSms.title)}), and finally choose your ${enrol.securityQuestions.title.toLowerCase()}.`,
        ],
      },
      {
        id: 'staying-signed-in',
        heading: 'Staying signed in',
        level: 3,
        paragraphs: [
          `For your security the portal signs you out after a while without use. Two minutes before, it asks ${q(idleWarningTexts.title)} and says at what time: select ${q(idleWarningTexts.staySignedIn)} to carry on, or ${q(idleWarningTexts.signOut)}.`,
          `Some pages (access requests, administration) and handing off to an application also need your password to have been entered recently. When it was not, the portal asks for it in ${q(reenterPasswordTexts.title)} and then carries on where you were.`,
        ],
      },
    ],
  },
  {
    id: 'registration',
    heading: 'Registration from an invitation',
    intro: [
      `An invitation email gives you an invitation code. On the sign-in page select ${q(signIn.registerLink)} to open ${q(reg.heading)}.`,
    ],
    sections: [
      {
        id: 'registration-start',
        screenshot: 'registration',
        heading: reg.start.title,
        level: 3,
        paragraphs: [
          `${reg.start.instructions} Type the characters of the security code image too, then select ${q(reg.start.submit)}.`,
        ],
      },
      {
        id: 'registration-details',
        heading: reg.details.title,
        level: 3,
        paragraphs: [
          `Check your ${reg.details.username.toLowerCase()} and ${reg.details.name.toLowerCase()}. A customer username ${lowerFirst(reg.details.customerHint)}.`,
        ],
      },
      {
        id: 'registration-factors',
        heading: 'Choosing your factors',
        level: 3,
        paragraphs: [
          `${q(reg.authenticator.title)}: scan the QR code or type the ${reg.authenticator.setupKey.toLowerCase()}, then enter the code the app shows. You can instead select ${q(reg.authenticator.chooseSms)} or ${q(reg.authenticator.chooseEmail)}.`,
          `With SMS, enter your mobile, select ${q(enrol.selectSms.submit)} and enter the code from the SMS. If it has not arrived within a few minutes, select ${q(forcedTexts.resendCode)}.`,
        ],
      },
      {
        id: 'registration-security-questions',
        heading: 'Security questions at registration',
        level: 4,
        paragraphs: [
          `Choose two different questions and answer each in ${limits.answerMin} to ${limits.answerMax} characters. One of them may be asked when you reset your password.`,
        ],
      },
      {
        id: 'registration-password',
        heading: reg.setPassword.title,
        level: 3,
        paragraphs: [
          `Enter your ${reg.setPassword.password.toLowerCase()} and repeat it in ${q(reg.setPassword.confirmPassword)}, then select ${q(reg.setPassword.submit)}. You are then signed in.`,
        ],
      },
      {
        id: 'registration-existing-account',
        heading: reg.verifyIdentity.title,
        level: 3,
        paragraphs: [
          `If you already have an account, the invitation is added to it: enter that account’s username and password and select ${q(reg.verifyIdentity.submit)}.`,
          reg.verifyIdentity.help,
        ],
      },
    ],
  },
  {
    id: 'password-reset',
    heading: 'Password reset',
    intro: [
      `If you have forgotten your password, select ${q(signIn.problemsLink)} on the sign-in page to open ${q(reset.heading)}.`,
    ],
    sections: [
      {
        id: 'reset-start',
        screenshot: 'password-reset',
        heading: reset.start.title,
        level: 3,
        paragraphs: [
          `Enter the email address of your account and the characters of the security code image, then select ${q(reset.start.submit)}.`,
        ],
      },
      {
        id: 'reset-email',
        heading: reset.emailVerification.title,
        level: 3,
        paragraphs: [
          `Enter the code we emailed you and select ${q(reset.emailVerification.submit)}. If several accounts use your email address, ${q(reset.userSelection.title)} asks which one to reset.`,
        ],
      },
      {
        id: 'reset-verify',
        heading: 'Proving it is you',
        level: 3,
        paragraphs: [
          `Next you verify with the factors of the account: ${q(reset.authenticatorApp.title)}, ${q(reset.sms.title)} or ${q(reset.securityQuestions.title)}. If an SMS code has not arrived within a few minutes, select ${q(forcedTexts.resendCode)}.`,
          'When SMS codes cannot be sent and your account has no authenticator app or security questions, the password cannot be reset until they can: the page says so before you choose a new password. Try again later, or call the helpdesk.',
        ],
      },
      {
        id: 'reset-set-password',
        heading: reset.setPassword.title,
        level: 3,
        paragraphs: [
          `Enter the ${reset.setPassword.newPassword.toLowerCase()}, repeat it in ${q(reset.setPassword.confirmPassword)} and select ${q(reset.setPassword.submit)}. ${reset.done}`,
        ],
      },
    ],
  },
  {
    id: 'merge-accounts',
    heading: 'Merging duplicate accounts',
    intro: [
      `When several accounts share your email address, the sign-in shows ${q(merge.notice.heading)}. The merge wizard joins the accounts that are yours into one.`,
    ],
    sections: [
      {
        id: 'merge-start',
        screenshot: 'merge-accounts',
        heading: 'Starting or skipping the merge',
        level: 3,
        paragraphs: [
          `Select ${q(merge.notice.startMerge)} to begin. ${q(merge.notice.skip)} is available only for a limited time: until then you can continue signing in and are asked again at your next sign-in.`,
        ],
      },
      {
        id: 'merge-select-accounts',
        heading: merge.selectAccounts.title,
        level: 4,
        paragraphs: [
          `${merge.selectAccounts.instructions} Then select ${q(merge.selectAccounts.next)}.`,
          merge.selectAccounts.idvConflict,
        ],
      },
      {
        id: 'merge-change-email',
        heading: `${merge.changeEmail.title} while merging`,
        level: 4,
        paragraphs: [
          `If some accounts are not yours, your account needs an email address of its own. ${merge.changeEmail.instructions} Then enter the code in ${q(merge.emailVerification.title)}.`,
        ],
      },
      {
        id: 'merge-preferred-username',
        heading: merge.choosePreferredUsername.title,
        level: 4,
        paragraphs: [merge.choosePreferredUsername.instructions],
      },
      {
        id: 'merge-confirmation',
        heading: merge.confirmation.title,
        level: 4,
        paragraphs: [
          `${merge.confirmation.instructions} Select ${q(merge.confirmation.merge)}; ${q(merge.completed.title)} then names the username to sign in with, and ${q(merge.completed.continue)} continues the sign-in.`,
          'Your authenticator app, SMS and security questions stay with the account whose username you keep; those of the other accounts are removed with them. If the account you keep then has none and needs them, you are asked to set them up.',
        ],
      },
    ],
  },
  {
    id: 'email-change',
    heading: 'The email-change wizard',
    intro: [
      `On your profile, ${q(profileTexts.edit(profileTexts.email))} opens ${q(wizardTexts.headings.changeEmail)}, a wizard of two steps.`,
    ],
    sections: [
      {
        id: 'email-change-details',
        heading: 'New email address',
        level: 3,
        paragraphs: [
          `Step 1: enter the ${wizardTexts.newEmail.toLowerCase()} and your current password, then select ${q(wizardTexts.next)}.`,
        ],
      },
      {
        id: 'email-change-verification',
        heading: 'Email verification code',
        level: 3,
        paragraphs: [
          `Step 2: we send a 6-digit code to the new address. Enter it and select ${q(wizardTexts.verify)}. ${q(wizardTexts.cancel)} leaves your email as it was.`,
        ],
      },
    ],
  },
  {
    id: 'profile',
    heading: 'Changing your profile',
    screenshot: 'profile',
    intro: [
      `${q(profileTexts.heading)} shows your personal details, your factors and your trusted devices. Changes to your details, your password and your factors ask for your current password.`,
    ],
    sections: [
      {
        id: 'profile-name',
        heading: screenTexts.changeName.heading,
        level: 3,
        paragraphs: [
          `Enter your name (at most ${limits.name} characters) and select ${q(screenTexts.changeName.submit)}. A name that was identity verified cannot be changed here: visit a branch.`,
        ],
      },
      {
        id: 'profile-email',
        heading: wizardTexts.headings.changeEmail,
        level: 3,
        paragraphs: ['Your email address is changed with the email-change wizard described above.'],
      },
      {
        id: 'profile-mobile',
        heading: wizardTexts.headings.changeMobile,
        level: 3,
        paragraphs: [
          `Enter the new mobile (${wizardTexts.mobileHint}), then the code we send to it by SMS. If it has not arrived within a few minutes, select ${q(forcedTexts.resendCode)}. ${q(screenTexts.removeMobile.heading)} removes it.`,
        ],
      },
      {
        id: 'profile-phone',
        heading: screenTexts.changePhone.heading,
        level: 3,
        paragraphs: [`${screenTexts.changePhone.clearHint} Select ${q(screenTexts.changePhone.submit)}.`],
      },
      {
        id: 'profile-password',
        heading: screenTexts.changePassword.heading,
        level: 3,
        paragraphs: [
          `Enter the ${screenTexts.changePassword.newPassword.toLowerCase()} and repeat it in ${q(screenTexts.changePassword.confirmNewPassword)}. ${screenTexts.changePassword.notice}`,
        ],
      },
      {
        id: 'profile-authenticator-app',
        heading: 'Authenticator app factor',
        level: 3,
        paragraphs: [
          `${q(wizardTexts.headings.enrolAuthenticatorApp)} shows a QR code and a ${wizardTexts.setupKey.toLowerCase()} for your app; then you enter the code it shows. ${q(wizardTexts.headings.changeAuthenticatorApp)} moves the factor to a new app. ${wizardTexts.changeAppNotice}`,
          `${q(screenTexts.unenrolAuthenticatorApp.heading)} turns it off.`,
        ],
      },
      {
        id: 'profile-sms',
        heading: 'SMS factor',
        level: 3,
        paragraphs: [
          `${q(wizardTexts.headings.enrolSms)} sends a code to your mobile to confirm it. ${q(screenTexts.unenrolSms.heading)} turns it off: ${screenTexts.unenrolSms.intro}`,
        ],
      },
      {
        id: 'profile-security-questions',
        heading: screenTexts.changeSecurityQuestions.heading,
        level: 3,
        paragraphs: [
          `${screenTexts.changeSecurityQuestions.intro} Answers need ${limits.answerMin} to ${limits.answerMax} characters.`,
        ],
      },
      {
        id: 'profile-trusted-devices',
        heading: 'Managing trusted devices',
        level: 3,
        paragraphs: [
          `The trusted-devices table shows each browser, its operating system, location and when it was last active. ${q(profileTexts.deleteDevice)} forgets one device; ${q(profileTexts.clearAll)} forgets them all.`,
          `${q(signOutAllTexts.title)} signs you out everywhere. ${signOutAllTexts.ownIntro}`,
        ],
      },
    ],
  },
  {
    id: 'password-policy',
    heading: 'Password policy',
    intro: [
      'The same rules apply when you register, reset your password, change an expired password and change it on your profile.',
    ],
    sections: [
      {
        id: 'password-rules',
        heading: 'Password rules',
        level: 3,
        paragraphs: [
          `The help text under the password field says: ${messages.passwordHint}. Common and easily guessed passwords are refused, and the reason is shown under the field.`,
        ],
      },
      {
        id: 'password-repeat',
        heading: 'Repeating the new password',
        level: 3,
        paragraphs: [
          `The new password must be repeated in ${q(changeExpiredPasswordTexts.confirmPassword)} (or ${q(reg.setPassword.confirmPassword)} at registration). If the two differ the form says ${q(reset.setPassword.mismatch)} and nothing changes.`,
        ],
      },
    ],
  },
];
