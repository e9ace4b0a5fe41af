/**
 * Password reset for anonymous visitors (sections 2.4, 4.5), under /password-reset. The server holds
 * the progress and enforces the order; this chart routes on what it answers.
 *
 *   loading / clearCurrentUser (realm auth-enabled, questions) --done[realmAllows]--> start --done--> unavailable
 *   unavailable ('', 25): 'Reset password is currently unavailable.'
 *   start ('', 25): form --user.start--> starting
 *       --done[isUnavailable] 503--> unavailable
 *       --done[isRefused] 422 / storeRefusal, refreshCaptcha--> form
 *       --done / storeEmail--> emailVerification
 *     form --user.refreshCaptcha--> form (a new captcha image)
 *   emailVerification (email-verification, 50): form --user.verify--> verifying
 *       --done[isRefused]--> form   --done / storeDetails, forgetFactorVerified--> routing
 *     form --user.resend[mayResend]--> resending --done[isSent] / announceResent--> form
 *                                               --done / storeResendRefusal--> form
 *   routing (4.5's order): [needsUserSelection] userSelection | [authenticatorAppEnrolled]
 *     authenticatorApp | [smsUsable] sms | [securityQuestionsEnrolled] securityQuestions | setPassword
 *   userSelection (user-selection, 50): form --user.select--> selecting
 *       --done[isRefused]--> form   --done / storeDetails--> routing
 *   authenticatorApp (authenticator-app-verification, 75): form --user.verify--> verifying
 *       --done[isRefused]--> form   --done / noteFactorVerified--> setPassword
 *     form --user.skip[smsUsable]--> sms   --user.skip[securityQuestionsEnrolled]--> securityQuestions
 *   sms (sms-verification, 75), entry / decideSmsCode: form --[smsCodeDue]--> sending (the first
 *     code, only when this reset holds no valid one: see smsCodeValid) --done[isSent] / noteSmsCodeSent--> form
 *       --done[isUnavailable, questions enrolled] 503 / storeSmsUnavailable--> securityQuestions
 *       --done / storeResendRefusal--> form
 *     form --user.verify--> verifying --done[isRefused]--> form
 *       --done / noteFactorVerified, forgetSmsCode (used)--> setPassword
 *     form --user.resend[mayResend]--> resending (as sending, with the resent toast)
 *     form --user.skip[securityQuestionsEnrolled]--> securityQuestions
 *   securityQuestions (security-question-verification, 75): form --user.answer--> verifying
 *       --done[isRefused]--> form   --done / noteFactorVerified--> setPassword
 *   setPassword (set-password, 100): choosing --[smsOnlyUnavailable]--> cannotFinish | form
 *     cannotFinish: SMS is the account's only second factor, the gateway is down and no factor was
 *       verified: submit would be refused (422, the server's smsOnly), so no password form, only
 *       SMS_ONLY_UNAVAILABLE_MESSAGE (src/contract/reset.ts) and a link to sign in
 *     form --user.submit--> submitting
 *       --done[isRefused]--> form   --done / forgetReset--> done (final: sign in)
 *   any unexpected failure --> failed
 *
 * The address (route.changed, only at rest: a step's form, cannotFinish, unavailable, failed; see
 * AT_REST): '' starts again; email-verification needs the reset email; user-selection needs the
 * identities list; the factor steps and set-password need the details of a chosen account (and a
 * factor step, that factor enrolled). Anything else, and anything during a call, is ignored, and
 * the address follows the state: without the reset email that is /password-reset.
 *
 * Skips never go below what the account has: the skip link exists only where an enrolled factor
 * is left to go to (section 4.5's order), and the server accepts only enrolled factors.
 */
import { and, assign, assertEvent, fromPromise, or, setup, stateIn } from 'xstate';
import { PASSWORD_RESET_ROUTE, PASSWORD_RESET_STEPS, SIGN_IN_ROUTE } from '../routes';
import type { FlowStateMeta } from '../shared/flow.types';
import { messageOf, provided } from '../forced/continue-sign-in/forced-step';
import { failTo, outputOf } from '../shared/invoke-basics';
import { resentToast, resendingCodeState, submittingState } from '../shared/invoke-steps';
import type {
  CheckResult,
  DetailsResult,
  PasswordResetContext,
  PasswordResetDetails,
  PasswordResetEvent,
  PasswordResetInput,
  PasswordResetOutput,
  ResendResult,
  ResetAvailability,
  SecurityAnswer,
  StartResetInput,
  StartResult,
  SubmitResult,
} from './password-reset.types';

