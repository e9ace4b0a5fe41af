// /password-reset and its steps (section 2.4): one machine for the wizard; the state's meta gives
// the step's route and progress, and an address the machine did not ask for is a route.changed
// event its guards accept or redirect (to /password-reset unless the reset email is held).
import { Alert, Anchor, Button, Container, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { passwordResetMachine } from '../../../../machines/password-reset/password-reset.machine';
import {
  selectBusy,
  selectCanSkip,
  selectCaptchaDraw,
  selectChallenges,
  selectDetails,
  selectEmail,
  selectErrorMessage,
  selectFieldErrors,
  selectProgress,
  selectRefusal,
  selectResendRefusal,
  selectSending,
  selectSmsUnavailableMessage,
  selectView,
} from '../../../../machines/password-reset/password-reset.select';
import { announce } from '../../app/notices';
import { PASSWORD_RESET_ROUTE, SIGN_IN_ROUTE } from '../../app/routes';
import { useSession } from '../../app/session';
import { ANONYMOUS_USER } from '../../../contract/entities';
import { CodeForm } from '../forced/shared/CodeForm';
import { ForcedProgress } from '../forced/shared/ForcedStatus';
import { StepProgress } from '../forced/shared/StepProgress';
import { useFlowActor } from '../shared/use-flow-actor';
import { useFlowRoute } from '../shared/use-flow-route';
import { passwordResetActors } from './password-reset.actors';
import { passwordResetTexts as t } from './password-reset.texts';
import { SecurityAnswersForm, SetPasswordForm, StartForm, UserSelectionForm } from './PasswordResetForms';

export default function PasswordResetPage() {
  const { currentUser } = useSession();
  // The route has no guard loader: on an address typed in, the session's first load may still be
  // on its way, and it brings the context that start sends (section 7).
  if (currentUser === null) {
    return (
      <Container size={520} px={0} py="xl">
        <ForcedProgress label={t.loading} />
      </Container>
    );
  }
  return <PasswordResetFlow />;
}

/**
 * The heading of a view that replaces the wizard (unavailable, failed): it takes the focus when it
 * appears, as ForcedStepFailed's does, so that the keyboard user is not left on the page (WCAG 2.4.3).
 */
function FocusedHeading({ children }: { children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Title order={1} ref={heading} tabIndex={-1}>
      {children}
    </Title>
  );
}

function PasswordResetFlow() {
  const session = useSession();
  const navigate = useNavigate();
  const [, send, actorRef] = useFlowActor(passwordResetMachine, {
    input: { context: session.context },
    actors: passwordResetActors,
    actions: {
      clearCurrentUser: () => session.setCurrentUser(ANONYMOUS_USER),
      announceResent: (_, { channel }) => announce({ message: t.resent(channel), tone: 'success' }),
    },
    onDone: (output) => {
      announce({ message: t.done, tone: 'success' });
      void navigate(output.route, { replace: true });
    },
  });
  useFlowRoute(actorRef, { basePath: PASSWORD_RESET_ROUTE });

  const view = useSelector(actorRef, selectView);
  const busy = useSelector(actorRef, selectBusy);
  const sending = useSelector(actorRef, selectSending);
  const progress = useSelector(actorRef, selectProgress);
  const refusal = useSelector(actorRef, selectRefusal);
  const fieldErrors = useSelector(actorRef, selectFieldErrors);
  const resendRefusal = useSelector(actorRef, selectResendRefusal);
  const captchaDraw = useSelector(actorRef, selectCaptchaDraw);
  const email = useSelector(actorRef, selectEmail);
  const details = useSelector(actorRef, selectDetails);
  const challenges = useSelector(actorRef, selectChallenges);
  const smsUnavailable = useSelector(actorRef, selectSmsUnavailableMessage);
  const canSkip = useSelector(actorRef, selectCanSkip);
  const errorMessage = useSelector(actorRef, selectErrorMessage);

  if (view === 'loading' || view === 'done') {
    return (
      <Container size={520} px={0} py="xl">
        <ForcedProgress label={view === 'done' ? t.done : t.loading} />
      </Container>
    );
  }

  if (view === 'unavailable') {
    return (
      <Container size={520} px={0} py="xl">
        <Stack gap="lg">
          <FocusedHeading>{t.unavailableHeading}</FocusedHeading>
          <Alert color="orange" role="alert">
            {t.unavailable}
          </Alert>
        </Stack>
      </Container>
    );
  }

  if (view === 'failed') {
    return (
      <Container size={520} px={0} py="xl">
        <Stack gap="lg">
          <FocusedHeading>{t.failedHeading}</FocusedHeading>
          <Alert color="red" role="alert">
            {errorMessage}
          </Alert>
          <Anchor component={Link} to={PASSWORD_RESET_ROUTE}>
            {t.startAgain}
          </Anchor>
        </Stack>
      </Container>
    );
  }

  const codeError = refusal ? (fieldErrors.code ?? refusal.message) : null;
  const resend = { onResend: () => send({ type: 'user.resend' }), busy: sending, refusal: resendRefusal };
  const skip =
    canSkip && (view === 'authenticatorApp' || view === 'sms') ? (
      <Button variant="subtle" size="compact-sm" onClick={() => send({ type: 'user.skip' })} disabled={busy}>
        {t.skip}
      </Button>
    ) : undefined;
  const stepTitle = {
    start: t.start.title,
    emailVerification: t.emailVerification.title,
    userSelection: t.userSelection.title,
    authenticatorApp: t.authenticatorApp.title,
    sms: t.sms.title,
    securityQuestions: t.securityQuestions.title,
    setPassword: t.setPassword.title,
    cannotFinish: t.cannotFinish.title,
  }[view];
  const factorStep = view !== 'start' && view !== 'emailVerification' && view !== 'userSelection';

  return (
    <Container size={520} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading}</Title>
        {/* A step that cannot be finished shows no progress towards it. */}
        {progress !== null && view !== 'cannotFinish' && <StepProgress value={progress} label={t.progress} />}
        <Title order={2} size="h3" data-step-heading>
          {stepTitle}
        </Title>
        {/* cannotFinish's own alert says it, and what it means for the reset. */}
        {smsUnavailable && factorStep && view !== 'cannotFinish' && (
          // The light variant's orange title is below 4.5:1 on its tinted background: it takes the text colour.
          <Alert
            color="orange"
            title={t.smsUnavailableTitle}
            styles={{ title: { color: 'var(--mantine-color-text)' } }}
          >
            {smsUnavailable}
          </Alert>
        )}
        {view === 'start' && (
          <>
            <Text>{t.start.instructions}</Text>
            <StartForm
              busy={busy}
              refusal={refusal}
              captchaDraw={captchaDraw}
              onRefreshCaptcha={() => send({ type: 'user.refreshCaptcha' })}
              onSubmit={(values) => send({ type: 'user.start', ...values })}
            />
          </>
        )}
        {view === 'emailVerification' && (
          <>
            <Text>{t.emailVerification.instructions(email)}</Text>
            <CodeForm
              name={t.emailVerification.title}
              submitLabel={t.emailVerification.submit}
              busy={busy}
              codeError={codeError}
              onSubmit={(code) => send({ type: 'user.verify', code })}
              resend={resend}
            />
          </>
        )}
        {view === 'userSelection' && (
          <>
            <Text>{t.userSelection.instructions}</Text>
            <UserSelectionForm
              identities={details?.identities ?? []}
              busy={busy}
              refusal={refusal}
              onSubmit={(username) => send({ type: 'user.select', username })}
            />
          </>
        )}
        {view === 'authenticatorApp' && (
          <>
            <Text>{t.authenticatorApp.instructions}</Text>
            <CodeForm
              name={t.authenticatorApp.title}
              submitLabel={t.authenticatorApp.submit}
              busy={busy}
              codeError={codeError}
              onSubmit={(code) => send({ type: 'user.verify', code })}
              after={skip}
            />
          </>
        )}
        {view === 'sms' && (
          <>
            <Text>{t.sms.instructions(details?.mobile ?? null)}</Text>
            <CodeForm
              name={t.sms.title}
              submitLabel={t.sms.submit}
              busy={busy}
              codeError={codeError}
              onSubmit={(code) => send({ type: 'user.verify', code })}
              resend={resend}
              after={skip}
            />
          </>
        )}
        {view === 'securityQuestions' && (
          <>
            <Text>{t.securityQuestions.instructions}</Text>
            <SecurityAnswersForm
              challenges={challenges}
              busy={busy}
              refusal={refusal}
              onSubmit={(answers) => send({ type: 'user.answer', answers })}
            />
          </>
        )}
        {view === 'cannotFinish' && (
          // No password form: the server would refuse it (SMS is the only factor, and it is down).
          // The step heading takes the focus as on any step; the alert is announced as it appears.
          <>
            <Alert color="orange" role="alert">
              {t.cannotFinish.message}
            </Alert>
            <Anchor component={Link} to={SIGN_IN_ROUTE}>
              {t.cannotFinish.signIn}
            </Anchor>
          </>
        )}
        {view === 'setPassword' && (
          <SetPasswordForm
            busy={busy}
            refusal={refusal}
            onSubmit={(values) => send({ type: 'user.submit', ...values })}
          />
        )}
      </Stack>
    </Container>
  );
}
