/**
 * Registration from an invitation (sections 2.5 and 4.6), under /registration, heading 'Registration'.
 * The invite is held from start until submission; without it no later step can be reached (a deep
 * link or reload lands on start, whose address is /registration).
 *
 *   start ('', 10): preparing (clears the current user; sms-gateway-status, questions)
 *       --done--> form --user.start--> starting
 *       --done[isRefused] / storeRefusal, refreshCaptcha--> form
 *       --done[isExistingIdentity] / storeInvite--> verifyIdentity
 *       --done / storeInvite--> collectDetails
 *     form --user.refreshCaptcha / refreshCaptcha--> form
 *   collectDetails (collect-details, 20): form --user.submitDetails--> submitting
 *       --done[isRefused]--> form    --done / storeInvite--> selectAuthenticatorApp
 *   selectAuthenticatorApp (select-authenticator-app-factor, 40): loading (QR code, setup key) --> form
 *     form --user.scanned--> authenticatorAppVerification
 *     form --user.chooseSms[smsGatewayAvailable]--> selectSms
 *     form --user.chooseSms / noteSmsUnavailable--> securityQuestions
 *     form --user.chooseEmail--> enrollingEmail --done--> securityQuestions
 *   authenticatorAppVerification (authenticator-app-verification, 40): form --user.verify--> verifying
 *       --done[isRefused]--> form   --done[smsGatewayAvailable]--> selectSms
 *       --done / noteSmsUnavailable--> securityQuestions
 *     form --route.changed[isSelectAuthenticatorRoute]--> selectAuthenticatorApp (back)
 *   selectSms (select-sms-factor, 60): form --user.enrolSms--> enrolling
 *       --done[isUnavailable] 503 / storeSmsUnavailable--> securityQuestions
 *       --done[isRefused]--> form    --done / storeMobile--> smsVerification
 *     form --user.chooseEmail--> securityQuestions
 *   smsVerification (sms-verification, 60): form --user.verify--> verifying
 *       --done[isRefused]--> form    --done--> securityQuestions
 *     form --user.resend[mayResend]--> resending --done[isSent] / announceResent--> form
 *       --done[isUnavailable] / storeSmsUnavailable--> securityQuestions   --done / storeResendRefusal--> form
 *     form --route.changed[isSelectSmsRoute]--> selectSms (back, to change the number)
 *   securityQuestions (security-questions, 80): form --user.submitQuestions--> submitting
 *       --done[isRefused]--> form    --done--> setPassword
 *   setPassword (set-password, 100): form --user.submitPassword--> submitting
 *       --done[isRefused]--> form    --done / storeOutcome, clearInvite--> continuing
 *   verifyIdentity (verify-identity, 100): form --user.submitExisting--> submitting
 *       --done[isRefused] 422 (help text)--> form    --done / storeOutcome, clearInvite--> continuing
 *   continuing (invokes continue-sign-in) --done[continuationFailed]--> failed  --done--> done (final)
 *   any state --user.cancel--> cancelled (final: sign-in)
 *   any state --route.changed[isStartRoute]--> start (over again: the invite is dropped)
 *   any unexpected failure --> failed
 */
import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { inviteeEntersName } from '../../src/contract/admin';
import { continueSignInMachine } from '../forced/continue-sign-in/continue-sign-in.machine';
import { messageOf, provided, required } from '../forced/continue-sign-in/forced-step';
import { REGISTRATION_ROUTE, REGISTRATION_STEPS, SIGN_IN_ROUTE } from '../routes';
import type { FlowStateMeta } from '../shared/flow.types';
import { continuingState } from '../shared/continuation-steps';
import { failTo, outputOf } from '../shared/invoke-basics';
import { submittingState } from '../shared/invoke-steps';
import { enrollingSmsState, smsVerificationStates } from '../shared/sms-enrolment';
import type {
  AuthenticatorSetup,
  CodeCheckResult,
  ContinueSignInOutput,
  DetailsInput,
  EnrolSmsResult,
  ExistingAccountInput,
  InviteDetails,
  InviteResult,
  OutcomeResult,
  PasswordInput,
  Refusal,
  RegistrationCodeChannel,
  RegistrationContext,
  RegistrationEvent,
  RegistrationFacts,
  RegistrationInput,
  RegistrationOutput,
  ResendResult,
  SecurityQuestionsInput,
  StartInput,
  StepResult,
} from './registration.types';