/** Section 4.5, word for word: stored when SMS is enrolled but the gateway is down. */
export const SMS_UNAVAILABLE_MESSAGE = 'SMS verification codes are currently unavailable.';

const S = PASSWORD_RESET_STEPS;

const step = (route: string, progress: number, description: string): FlowStateMeta => ({
  route,
  progress,
  description,
});

/** The step of an address under /password-reset ('' for the base itself), or null outside it. */
export const resetStepOf = (path: string): string | null => {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === PASSWORD_RESET_ROUTE) return S.START;
  return trimmed.startsWith(`${PASSWORD_RESET_ROUTE}/`)
    ? trimmed.slice(PASSWORD_RESET_ROUTE.length + 1)
    : null;
};

const smsUsable = (d: PasswordResetDetails | null) => !!d && d.isSmsFactorEnrolled && d.isSmsGatewayAvailable;
const questionsEnrolled = (d: PasswordResetDetails | null) =>
  !!d && d.isSecurityQuestionsEnrolled && d.challenges.length > 0;
/** The details of one chosen account (not the list of accounts sharing the email). */
const accountChosen = (d: PasswordResetDetails | null): d is PasswordResetDetails =>
  !!d && d.username !== null;
/**
 * The server's smsOnly with the gateway down (submit, service.ts): SMS is the chosen account's only
 * second factor (no authenticator app, no security questions: the enrolment flags, as the server
 * reads them) and the details say the gateway is down. Without a verified factor, submit is refused
 * with SMS_ONLY_UNAVAILABLE_MESSAGE (src/contract/reset.ts). An account with no second factor at all is not this.
 */
const smsOnlyUnavailable = (d: PasswordResetDetails | null) =>
  accountChosen(d) &&
  d.isSmsFactorEnrolled &&
  !d.isSmsGatewayAvailable &&
  !d.isAuthAppEnrolled &&
  !d.isSecurityQuestionsEnrolled;

const routeTo = (wanted: string) => (event: PasswordResetEvent) =>
  event.type === 'route.changed' && resetStepOf(event.path) === wanted;

/**
 * Where the address is followed: a step waiting for the user (its form, set-password's
 * cannotFinish), and the unavailable and failed pages. During a call (starting, verifying, sending,
 * submitting, ...) a route change is not acted on: leaving the state would abort the call in the
 * browser while the server may already have done it (a password reset, a code sent). The address
 * then follows the step shown (useFlowRoute's redirect, by replace).
 */
const AT_REST = [
  { start: 'form' },
  { emailVerification: 'form' },
  { userSelection: 'form' },
  { authenticatorApp: 'form' },
  { sms: 'form' },
  { securityQuestions: 'form' },
  { setPassword: 'form' },
  { setPassword: 'cannotFinish' },
  'unavailable',
  'failed',
] as const;
type C = PasswordResetContext;
type E = PasswordResetEvent;
const atRest = or<C, E, unknown[]>(AT_REST.map((value) => stateIn<C, E, unknown>(value)));

/** A route.changed guard: the address is accepted only at rest (AT_REST) and when `accepts` says so. */
const followed = (accepts: (args: { context: C; event: E }) => boolean) =>
  and<C, E, unknown[]>([atRest, accepts]);

/**
 * How long an SMS code is valid: the server's CODE_TTL_MS (src/server/domain/factors/codes.ts),
 * 'A code is valid for 10 minutes' in the guide. Counted from when the send was asked for, so the
 * wizard's reckoning ends no later than the server's.
 */
export const SMS_CODE_LIFETIME_MS = 10 * 60_000;

/**
 * The SMS code sent in this reset is still good for the chosen account: sent to its mobile (the
 * same account and masked number), not used (a verified code is forgotten) and within its lifetime.
 * The server says a code expired only once its lifetime is over, which this reckoning reaches first.
 */
const smsCodeValid = (context: PasswordResetContext, now: number) => {
  const code = context.smsCode;
  const d = context.details;
  return (
    code !== null &&
    accountChosen(d) &&
    code.username === d.username &&
    code.mobile === d.mobile &&
    now - code.sentAt < SMS_CODE_LIFETIME_MS
  );
};

