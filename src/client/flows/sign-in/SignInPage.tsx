// The sign-in page at '/': runs the sign-in machine (machines/sign-in) with the real actors, shows
// the view of its state, and when it is done updates the session and goes where its output says.
import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router-dom';
import { signInMachine } from '../../../../machines/sign-in/sign-in.machine';
import {
  selectBusy,
  selectCaptchaDraw,
  selectErrorMessage,
  selectRefusal,
  selectSamlHandoff,
  selectShowsSecurityCode,
  selectUnavailableMessage,
  selectView,
} from '../../../../machines/sign-in/sign-in.select';
import type { SignInInput } from '../../../../machines/sign-in/sign-in.types';
import { loadChunk } from '../../app/chunk-reload';
import { PageLoader } from '../../app/shell/PageLoader';
import { SIGN_IN_ROUTE } from '../../app/routes';
import { useSession } from '../../app/session';
import { applyFlowOutput } from '../shared/flow-output';
import { useCaptchaImageSrc } from '../shared/captcha-image';
import { useFlowActor } from '../shared/use-flow-actor';
import { useFlowRoute } from '../shared/use-flow-route';
import { postJwtToParent } from './sign-in.actions';
import { signInActors } from './sign-in.actors';
import { signInTexts as t } from './sign-in.texts';
import { SignInFormView, SignInFrame } from './SignInForm';
import { SignInFailed, SignInProgress, SignInUnavailable } from './SignInStatus';

// Fetched only for a SAML handoff at sign-in: the page most visitors see does not carry it.
const SamlPostForm = lazy(() =>
  loadChunk(() => import('../shared/SamlPostForm'), 'SamlPostForm').then((m) => ({
    default: m.SamlPostForm,
  })),
);

/**
 * Whether the page is inside another page's frame (a JWT application's): the test of app/frame.ts,
 * repeated because importing that module (shared with the error page) adds a chunk of its own to
 * the sign-in page. Reading `top` is allowed across origins.
 */
const isInsideFrame = () => window.self !== window.top;

// Fetched only for a JWT application's sign-in opened outside its frame.
const SignInOutsideFrame = lazy(() => loadChunk(() => import('./SignInOutsideFrame'), 'SignInOutsideFrame'));

function SignInFlow({ input }: { input: SignInInput }) {
  const session = useSession();
  const navigate = useNavigate();
  const [, send, actorRef] = useFlowActor(signInMachine, {
    input,
    actors: signInActors,
    actions: { postJwtToParent },
    onDone: (output) => applyFlowOutput(output, session, (to, options) => void navigate(to, options)),
  });
  useFlowRoute(actorRef, { basePath: SIGN_IN_ROUTE });

  const view = useSelector(actorRef, selectView);
  const busy = useSelector(actorRef, selectBusy);
  const showsSecurityCode = useSelector(actorRef, selectShowsSecurityCode);
  const captchaSrc = useCaptchaImageSrc(useSelector(actorRef, selectCaptchaDraw));
  const refusal = useSelector(actorRef, selectRefusal);
  const unavailableMessage = useSelector(actorRef, selectUnavailableMessage);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const samlHandoff = useSelector(actorRef, selectSamlHandoff);

  switch (view) {
    case 'loading':
      return <SignInProgress label={t.loading} />;
    case 'form':
      return (
        <SignInFormView
          busy={busy}
          showsSecurityCode={showsSecurityCode}
          captchaSrc={showsSecurityCode ? captchaSrc : null}
          refusal={refusal}
          onSubmit={(credentials) => send({ type: 'user.submit', ...credentials })}
          onRefreshCaptcha={() => send({ type: 'user.refreshCaptcha' })}
        />
      );
    case 'unavailable':
      return <SignInUnavailable message={unavailableMessage} />;
    case 'postingSaml':
      return samlHandoff ? (
        <Suspense fallback={<SignInProgress label={t.handingOff} />}>
          <SamlPostForm handoff={samlHandoff} label={t.handingOff} continueLabel={t.continueHandoff} />
        </Suspense>
      ) : (
        <SignInProgress label={t.handingOff} />
      );
    case 'handingOff':
      return <SignInProgress label={t.handingOff} />;
    case 'jwtOutsideFrame':
      return (
        <Suspense fallback={null}>
          <SignInOutsideFrame />
        </Suspense>
      );
    case 'failed':
      return <SignInFailed message={errorMessage} />;
    case 'signingIn':
    case 'done':
      return <SignInProgress label={t.signingIn} />;
  }
}

export default function SignInPage() {
  const { currentUser, context, targetPath, adminTargetPath } = useSession();
  return (
    <SignInFrame>
      {currentUser === null ? (
        // The session's first load brings the context the login payload carries.
        <PageLoader />
      ) : (
        <SignInFlow input={{ context, targetPath, adminTargetPath, insideFrame: isInsideFrame() }} />
      )}
    </SignInFrame>
  );
}