/** Section 8: the alert when SMS cannot be enrolled now. */
export const SMS_UNAVAILABLE_MESSAGE =
  'SMS verification codes are currently unavailable. You may try to enrol mobile as a factor at a later date.';

const step = (route: string, progress: number, description: string): FlowStateMeta => ({
  route,
  progress,
  description,
});

/** The step of an address under /registration ('' for the base itself). */
const stepOf = (path: string): string | null => {
  if (path === REGISTRATION_ROUTE || path === `${REGISTRATION_ROUTE}/`) return REGISTRATION_STEPS.START;
  return path.startsWith(`${REGISTRATION_ROUTE}/`)
    ? path.slice(REGISTRATION_ROUTE.length + 1).replace(/\/$/, '')
    : null;
};

const routeIs =
  (wanted: string) =>
  ({ event }: { event: RegistrationEvent }) => {
    assertEvent(event, 'route.changed');
    return stepOf(event.path) === wanted;
  };

/** The input of a code check: the code of the user.verify event, on `channel`. */
const codeInput =
  (channel: RegistrationCodeChannel) =>
  ({ event }: { event: RegistrationEvent }): { channel: RegistrationCodeChannel; code: string } => {
    assertEvent(event, 'user.verify');
    return { channel, code: event.code };
  };

/** A submission accepted: the outcome is kept, the invite dropped (section 4.6), sign-in continues. */
const toContinuing = () =>
  ({
    target: '#registration.continuing',
    actions: [{ type: 'storeOutcome', params: outputOf }, 'dropInvite'],
  }) as const;

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as RegistrationInput,
    output: {} as RegistrationOutput,
  },
  actors: {
    prepareRegistration: fromPromise<RegistrationFacts>(provided('prepareRegistration')),
    startRegistration: fromPromise<InviteResult, StartInput>(provided('startRegistration')),
    collectDetails: fromPromise<InviteResult, DetailsInput>(provided('collectDetails')),
    loadAuthenticatorSetup: fromPromise<AuthenticatorSetup>(provided('loadAuthenticatorSetup')),
    verifyCode: fromPromise<CodeCheckResult, { channel: RegistrationCodeChannel; code: string }>(
      provided('verifyCode'),
    ),
    enrolEmail: fromPromise<void>(provided('enrolEmail')),
    enrolSms: fromPromise<EnrolSmsResult, { mobile: string }>(provided('enrolSms')),
    resendCode: fromPromise<ResendResult>(provided('resendCode')),
    enrolSecurityQuestions: fromPromise<StepResult, SecurityQuestionsInput>(
      provided('enrolSecurityQuestions'),
    ),
    submitNew: fromPromise<OutcomeResult, PasswordInput>(provided('submitNew')),
    submitExisting: fromPromise<OutcomeResult, ExistingAccountInput>(provided('submitExisting')),
    continueSignIn: continueSignInMachine,
  },
  guards: {
    isRefused: (_, result: { type: string }) => result.type === 'refused',
    isUnavailable: (_, result: { type: string }) => result.type === 'unavailable',
    isSent: (_, result: ResendResult) => result.type === 'sent',
    isExistingIdentity: (_, result: InviteResult) =>
      result.type === 'invite' && result.invite.existingIdentity,
    smsGatewayAvailable: ({ context }) => context.isSmsGatewayAvailable,
    /** Section 8: after a refused resend the link is disabled until another screen. */
    mayResend: ({ context }) => context.resendRefusal === null,
    isStartRoute: routeIs(REGISTRATION_STEPS.START),
    isSelectAuthenticatorRoute: routeIs(REGISTRATION_STEPS.SELECT_AUTHENTICATOR_APP_FACTOR),
    isSelectSmsRoute: routeIs(REGISTRATION_STEPS.SELECT_SMS_FACTOR),
    continuationFailed: (_, output: ContinueSignInOutput) => output.kind === 'failed',
  },
  actions: {
    /** Provided by the app: the portal forgets the user the server has just signed out. */
    forgetCurrentUser: () => {},
    storeFacts: assign((_, facts: RegistrationFacts) => ({
      isSmsGatewayAvailable: facts.isSmsGatewayAvailable,
      questions: facts.questions,
    })),
    /** Start (again): nothing of an earlier invite stays. */
    clearInvite: assign({
      invite: null,
      usernameEditable: false,
      nameEditable: false,
      authenticator: null,
      mobile: null,
      smsUnavailableMessage: null,
      outcome: null,
    }),
    storeInvite: assign(({ context }, result: InviteResult) => {
      if (result.type !== 'invite') return {};
      const invite: InviteDetails = result.invite;
      // Editability is decided by the invitation as it was at start, not by what was collected.
      const first = context.invite === null;
      return {
        invite,
        usernameEditable: first ? invite.username === null : context.usernameEditable,
        nameEditable: first ? inviteeEntersName(invite) : context.nameEditable,
      };
    }),
    /** Section 4.6: submission clears the invite. */
    dropInvite: assign({ invite: null }),
    refreshCaptcha: assign(({ context }) => ({ captchaDraw: context.captchaDraw + 1 })),
    storeSetup: assign((_, setup: AuthenticatorSetup) => ({ authenticator: setup })),
    noteSmsUnavailable: assign({ smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE }),
    /** 503: the customer message is stored; section 8's text when there is none. */
    storeSmsUnavailable: assign((_, result: { type: string; message?: string }) => ({
      smsUnavailableMessage:
        result.type === 'unavailable' && result.message ? result.message : SMS_UNAVAILABLE_MESSAGE,
    })),
    forgetRefusals: assign({ refusal: null, resendRefusal: null }),
    forgetRefusal: assign({ refusal: null }),
    storeRefusal: assign(
      (_, result: { type: string; message?: string; fieldErrors?: Refusal['fieldErrors'] }) => ({
        refusal:
          result.type === 'refused'
            ? { message: result.message ?? '', fieldErrors: result.fieldErrors ?? [] }
            : null,
      }),
    ),
    storeMobile: assign((_, result: EnrolSmsResult) => ({
      mobile: result.type === 'enrolled' ? result.mobile : null,
    })),
    /** Provided by the app: the success toast 'Resent SMS verification code'. */
    announceResent: () => {},
    storeResendRefusal: assign((_, result: ResendResult) => ({
      resendRefusal: result.type === 'sent' ? null : result.message,
    })),
    storeOutcome: assign((_, result: OutcomeResult) => ({
      outcome: result.type === 'outcome' ? result.outcome : null,
    })),
    storeHandover: assign((_, output: ContinueSignInOutput) => ({
      handover: output.kind === 'failed' ? null : output,
    })),
    reportContinuationFailure: assign((_, output: ContinueSignInOutput) => ({
      errorMessage: output.kind === 'failed' ? output.message : null,
    })),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => ({
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    isSmsGatewayAvailable: false,
    questions: [],
    captchaDraw: 0,
    invite: null,
    usernameEditable: false,
    nameEditable: false,
    authenticator: null,
    mobile: null,
    smsUnavailableMessage: null,
    refusal: null,
    resendRefusal: null,
    outcome: null,
    handover: null,
    errorMessage: null,
  }),
  initial: 'start',
  output: ({ event }) => event.output as RegistrationOutput,
  on: {
    'user.cancel': { target: '.cancelled' },
    'route.changed': { guard: 'isStartRoute', target: '.start' },
  },
  states: {
    start: {
      meta: step(REGISTRATION_STEPS.START, 10, 'Email, invitation code and security code.'),
      initial: 'preparing',
      entry: ['forgetRefusals', 'clearInvite'],
      states: {
        preparing: {
          meta: { description: 'Clears the current user; reads the SMS gateway status and the questions.' },
          invoke: {
            id: 'prepareRegistration',
            src: 'prepareRegistration',
            onDone: {
              target: 'form',
              actions: ['forgetCurrentUser', { type: 'storeFacts', params: ({ event }) => event.output }],
            },
            onError: failTo('#registration.failed'),
          },
        },
        form: {
          meta: { description: 'The start form with its captcha image.' },
          on: {
            'user.start': { target: 'starting', actions: 'forgetRefusal' },
            'user.refreshCaptcha': { actions: 'refreshCaptcha' },
          },
        },
        starting: {
          meta: { description: 'Checking the invitation (and the security code).' },
          invoke: {
            id: 'startRegistration',
            src: 'startRegistration',
            input: ({ event }) => {
              assertEvent(event, 'user.start');
              return { email: event.email, inviteCode: event.inviteCode, captchaCode: event.captchaCode };
            },
            onDone: [
              {
                guard: { type: 'isRefused', params: ({ event }) => event.output },
                target: 'form',
                // Section 8: the captcha is refreshed on a failed registration start.
                actions: [{ type: 'storeRefusal', params: ({ event }) => event.output }, 'refreshCaptcha'],
              },
              {
                guard: { type: 'isExistingIdentity', params: ({ event }) => event.output },
                target: '#registration.verifyIdentity',
                actions: { type: 'storeInvite', params: ({ event }) => event.output },
              },
              {
                target: '#registration.collectDetails',
                actions: { type: 'storeInvite', params: ({ event }) => event.output },
              },
            ],
            onError: failTo('#registration.failed'),
          },
        },
      },
    },
    collectDetails: {
      meta: step(
        REGISTRATION_STEPS.COLLECT_DETAILS,
        20,
        'Username and full name, where the invitation leaves them open.',
      ),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'The invite details; the editable fields.' },
          on: { 'user.submitDetails': { target: 'submitting', actions: 'forgetRefusal' } },
        },
        submitting: submittingState({
          description: 'Saving the details (the username must be free).',
          actor: 'collectDetails',
          input: ({ event }: { event: RegistrationEvent }): DetailsInput => {
            assertEvent(event, 'user.submitDetails');
            return {
              ...(event.name !== undefined ? { name: event.name } : {}),
              ...(event.username !== undefined ? { username: event.username } : {}),
            };
          },
          done: [
            {
              target: '#registration.selectAuthenticatorApp',
              actions: { type: 'storeInvite', params: outputOf },
            },
          ],
          failed: '#registration.failed',
        }),
      },
    },
    selectAuthenticatorApp: {
      meta: step(
        REGISTRATION_STEPS.SELECT_AUTHENTICATOR_APP_FACTOR,
        40,
        'Scan the QR code with an authenticator app, or choose SMS or email.',
      ),
      initial: 'loading',
      entry: 'forgetRefusals',
      states: {
        loading: {
          meta: { description: 'Loads the QR code and the setup key.' },
          invoke: {
            id: 'loadAuthenticatorSetup',
            src: 'loadAuthenticatorSetup',
            onDone: { target: 'form', actions: { type: 'storeSetup', params: ({ event }) => event.output } },
            onError: failTo('#registration.failed'),
          },
        },
        form: {
          meta: { description: 'QR code, setup key, and the other factors.' },
          on: {
            'user.scanned': { target: '#registration.authenticatorAppVerification' },
            'user.chooseSms': [
              { guard: 'smsGatewayAvailable', target: '#registration.selectSms' },
              { target: '#registration.securityQuestions', actions: 'noteSmsUnavailable' },
            ],
            'user.chooseEmail': { target: 'enrollingEmail' },
          },
        },
        enrollingEmail: {
          meta: { description: 'Enrols email as the factor (with security questions).' },
          invoke: {
            id: 'enrolEmail',
            src: 'enrolEmail',
            onDone: { target: '#registration.securityQuestions' },
            onError: failTo('#registration.failed'),
          },
        },
      },
    },
    authenticatorAppVerification: {
      meta: step(
        REGISTRATION_STEPS.AUTHENTICATOR_APP_VERIFICATION,
        40,
        'A code of the authenticator app proves the setup.',
      ),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'The app code; back to the QR code.' },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'route.changed': {
              guard: 'isSelectAuthenticatorRoute',
              target: '#registration.selectAuthenticatorApp',
            },
          },
        },
        verifying: submittingState({
          description: 'Checking the app code.',
          actor: 'verifyCode',
          input: codeInput('authenticator-app'),
          done: [
            { guard: 'smsGatewayAvailable', target: '#registration.selectSms' },
            { target: '#registration.securityQuestions', actions: 'noteSmsUnavailable' },
          ],
          failed: '#registration.failed',
        }),
      },
    },
    selectSms: {
      meta: step(REGISTRATION_STEPS.SELECT_SMS_FACTOR, 60, 'A mobile for SMS codes, or email instead.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'The mobile number.' },
          on: {
            'user.enrolSms': { target: 'enrolling', actions: 'forgetRefusal' },
            'user.chooseEmail': { target: '#registration.securityQuestions' },
          },
        },
        enrolling: enrollingSmsState('registration', ({ event }: { event: RegistrationEvent }) => {
          assertEvent(event, 'user.enrolSms');
          return { mobile: event.mobile };
        }),
      },
    },
    smsVerification: {
      meta: step(REGISTRATION_STEPS.SMS_VERIFICATION, 60, 'The code sent to the mobile.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: smsVerificationStates('registration', {
        codeInput: codeInput('sms'),
        announce: 'announceResent',
      }),
    },
    securityQuestions: {
      meta: step(REGISTRATION_STEPS.SECURITY_QUESTIONS, 80, 'Two different questions and their answers.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: {
            description: 'Questions from the enumeration (defaults DRIVERS_LICENCE, MEDICARE), answers.',
          },
          on: { 'user.submitQuestions': { target: 'submitting', actions: 'forgetRefusal' } },
        },
        submitting: submittingState({
          description: 'Saving the questions and answers.',
          actor: 'enrolSecurityQuestions',
          input: ({ event }: { event: RegistrationEvent }): SecurityQuestionsInput => {
            assertEvent(event, 'user.submitQuestions');
            return {
              question1: event.question1,
              answer1: event.answer1,
              question2: event.question2,
              answer2: event.answer2,
            };
          },
          done: [{ target: '#registration.setPassword' }],
          failed: '#registration.failed',
        }),
      },
    },
    setPassword: {
      meta: step(REGISTRATION_STEPS.SET_PASSWORD, 100, 'The password, entered twice; submission.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'Password and confirmation.' },
          on: { 'user.submitPassword': { target: 'submitting', actions: 'forgetRefusal' } },
        },
        submitting: submittingState({
          description: 'Creating the account.',
          actor: 'submitNew',
          input: ({ event }: { event: RegistrationEvent }): PasswordInput => {
            assertEvent(event, 'user.submitPassword');
            return { password: event.password, confirmPassword: event.confirmPassword };
          },
          done: [toContinuing()],
          failed: '#registration.failed',
        }),
      },
    },
    verifyIdentity: {
      meta: step(
        REGISTRATION_STEPS.VERIFY_IDENTITY,
        100,
        'The existing account signs in to accept the invitation.',
      ),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'Username and password; after a 422 the help text.' },
          on: { 'user.submitExisting': { target: 'submitting', actions: 'forgetRefusal' } },
        },
        submitting: submittingState({
          description: 'Adding the facility to the existing account.',
          actor: 'submitExisting',
          input: ({ event }: { event: RegistrationEvent }): ExistingAccountInput => {
            assertEvent(event, 'user.submitExisting');
            return { username: event.username, password: event.password };
          },
          done: [toContinuing()],
          failed: '#registration.failed',
        }),
      },
    },
    continuing: continuingState({ description: 'Registered: sign-in continues as the outcome says.' }),
    failed: {
      meta: { description: "'Unknown authentication outcome' or an unexpected failure." },
    },
    cancelled: {
      type: 'final',
      meta: { description: 'Registration left: sign-in.' },
      output: { kind: 'cancelled', route: SIGN_IN_ROUTE },
    },
    done: {
      type: 'final',
      meta: { description: 'Signed in (or the next forced step): output.route.' },
      output: ({ context }) => required(context.handover, 'a hand-over'),
    },
  },
});
