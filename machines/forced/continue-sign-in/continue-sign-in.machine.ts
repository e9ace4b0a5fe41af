/**
 * Continue sign-in (sections 4.1 and 4.3): what a forced step does with the authentication outcome
 * its call answered. Every forced step invokes it; it decides as the sign-in page does.
 *
 *   deciding (from input.outcome):
 *     [isSamlHandoff]   --> postingSaml (the view posts samlResponse and relayState to the ACS URL)
 *     [isJwtHandoff]    --> jwtHandoff: [isOutsideFrame] the page is in a tab of its own, not in
 *                         the application's frame --> failed (nothing posted; the step says so)
 *                         otherwise --> handingOffToParent (entry postJwtToParent; the parent
 *                         frame takes over)
 *     [isForcedAction]  --> forcedAction.loadingUser --done[isMfa]--> forcedAction.startingMfa
 *                             --done[hasNextFactor]--> forwarded (final, MFA_<factor> route)
 *                         --done--> forwarded (final, the forced action's route)
 *     [isDirectLogin]   --> directLogin.loadingUser --done--> directLogin.choosingLanding
 *                             --> signedIn (final), landing on the first of: target path, admin
 *                             target path, single-sign-on error page (single sign-on),
 *                             /access-requests (VIEW_ACCESS_REQUESTS), applications page
 *     otherwise         --> failed (final, 'Unknown authentication outcome')
 *   any unexpected failure --> failed (final, its message)
 *
 * The final states' output tells the step how the page updates the session and where it goes.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { CurrentUser, ForcedAction } from '../../../src/contract/entities';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../src/contract/errors';
import {
  ACCESS_REQUESTS_ROUTE,
  APPLICATIONS_ROUTE,
  forcedActionRoute,
  mfaRoute,
  SINGLE_SIGN_ON_ERROR_ROUTE,
} from '../../routes';
import { JWT_OUTSIDE_FRAME_MESSAGE } from '../../shared/jwt-outside-frame';
import { directLoginStates, forcedActionStates } from '../../shared/sign-in-outcome';
import type {
  ContinueSignInContext,
  ContinueSignInInput,
  ContinueSignInOutput,
  MfaStart,
} from './continue-sign-in.types';
import { messageOf, provided, required } from './forced-step';

const signedInOutput = ({ context }: { context: ContinueSignInContext }): ContinueSignInOutput => ({
  kind: 'signedIn',
  route: required(context.route, 'a landing route'),
  currentUser: required(context.currentUser, 'a current user'),
  previousSignInAttempt: context.previousSignInAttempt,
  singleSignOnAppName:
    context.route === SINGLE_SIGN_ON_ERROR_ROUTE ? (context.outcome.appName ?? null) : null,
});

const forwardedOutput = ({ context }: { context: ContinueSignInContext }): ContinueSignInOutput => ({
  kind: 'forcedAction',
  route: required(context.route, 'a forced-action route'),
  currentUser: required(context.currentUser, 'a current user'),
  smsUnavailableMessage: context.smsUnavailableMessage,
});

const failedOutput = ({ context }: { context: ContinueSignInContext }): ContinueSignInOutput => ({
  kind: 'failed',
  message: context.errorMessage ?? UNKNOWN_OUTCOME_MESSAGE,
});

export const continueSignInMachine = setup({
  types: {
    context: {} as ContinueSignInContext,
    input: {} as ContinueSignInInput,
    output: {} as ContinueSignInOutput,
  },
  actors: {
    getCurrentUser: fromPromise<CurrentUser>(provided('getCurrentUser')),
    startMfa: fromPromise<MfaStart>(provided('startMfa')),
  },
  guards: {
    isSamlHandoff: ({ context }) =>
      context.outcome.outcome === 'SAML_HANDOFF' && context.outcome.saml != null,
    /** A JWT is only ever posted to the exact origin the server names, never to '*'. */
    isJwtHandoff: ({ context }) =>
      context.outcome.outcome === 'JWT' && !!context.outcome.jwt && !!context.outcome.frameOrigin,
    isForcedAction: ({ context }) =>
      context.outcome.outcome === 'FORCED_ACTION' && context.outcome.forcedAction != null,
    isDirectLogin: ({ context }) => context.outcome.outcome === 'DIRECT_LOGIN',
    isMfa: ({ context }) => context.forcedAction === 'MFA',
    hasNextFactor: (_, start: MfaStart) => start.nextFactor !== null,
    hasTargetPath: ({ context }) => context.targetPath !== null,
    hasAdminTargetPath: ({ context }) => context.adminTargetPath !== null,
    isSingleSignOn: ({ context }) => context.outcome.isSingleSignOn === true,
    viewsAccessRequests: ({ context }) =>
      context.currentUser?.roles.includes('VIEW_ACCESS_REQUESTS') ?? false,
    /** Provided by the app: whether the page is outside any frame (window.self === window.top). */
    isOutsideFrame: () => false,
  },
  actions: {
    /** Provided by the app: window.parent.postMessage(jwt, frameOrigin). */
    postJwtToParent: (_, _handoff: { jwt: string; frameOrigin: string }) => {},
    reportJwtOutsideFrame: assign({ errorMessage: JWT_OUTSIDE_FRAME_MESSAGE }),
    storeForcedAction: assign(({ context }) => ({
      forcedAction: (context.outcome.forcedAction ?? null) as ForcedAction | null,
    })),
    recordPreviousSignInAttempt: assign(({ context }) => ({
      previousSignInAttempt: context.outcome.previousSignInAttempt ?? null,
    })),
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
  id: 'continueSignIn',
  context: ({ input }) => ({
    outcome: input.outcome,
    targetPath: input.targetPath,
    adminTargetPath: input.adminTargetPath,
    forcedAction: null,
    currentUser: null,
    previousSignInAttempt: null,
    smsUnavailableMessage: null,
    route: null,
    errorMessage: null,
  }),
  initial: 'deciding',
  output: ({ event }) => event.output as ContinueSignInOutput,
  states: {
    deciding: {
      meta: { description: 'Reads the authentication outcome the step answered.' },
      always: [
        { guard: 'isSamlHandoff', target: 'postingSaml' },
        { guard: 'isJwtHandoff', target: 'jwtHandoff' },
        { guard: 'isForcedAction', target: 'forcedAction', actions: 'storeForcedAction' },
        { guard: 'isDirectLogin', target: 'directLogin', actions: 'recordPreviousSignInAttempt' },
        { target: 'failed', actions: 'reportUnknownOutcome' },
      ],
    },
    postingSaml: {
      meta: {
        description: 'A hidden form posts samlResponse and relayState to the assertion consumer service.',
      },
    },
    jwtHandoff: {
      meta: { description: 'A JWT: posted to the parent frame, unless the page is in no frame.' },
      always: [
        { guard: 'isOutsideFrame', target: 'failed', actions: 'reportJwtOutsideFrame' },
        { target: 'handingOffToParent' },
      ],
    },
    handingOffToParent: {
      meta: { description: 'The JWT was posted to the parent frame, which takes over.' },
      entry: {
        type: 'postJwtToParent',
        params: ({ context }) => ({
          jwt: context.outcome.jwt ?? '',
          frameOrigin: context.outcome.frameOrigin ?? '',
        }),
      },
    },
    forcedAction: {
      meta: { description: 'The server requires another step before sign-in completes.' },
      initial: 'loadingUser',
      states: forcedActionStates('continueSignIn'),
    },
    directLogin: {
      meta: { description: 'Signed in: loads the user and chooses where to land.' },
      initial: 'loadingUser',
      states: directLoginStates('continueSignIn'),
    },
    failed: {
      type: 'final',
      meta: {
        description:
          "'Unknown authentication outcome', a JWT outside a frame or an unexpected failure: the step shows it.",
      },
      output: failedOutput,
    },
    signedIn: {
      type: 'final',
      meta: { description: 'Lands on the route chosen (output.route).' },
      output: signedInOutput,
    },
    forwarded: {
      type: 'final',
      meta: { description: "Goes to the next forced action's route (output.route)." },
      output: forwardedOutput,
    },
  },
});
