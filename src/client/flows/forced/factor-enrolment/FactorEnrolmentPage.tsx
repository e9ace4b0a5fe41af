// /forced-actions/factor-enrolment and its steps (section 2.6): one machine for the wizard; the
// address gives the step a reload resumes at, and the state's meta the step's route and progress.
import { Container, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useLocation, useNavigate } from 'react-router-dom';
import { factorEnrolmentMachine } from '../../../../../machines/forced/factor-enrolment/factor-enrolment.machine';
import { resolveRoute } from '../../../../../machines/routes';
import {
  selectBusy,
  selectErrorMessage,
  selectFieldErrors,
  selectMfaRequired,
  selectMobile,
  selectProgress,
  selectQuestions,
  selectRefusal,
  selectResending,
  selectResendRefusal,
  selectSmsUnavailableMessage,
  selectView,
} from '../../../../../machines/forced/factor-enrolment/factor-enrolment.select';
import { announce } from '../../../app/notices';
import { FACTOR_ENROLMENT_STEPS, FORCED_ACTION_ROUTES } from '../../../app/routes';
import { useSession } from '../../../app/session';
import { useSignOut } from '../../../app/session/use-sign-out';
import { useFlowActor } from '../../shared/use-flow-actor';
import { useFlowRoute } from '../../shared/use-flow-route';
import { CodeForm } from '../shared/CodeForm';
import { applyFlowOutput } from '../../shared/flow-output';
import { ContinueSignInView, ForcedProgress, ForcedStepFailed } from '../shared/ForcedStatus';
import { StepProgress } from '../shared/StepProgress';
import { factorEnrolmentActors } from './factor-enrolment.actors';
import { factorEnrolmentTexts as t } from './factor-enrolment.texts';
import { SecurityQuestionsStep, SelectSmsStep, SmsVerificationStep } from './EnrolmentSteps';

const BASE = FORCED_ACTION_ROUTES.FACTOR_ENROLMENT;

export default function FactorEnrolmentPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();
  const [, send, actorRef] = useFlowActor(factorEnrolmentMachine, {
    input: {
      path: location.pathname,
      targetPath: session.targetPath,
      adminTargetPath: session.adminTargetPath,
    },
    actors: factorEnrolmentActors,
    actions: {
      announceResent: (_, { channel }) => announce({ message: t.resent(channel), tone: 'success' }),
    },
    onDone: (output) => applyFlowOutput(output, session, (to, options) => void navigate(to, options)),
  });
  useFlowRoute(actorRef, { basePath: BASE });

  const view = useSelector(actorRef, selectView);
  const busy = useSelector(actorRef, selectBusy);
  const resending = useSelector(actorRef, selectResending);
  const progress = useSelector(actorRef, selectProgress);
  const mfaRequired = useSelector(actorRef, selectMfaRequired);
  const refusal = useSelector(actorRef, selectRefusal);
  const fieldErrors = useSelector(actorRef, selectFieldErrors);
  const resendRefusal = useSelector(actorRef, selectResendRefusal);
  const smsUnavailable = useSelector(actorRef, selectSmsUnavailableMessage);
  const mobile = useSelector(actorRef, selectMobile);
  const questions = useSelector(actorRef, selectQuestions);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const continuation = useSelector(actorRef, (s) => s.children.continueSignIn);

  if (view === 'loading' || view === 'continuing' || view === 'failed' || view === 'done') {
    return (
      <Container size={520} px={0} py="xl">
        {view === 'loading' && <ForcedProgress label={t.loading} />}
        {view === 'continuing' && <ContinueSignInView actor={continuation} />}
        {view === 'failed' && <ForcedStepFailed message={errorMessage} onLeave={() => void signOut()} />}
        {view === 'done' && <ForcedProgress label={t.signingIn} />}
      </Container>
    );
  }

  const resend = { onResend: () => send({ type: 'user.resend' }), busy: resending, refusal: resendRefusal };
  const codeError = refusal ? (fieldErrors.code ?? refusal.message) : null;
  const stepTitle = {
    emailVerification: t.email.title,
    selectSms: t.selectSms.title,
    smsVerification: t.smsVerification.title,
    securityQuestions: t.securityQuestions.title,
  }[view];

  return (
    <Container size={520} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{mfaRequired ? t.headingMfa : t.headingSecurity}</Title>
        {progress !== null && <StepProgress value={progress} />}
        <Title order={2} size="h3" data-step-heading>
          {stepTitle}
        </Title>
        {view === 'emailVerification' && (
          <>
            <Text>{t.email.instructions}</Text>
            <CodeForm
              name={t.email.title}
              submitLabel={t.email.submit}
              busy={busy}
              codeError={codeError}
              onSubmit={(code) => send({ type: 'user.verify', code })}
              resend={resend}
            />
          </>
        )}
        {view === 'selectSms' && (
          <SelectSmsStep
            initialMobile={mobile}
            busy={busy}
            refusal={refusal}
            onEnrolSms={(value) => send({ type: 'user.enrolSms', mobile: value })}
            onChooseEmail={() => send({ type: 'user.chooseEmail' })}
          />
        )}
        {view === 'smsVerification' && (
          <SmsVerificationStep
            mobile={mobile}
            busy={busy}
            codeError={codeError}
            onVerify={(code) => send({ type: 'user.verify', code })}
            resend={resend}
            changeMobileTo={resolveRoute(BASE, FACTOR_ENROLMENT_STEPS.SELECT_SMS_FACTOR)}
          />
        )}
        {view === 'securityQuestions' && (
          <SecurityQuestionsStep
            smsUnavailable={smsUnavailable}
            questions={questions}
            busy={busy}
            refusal={refusal}
            onSubmit={(values) => send({ type: 'user.submit', ...values })}
          />
        )}
      </Stack>
    </Container>
  );
}