/** The input of a code check: the code of the user.verify event. */
const codeInput = ({ event }: { event: PasswordResetEvent }) => {
  assertEvent(event, 'user.verify');
  return { code: event.code };
};

/** Sending an SMS code answered 503: the security questions instead, when enrolled (section 4.5). */
const smsUnavailable = () =>
  [
    {
      guard: { type: 'isUnavailableWithQuestions', params: outputOf },
      target: '#passwordReset.securityQuestions',
      actions: { type: 'storeSmsUnavailable', params: outputOf },
    },
  ] as const;

export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as PasswordResetInput,
    output: {} as PasswordResetOutput,
  },
  actors: {
    loadAvailability: fromPromise<ResetAvailability>(provided('loadAvailability')),
    startReset: fromPromise<StartResult, StartResetInput>(provided('startReset')),
    verifyEmail: fromPromise<DetailsResult, { code: string }>(provided('verifyEmail')),
    resendEmail: fromPromise<ResendResult>(provided('resendEmail')),
    selectUser: fromPromise<DetailsResult, { username: string }>(provided('selectUser')),
    verifyAuthenticatorApp: fromPromise<CheckResult, { code: string }>(provided('verifyAuthenticatorApp')),
    sendSms: fromPromise<ResendResult>(provided('sendSms')),
    verifySms: fromPromise<CheckResult, { code: string }>(provided('verifySms')),
    verifySecurityQuestions: fromPromise<CheckResult, { answers: SecurityAnswer[] }>(
      provided('verifySecurityQuestions'),
    ),
    submitPassword: fromPromise<SubmitResult, { password: string; confirmPassword: string }>(
      provided('submitPassword'),
    ),
  },
  guards: {
    realmAllows: (_, availability: ResetAvailability) => availability.authEnabled,
    isRefused: (_, result: { type: string }) => result.type === 'refused',
    isUnavailable: (_, result: { type: string }) => result.type === 'unavailable',
    isSent: (_, result: ResendResult) => result.type === 'sent',
    isUnavailableWithQuestions: ({ context }, result: ResendResult) =>
      result.type === 'unavailable' && questionsEnrolled(context.details),
    mayResend: ({ context }) => context.resendRefusal === null,
    needsUserSelection: ({ context }) =>
      !!context.details && context.details.username === null && context.details.identities.length > 0,
    authenticatorAppEnrolled: ({ context }) => !!context.details?.isAuthAppEnrolled,
    smsUsable: ({ context }) => smsUsable(context.details),
    securityQuestionsEnrolled: ({ context }) => questionsEnrolled(context.details),
    /** set-password cannot be finished: the server would refuse it (see smsOnlyUnavailable). */
    smsOnlyUnavailable: ({ context }) =>
      smsOnlyUnavailable(context.details) && context.factorVerifiedFor !== context.details?.username,
    /** The SMS step was entered without a valid code of this reset: the first code is sent. */
    smsCodeDue: ({ context }) => context.smsCodeDue,
    // The address, only at rest (AT_REST): each later step needs what it shows (section 2.4).
    toStart: followed(({ context, event }) => context.available === true && routeTo(S.START)(event)),
    toEmailVerification: followed(
      ({ context, event }) => context.email !== null && routeTo(S.EMAIL_VERIFICATION)(event),
    ),
    toUserSelection: followed(
      ({ context, event }) =>
        context.email !== null &&
        (context.details?.identities.length ?? 0) > 0 &&
        routeTo(S.USER_SELECTION)(event),
    ),
    toAuthenticatorApp: followed(
      ({ context, event }) =>
        accountChosen(context.details) &&
        context.details.isAuthAppEnrolled &&
        routeTo(S.AUTHENTICATOR_APP_VERIFICATION)(event),
    ),
    toSms: followed(
      ({ context, event }) =>
        accountChosen(context.details) &&
        context.details.isSmsFactorEnrolled &&
        routeTo(S.SMS_VERIFICATION)(event),
    ),
    toSecurityQuestions: followed(
      ({ context, event }) =>
        questionsEnrolled(context.details) &&
        accountChosen(context.details) &&
        routeTo(S.SECURITY_QUESTION_VERIFICATION)(event),
    ),
    toSetPassword: followed(
      ({ context, event }) => accountChosen(context.details) && routeTo(S.SET_PASSWORD)(event),
    ),
  },
  actions: {
    /** Provided by the app: the start page clears the current user (section 2.4). */
    clearCurrentUser: () => {},
    /** Provided by the app: the success toast 'Resent {type} verification code'. */
    announceResent: (_, _resent: { channel: 'email' | 'sms' }) => {},
    storeAvailability: assign((_, availability: ResetAvailability) => ({
      available: availability.authEnabled,
      questions: availability.questions,
    })),
    refreshCaptcha: assign(({ context }) => ({ captchaDraw: context.captchaDraw + 1 })),
    storeEmail: assign((_, result: StartResult) => ({
      email: result.type === 'started' ? result.email : null,
    })),
    forgetReset: assign({
      email: null,
      details: null,
      factorVerifiedFor: null,
      smsCode: null,
      smsSendStartedAt: null,
      smsUnavailableMessage: null,
      refusal: null,
      resendRefusal: null,
    }),
    forgetRefusals: assign({ refusal: null, resendRefusal: null }),
    forgetRefusal: assign({ refusal: null }),
    storeRefusal: assign((_, result: StartResult | DetailsResult | CheckResult | SubmitResult) => ({
      refusal:
        result.type === 'refused' ? { message: result.message, fieldErrors: result.fieldErrors } : null,
    })),
    storeDetails: assign((_, result: DetailsResult) => {
      const details = result.type === 'details' ? result.details : null;
      return {
        details,
        smsUnavailableMessage:
          details && details.isSmsFactorEnrolled && !details.isSmsGatewayAvailable
            ? SMS_UNAVAILABLE_MESSAGE
            : null,
      };
    }),
    /** The server holds a second-factor proof for the chosen account (until the email is verified again). */
    noteFactorVerified: assign(({ context }) => ({ factorVerifiedFor: context.details?.username ?? null })),
    forgetFactorVerified: assign({ factorVerifiedFor: null }),
    /** On entering the SMS step: a first code is due unless this reset's code is still valid. */
    decideSmsCode: assign(({ context }) => ({ smsCodeDue: !smsCodeValid(context, Date.now()) })),
    noteSmsSendStarted: assign({ smsCodeDue: false, smsSendStartedAt: () => Date.now() }),
    /** The server took the send: the code of the chosen account, from when the send was asked for. */
    noteSmsCodeSent: assign(({ context: { details, smsSendStartedAt } }) => ({
      smsCode:
        details?.username && smsSendStartedAt !== null
          ? { username: details.username, mobile: details.mobile, sentAt: smsSendStartedAt }
          : null,
      smsSendStartedAt: null,
    })),
    /** A verified code is used: the server takes it once. */
    forgetSmsCode: assign({ smsCode: null }),
    storeResendRefusal: assign((_, result: ResendResult) => ({
      resendRefusal: result.type === 'sent' ? null : result.message,
    })),
    storeSmsUnavailable: assign((_, result: ResendResult) => ({
      smsUnavailableMessage: result.type === 'unavailable' ? result.message : SMS_UNAVAILABLE_MESSAGE,
    })),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({
    captchaDraw: 0,
    startContext: input.context ? { appCode: input.context.appCode, type: input.context.type } : {},
    available: null,
    questions: [],
    email: null,
    details: null,
    factorVerifiedFor: null,
    smsCode: null,
    smsSendStartedAt: null,
    smsCodeDue: false,
    smsUnavailableMessage: null,
    refusal: null,
    resendRefusal: null,
    errorMessage: null,
  }),
  initial: 'loading',
  output: () => ({ route: SIGN_IN_ROUTE }),
  on: {
    'route.changed': [
      { guard: 'toStart', target: '.start', actions: 'forgetReset' },
      { guard: 'toEmailVerification', target: '.emailVerification' },
      { guard: 'toUserSelection', target: '.userSelection' },
      { guard: 'toAuthenticatorApp', target: '.authenticatorApp' },
      { guard: 'toSms', target: '.sms' },
      { guard: 'toSecurityQuestions', target: '.securityQuestions' },
      { guard: 'toSetPassword', target: '.setPassword' },
    ],
  },
  states: {
    loading: {
      meta: { description: 'Clears the current user; reads whether the realm allows authentication.' },
      entry: 'clearCurrentUser',
      invoke: {
        id: 'loadAvailability',
        src: 'loadAvailability',
        onDone: [
          {
            guard: { type: 'realmAllows', params: ({ event }) => event.output },
            target: 'start',
            actions: { type: 'storeAvailability', params: ({ event }) => event.output },
          },
          {
            target: 'unavailable',
            actions: { type: 'storeAvailability', params: ({ event }) => event.output },
          },
        ],
        onError: failTo('failed'),
      },
    },
    unavailable: {
      meta: step(S.START, 25, "'Reset password is currently unavailable.'"),
    },
    start: {
      meta: step(S.START, 25, 'Get started: the email and the security code.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'Email, captcha image and its code.' },
          on: {
            'user.start': { target: 'starting', actions: 'forgetRefusal' },
            'user.refreshCaptcha': { actions: 'refreshCaptcha' },
          },
        },
        starting: {
          meta: { description: 'Starting the reset: a code is emailed to the address on record.' },
          invoke: {
            id: 'startReset',
            src: 'startReset',
            input: ({ context, event }) => {
              assertEvent(event, 'user.start');
              // Section 7: the context fields except realmCode and showInHeader.
              return { email: event.email, captchaCode: event.captchaCode, ...context.startContext };
            },
            onDone: [
              {
                guard: { type: 'isUnavailable', params: ({ event }) => event.output },
                target: '#passwordReset.unavailable',
              },
              {
                guard: { type: 'isRefused', params: ({ event }) => event.output },
                target: 'form',
                actions: [{ type: 'storeRefusal', params: ({ event }) => event.output }, 'refreshCaptcha'],
              },
              {
                target: '#passwordReset.emailVerification',
                actions: { type: 'storeEmail', params: ({ event }) => event.output },
              },
            ],
            onError: failTo('#passwordReset.failed'),
          },
        },
      },
    },
    emailVerification: {
      meta: step(S.EMAIL_VERIFICATION, 50, 'The code emailed to the address on record.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'Code and resend.' },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'user.resend': { guard: 'mayResend', target: 'resending' },
          },
        },
        verifying: submittingState({
          description: 'Checking the email code.',
          actor: 'verifyEmail',
          input: codeInput,
          // A verified email code starts the proofs over on the server too.
          done: [
            {
              target: '#passwordReset.routing',
              actions: [{ type: 'storeDetails', params: outputOf }, 'forgetFactorVerified'],
            },
          ],
          failed: '#passwordReset.failed',
        }),
        resending: resendingCodeState({
          description: 'Sending another email code.',
          actor: 'resendEmail',
          announce: resentToast('email'),
          failed: '#passwordReset.failed',
        }),
      },
    },
    routing: {
      meta: { description: 'Section 4.5: accounts to choose from, then the strongest enrolled factor.' },
      always: [
        { guard: 'needsUserSelection', target: 'userSelection' },
        { guard: 'authenticatorAppEnrolled', target: 'authenticatorApp' },
        { guard: 'smsUsable', target: 'sms' },
        { guard: 'securityQuestionsEnrolled', target: 'securityQuestions' },
        { target: 'setPassword' },
      ],
    },
    userSelection: {
      meta: step(S.USER_SELECTION, 50, 'The accounts sharing the email: which one to reset.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: 'One choice per account.' },
          on: { 'user.select': { target: 'selecting', actions: 'forgetRefusal' } },
        },
        selecting: submittingState({
          description: 'Choosing the account: its factors decide the next step.',
          actor: 'selectUser',
          input: ({ event }: { event: PasswordResetEvent }) => {
            assertEvent(event, 'user.select');
            return { username: event.username };
          },
          done: [{ target: '#passwordReset.routing', actions: { type: 'storeDetails', params: outputOf } }],
          failed: '#passwordReset.failed',
        }),
      },
    },
    authenticatorApp: {
      meta: step(S.AUTHENTICATOR_APP_VERIFICATION, 75, 'A code of the authenticator app.'),
      initial: 'form',
      entry: 'forgetRefusals',
      states: {
        form: {
          meta: { description: "Code; 'I don't have access' where another factor is enrolled." },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'user.skip': [
              { guard: 'smsUsable', target: '#passwordReset.sms' },
              { guard: 'securityQuestionsEnrolled', target: '#passwordReset.securityQuestions' },
            ],
          },
        },
        verifying: submittingState({
          description: 'Checking the authenticator app code.',
          actor: 'verifyAuthenticatorApp',
          input: codeInput,
          done: [{ target: '#passwordReset.setPassword', actions: 'noteFactorVerified' }],
          failed: '#passwordReset.failed',
        }),
      },
    },
    sms: {
      meta: step(S.SMS_VERIFICATION, 75, 'A code sent by SMS to the enrolled mobile.'),
      // The first code only when this reset holds no valid one (back and forward through the
      // step does not send again; Resend does).
      initial: 'form',
      entry: ['forgetRefusals', 'decideSmsCode'],
      states: {
        // As sendingCodeState (machines/shared/invoke-steps.ts), noting the code that was sent.
        sending: {
          meta: { description: 'Sending the first SMS code.' },
          entry: 'noteSmsSendStarted',
          invoke: {
            id: 'sendSms',
            src: 'sendSms',
            onDone: [
              {
                guard: { type: 'isSent', params: outputOf },
                target: 'form',
                actions: 'noteSmsCodeSent',
              },
              ...smsUnavailable(),
              { target: 'form', actions: { type: 'storeResendRefusal', params: outputOf } },
            ],
            onError: failTo('#passwordReset.failed'),
          },
        },
        form: {
          meta: { description: "Code and resend; 'I don't have access' when questions are enrolled." },
          always: { guard: 'smsCodeDue', target: 'sending' },
          on: {
            'user.verify': { target: 'verifying', actions: 'forgetRefusal' },
            'user.resend': { guard: 'mayResend', target: 'resending' },
            'user.skip': { guard: 'securityQuestionsEnrolled', target: '#passwordReset.securityQuestions' },
          },
        },
        verifying: submittingState({
          description: 'Checking the SMS code.',
          actor: 'verifySms',
          input: codeInput,
          done: [{ target: '#passwordReset.setPassword', actions: ['noteFactorVerified', 'forgetSmsCode'] }],
          failed: '#passwordReset.failed',
        }),
        resending: {
          ...resendingCodeState({
            description: 'Sending another SMS code.',
            actor: 'sendSms',
            announce: [resentToast('sms'), 'noteSmsCodeSent'],
            fallback: smsUnavailable(),
            failed: '#passwordReset.failed',
          }),
          entry: 'noteSmsSendStarted',
        },
      },
    },
    securityQuestions: {
      meta: step(S.SECURITY_QUESTION_VERIFICATION, 75, 'The answers to the security questions.'),
      initial: 'form',
      entry: 'forgetRefusal',
      states: {
        form: {
          meta: { description: 'One answer per question asked (challenges).' },
          on: { 'user.answer': { target: 'verifying', actions: 'forgetRefusal' } },
        },
        verifying: submittingState({
          description: 'Checking the answers.',
          actor: 'verifySecurityQuestions',
          input: ({ event }: { event: PasswordResetEvent }) => {
            assertEvent(event, 'user.answer');
            return { answers: event.answers };
          },
          done: [{ target: '#passwordReset.setPassword', actions: 'noteFactorVerified' }],
          failed: '#passwordReset.failed',
        }),
      },
    },
    setPassword: {
      meta: step(S.SET_PASSWORD, 100, 'The new password and its confirmation, or why it cannot be set now.'),
      initial: 'choosing',
      entry: 'forgetRefusals',
      states: {
        choosing: {
          meta: { description: 'Whether the server would take a new password (submit checks the same).' },
          always: [{ guard: 'smsOnlyUnavailable', target: 'cannotFinish' }, { target: 'form' }],
        },
        cannotFinish: {
          meta: {
            description:
              "SMS is the only second factor and the gateway is down: no form, the server's 422 message at once, and a link to sign in.",
          },
        },
        form: {
          meta: { description: 'New password (policy hint) and confirmation.' },
          on: { 'user.submit': { target: 'submitting', actions: 'forgetRefusal' } },
        },
        submitting: submittingState({
          description: 'Setting the new password.',
          actor: 'submitPassword',
          input: ({ event }: { event: PasswordResetEvent }) => {
            assertEvent(event, 'user.submit');
            return { password: event.password, confirmPassword: event.confirmPassword };
          },
          done: [{ target: '#passwordReset.done', actions: 'forgetReset' }],
          failed: '#passwordReset.failed',
        }),
      },
    },
    failed: {
      meta: { description: 'An unexpected failure; the start page begins again.' },
    },
    done: {
      type: 'final',
      meta: { description: 'The password is reset: the user signs in with it.' },
    },
  },
});
