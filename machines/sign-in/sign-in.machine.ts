/**
 * Sign-in (spec sections 2.1 and 4.1), all at '/'.
 *
 *   loadingFailedCount --done[reachedCaptchaThreshold] / requireSecurityCode--> form
 *                      --done / waiveSecurityCode--> form          (each count read redraws the captcha)
 *   form --user.refreshCaptcha[asksSecurityCode] / redrawCaptcha--> form
 *   form --user.submit--> submitting (login; the password goes straight from the event to the call)
 *   submitting --done, by the result:
 *     [isUnavailable]     503 --> unavailable
 *     [isRefused]         422 --> recheckingFailedCount --done--> form (as above, with the count
 *                                 of the username tried: the captcha is redrawn after each failure)
 *     [isSessionExpired]  409 on the JWT frame handoff --> sessionExpired (final, /session-expired-error)
 *     [isSamlHandoff]     --> postingSaml (the view posts samlResponse and relayState to the ACS URL)
 *     [isJwtOutsideFrame] a JWT with the page in a tab of its own, not in the application's
 *                         frame --> jwtOutsideFrame (nothing is posted: an error, a way back)
 *     [isJwtHandoff]      / postJwtToParent --> handingOffToParent (the parent frame takes over)
 *     [isForcedAction]    --> forcedAction.loadingUser --done[isMfa]--> forcedAction.startingMfa
 *                             --done[hasNextFactor]--> forwarded (final, MFA_<factor> route)
 *                         --done--> forwarded (final, the forced action's route)
 *     [isDirectLogin]     / recordPreviousSignInAttempt --> directLogin.loadingUser
 *                             --done--> directLogin.choosingLanding --> signedIn (final), landing on
 *                             the first of: target path, admin target path, single-sign-on error
 *                             page (single sign-on), /access-requests (VIEW_ACCESS_REQUESTS),
 *                             applications page
 *     otherwise           --> failed ('Unknown authentication outcome')
 *   unavailable, failed, jwtOutsideFrame --route.changed[isSignInRoute]--> loadingFailedCount
 *                         (the Sign in link)
 *
 * Expected refusals (422, 503, 409) are results of the login actor, routed by guards on onDone;
 * onError is for the unexpected. The final states' output tells the page how to update the
 * session and where to go.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { CurrentUser, ForcedAction } from '../../src/contract/entities';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../src/contract/errors';
import { limits } from '../../src/contract/fields';
import {
  ACCESS_REQUESTS_ROUTE,
  APPLICATIONS_ROUTE,
  forcedActionRoute,
  mfaRoute,
  SESSION_EXPIRED_ERROR_ROUTE,
  SIGN_IN_ROUTE,
  SINGLE_SIGN_ON_ERROR_ROUTE,
} from '../routes';
import type { FlowStateMeta } from '../shared/flow.types';
import { failTo } from '../shared/invoke-basics';
import { directLoginStates, forcedActionStates } from '../shared/sign-in-outcome';
import type {
  FailedAuthCount,
  FailedAuthCountInput,
  LoginInput,
  LoginResult,
  MfaStart,
  SignInContext,
  SignInEvent,
  SignInInput,
  SignInOutput,
} from './sign-in.types';

/** The app provides every actor (machine.provide); a machine never calls the network itself. */
const provided = (name: string) => () =>
  Promise.reject(new Error(`The actor '${name}' is provided by the app.`));

const outcomeOf = (result: LoginResult) => (result.type === 'outcome' ? result.outcome : null);

/** A JWT is only ever posted to the exact origin the server names, never to '*'. */
const isJwt = (result: LoginResult) => {
  const outcome = outcomeOf(result);
  return outcome?.outcome === 'JWT' && !!outcome.jwt && !!outcome.frameOrigin;
};

/** Message of an unexpected failure: the server's message when there is one. */
const messageOf = (error: unknown): string => {
  if (typeof error === 'object' && error !== null) {
    const body = (error as { body?: { message?: unknown } }).body;
    if (typeof body?.message === 'string') return body.message;
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return UNKNOWN_OUTCOME_MESSAGE;
};

const required = <T>(value: T | null, what: string): T => {
  if (value === null) throw new Error(`Sign-in finished without ${what}.`);
  return value;
};

const signedInOutput = ({ context }: { context: SignInContext }): SignInOutput => ({
  kind: 'signedIn',
  route: required(context.route, 'a landing route'),
  currentUser: required(context.currentUser, 'a current user'),
  previousSignInAttempt: context.previousSignInAttempt,
  singleSignOnAppName: context.route === SINGLE_SIGN_ON_ERROR_ROUTE ? context.appName : null,
});

const forwardedOutput = ({ context }: { context: SignInContext }): SignInOutput => ({
  kind: 'forcedAction',
  route: required(context.route, 'a forced-action route'),
  currentUser: required(context.currentUser, 'a current user'),
  smsUnavailableMessage: context.smsUnavailableMessage,
});

const sessionExpiredOutput = (): SignInOutput => ({
  kind: 'sessionExpired',
  route: SESSION_EXPIRED_ERROR_ROUTE,
});

const signInMeta = (description: string): FlowStateMeta => ({ route: SIGN_IN_ROUTE, description });

export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    input: {} as SignInInput,
    output: {} as SignInOutput,
  },
  actors: {
    getFailedAuthCount: fromPromise<FailedAuthCount, FailedAuthCountInput>(provided('getFailedAuthCount')),
    login: fromPromise<LoginResult, LoginInput>(provided('login')),
    getCurrentUser: fromPromise<CurrentUser>(provided('getCurrentUser')),
    startMfa: fromPromise<MfaStart>(provided('startMfa')),
  },
  guards: {
    reachedCaptchaThreshold: (_, count: FailedAuthCount) => count.count >= limits.failedSignInsBeforeCaptcha,
    asksSecurityCode: ({ context }) => context.securityCodeRequired,
    isUnavailable: (_, result: LoginResult) => result.type === 'unavailable',
    isRefused: (_, result: LoginResult) => result.type === 'refused',
    isSessionExpired: (_, result: LoginResult) => result.type === 'sessionExpired',
    isSamlHandoff: (_, result: LoginResult) => {
      const outcome = outcomeOf(result);
      return outcome?.outcome === 'SAML_HANDOFF' && outcome.saml != null;
    },
    /** Outside a frame the parent is the page itself: nothing would take the token. */
    isJwtOutsideFrame: ({ context }, result: LoginResult) => !context.insideFrame && isJwt(result),
    isJwtHandoff: (_, result: LoginResult) => isJwt(result),
    isForcedAction: (_, result: LoginResult) => {
      const outcome = outcomeOf(result);
      return outcome?.outcome === 'FORCED_ACTION' && outcome.forcedAction != null;
    },
    isDirectLogin: (_, result: LoginResult) => outcomeOf(result)?.outcome === 'DIRECT_LOGIN',
    isMfa: ({ context }) => context.forcedAction === 'MFA',
    hasNextFactor: (_, start: MfaStart) => start.nextFactor !== null,
    hasTargetPath: ({ context }) => context.targetPath !== null,
    hasAdminTargetPath: ({ context }) => context.adminTargetPath !== null,
    isSingleSignOn: ({ context }) => context.isSingleSignOn,
    viewsAccessRequests: ({ context }) =>
      context.currentUser?.roles.includes('VIEW_ACCESS_REQUESTS') ?? false,
    isSignInRoute: ({ event }) => {
      assertEvent(event, 'route.changed');
      return event.path === SIGN_IN_ROUTE;
    },
  },
  actions: {
    requireSecurityCode: assign({ securityCodeRequired: true }),
    waiveSecurityCode: assign({ securityCodeRequired: false }),
    /** Each count read, and each refresh, comes with its own captcha image. */
    redrawCaptcha: assign(({ context }) => ({ captchaDraw: context.captchaDraw + 1 })),
    /** A new attempt starts clean: nothing of the last one's refusal, outcome or failure stays. */
    forgetAttempt: assign({
      refusal: null,
      unavailableMessage: null,
      errorMessage: null,
      samlHandoff: null,
      forcedAction: null,
      isSingleSignOn: false,
      appName: null,
      previousSignInAttempt: null,
      currentUser: null,
      smsUnavailableMessage: null,
      route: null,
    }),
    storeRefusal: assign((_, result: LoginResult) => ({
      refusal:
        result.type === 'refused'
          ? { username: result.username, message: result.message, fieldErrors: result.fieldErrors }
          : null,
    })),
    storeUnavailable: assign((_, result: LoginResult) => ({
      unavailableMessage: result.type === 'unavailable' ? result.message : null,
    })),
    storeSamlHandoff: assign((_, result: LoginResult) => ({ samlHandoff: outcomeOf(result)?.saml ?? null })),
    /** Provided by the app: window.parent.postMessage(jwt, frameOrigin). */
    postJwtToParent: (_, _handoff: { jwt: string; frameOrigin: string }) => {},
    storeForcedAction: assign((_, result: LoginResult) => ({
      forcedAction: (outcomeOf(result)?.forcedAction ?? null) as ForcedAction | null,
    })),
    recordPreviousSignInAttempt: assign((_, result: LoginResult) => {
      const outcome = outcomeOf(result);
      return {
        previousSignInAttempt: outcome?.previousSignInAttempt ?? null,
        isSingleSignOn: outcome?.isSingleSignOn ?? false,
        appName: outcome?.appName ?? null,
      };
    }),
    storeCurrentUser: assign((_, currentUser: CurrentUser) => ({ currentUser })),
    routeToForcedAction: assign(({ context }) => ({
      route:
        context.forcedAction !== null && context.forcedAction !== 'MFA'
          ? forcedActionRoute(context.forcedAction)
          : null,
    })),
    routeToMfaFactor: assign((_, start: MfaStart) => ({
      route: start.nextFactor === null ? null : mfaRoute(start.nextFactor),
      smsUnavailableMessage: start.smsUnavailableMessage,
    })),
    landOnTargetPath: assign(({ context }) => ({ route: context.targetPath })),
    landOnAdminTargetPath: assign(({ context }) => ({ route: context.adminTargetPath })),
    landOnSingleSignOnError: assign({ route: SINGLE_SIGN_ON_ERROR_ROUTE }),
    landOnAccessRequests: assign({ route: ACCESS_REQUESTS_ROUTE }),
    landOnApplications: assign({ route: APPLICATIONS_ROUTE }),
    reportUnknownOutcome: assign({ errorMessage: UNKNOWN_OUTCOME_MESSAGE }),
    reportFailure: assign((_, failure: { error: unknown }) => ({ errorMessage: messageOf(failure.error) })),
  },
}).createMachine({
  id: 'signIn',
  context: ({ input }) => ({
    loginContext: input.context,
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    insideFrame: input.insideFrame,
    securityCodeRequired: false,
    captchaDraw: 0,
    refusal: null,
    unavailableMessage: null,
    errorMessage: null,
    samlHandoff: null,
    forcedAction: null,
    isSingleSignOn: false,
    appName: null,
    previousSignInAttempt: null,
    currentUser: null,
    smsUnavailableMessage: null,
    route: null,
  }),
  initial: 'loadingFailedCount',
  output: ({ event }) => event.output as SignInOutput,
  states: {
    loadingFailedCount: {
      meta: signInMeta('Loads the failed sign-in count to know whether the security code is asked.'),
      invoke: {
        id: 'getFailedAuthCount',
        src: 'getFailedAuthCount',
        input: () => ({}),
        onDone: [
          {
            guard: { type: 'reachedCaptchaThreshold', params: ({ event }) => event.output },
            target: 'form',
            actions: ['requireSecurityCode', 'redrawCaptcha'],
          },
          {
            target: 'form',
            actions: ['waiveSecurityCode', 'redrawCaptcha'],
          },
        ],
        onError: failTo('failed'),
      },
    },
    form: {
      meta: signInMeta('Username and password, the security code from 3 failed sign-ins; the last refusal.'),
      on: {
        'user.submit': { target: 'submitting', actions: 'forgetAttempt' },
        'user.refreshCaptcha': { guard: 'asksSecurityCode', actions: 'redrawCaptcha' },
      },
    },
    submitting: {
      meta: signInMeta('Signing in.'),
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context, event }) => {
          assertEvent(event, 'user.submit');
          return {
            ...context.loginContext,
            username: event.username,
            password: event.password,
            captchaCode: event.captchaCode,
          };
        },
        onDone: [
          {
            guard: { type: 'isUnavailable', params: ({ event }) => event.output },
            target: 'unavailable',
            actions: { type: 'storeUnavailable', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRefused', params: ({ event }) => event.output },
            target: 'recheckingFailedCount',
            actions: { type: 'storeRefusal', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isSessionExpired', params: ({ event }) => event.output },
            target: 'sessionExpired',
          },
          {
            guard: { type: 'isSamlHandoff', params: ({ event }) => event.output },
            target: 'postingSaml',
            actions: { type: 'storeSamlHandoff', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isJwtOutsideFrame', params: ({ event }) => event.output },
            target: 'jwtOutsideFrame',
          },
          {
            guard: { type: 'isJwtHandoff', params: ({ event }) => event.output },
            target: 'handingOffToParent',
            actions: {
              type: 'postJwtToParent',
              params: ({ event }) => ({
                jwt: outcomeOf(event.output)?.jwt ?? '',
                frameOrigin: outcomeOf(event.output)?.frameOrigin ?? '',
              }),
            },
          },
          {
            guard: { type: 'isForcedAction', params: ({ event }) => event.output },
            target: 'forcedAction',
            actions: { type: 'storeForcedAction', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isDirectLogin', params: ({ event }) => event.output },
            target: 'directLogin',
            actions: { type: 'recordPreviousSignInAttempt', params: ({ event }) => event.output },
          },
          { target: 'failed', actions: 'reportUnknownOutcome' },
        ],
        onError: failTo('failed'),
      },
    },
    recheckingFailedCount: {
      meta: signInMeta('After a refusal: the count for the username tried, and a new captcha.'),
      invoke: {
        id: 'getFailedAuthCount',
        src: 'getFailedAuthCount',
        input: ({ context }) => (context.refusal ? { username: context.refusal.username } : {}),
        onDone: [
          {
            guard: { type: 'reachedCaptchaThreshold', params: ({ event }) => event.output },
            target: 'form',
            actions: ['requireSecurityCode', 'redrawCaptcha'],
          },
          {
            target: 'form',
            actions: ['waiveSecurityCode', 'redrawCaptcha'],
          },
        ],
        onError: failTo('failed'),
      },
    },
    unavailable: {
      meta: signInMeta('Login answered 503: sign-in is unavailable.'),
      on: {
        'route.changed': { guard: 'isSignInRoute', target: 'loadingFailedCount', actions: 'forgetAttempt' },
      },
    },
    postingSaml: {
      meta: signInMeta('A hidden form posts samlResponse and relayState to the assertion consumer service.'),
    },
    handingOffToParent: {
      meta: signInMeta('The JWT was posted to the parent frame, which takes over.'),
    },
    jwtOutsideFrame: {
      meta: signInMeta('A JWT outside a frame: not posted.'),
      on: {
        'route.changed': { guard: 'isSignInRoute', target: 'loadingFailedCount', actions: 'forgetAttempt' },
      },
    },
    forcedAction: {
      meta: signInMeta('The server requires a step before sign-in completes.'),
      initial: 'loadingUser',
      states: forcedActionStates('signIn'),
    },
    directLogin: {
      meta: signInMeta('Signed in: loads the user and chooses where to land.'),
      initial: 'loadingUser',
      states: directLoginStates('signIn'),
    },
    failed: {
      meta: signInMeta("'Unknown authentication outcome' or an unexpected failure."),
      on: {
        'route.changed': { guard: 'isSignInRoute', target: 'loadingFailedCount', actions: 'forgetAttempt' },
      },
    },
    signedIn: {
      type: 'final',
      meta: { description: 'Lands on the route chosen (output.route).' },
      output: signedInOutput,
    },
    forwarded: {
      type: 'final',
      meta: { description: "Goes to the forced action's route (output.route)." },
      output: forwardedOutput,
    },
    sessionExpired: {
      type: 'final',
      meta: { route: SESSION_EXPIRED_ERROR_ROUTE, description: '409 on the JWT frame handoff.' },
      output: sessionExpiredOutput,
    },
  },
});
