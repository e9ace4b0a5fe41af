// /registration and its steps (sections 2.5 and 4.6): one machine for the wizard; the state's meta
// gives each step's address and progress. The invite lives in the machine (and the server's
// session): an address of a later step without it lands on the start.
// This page's own Mantine styles (app/styles.ts loads only what the first page needs).
import '@mantine/core/styles/Code.css';
import { Anchor, Button, Code, Container, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Link, useNavigate } from 'react-router-dom';
import { registrationMachine } from '../../../../machines/registration/registration.machine';
import { resolveRoute } from '../../../../machines/routes';
import { ANONYMOUS_USER } from '../../../contract/entities';
import {
  selectAuthenticator,
  selectBusy,
  selectCaptchaDraw,
  selectEditable,
  selectErrorMessage,
  selectFieldErrors,
  selectInvite,
  selectMobile,
  selectProgress,
  selectQuestions,
  selectRefusal,
  selectResending,
  selectResendRefusal,
  selectSmsUnavailableMessage,
  selectView,
} from '../../../../machines/registration/registration.select';
import { announce } from '../../app/notices';
import { REGISTRATION_ROUTE, REGISTRATION_STEPS } from '../../app/routes';
import { useSession } from '../../app/session';
import { CodeForm } from '../forced/shared/CodeForm';
import { applyFlowOutput } from '../shared/flow-output';
import { ContinueSignInView, ForcedProgress, ForcedStepFailed } from '../forced/shared/ForcedStatus';
import { StepProgress } from '../forced/shared/StepProgress';
import {
  SecurityQuestionsStep,
  SelectSmsStep,
  SmsVerificationStep,
} from '../forced/factor-enrolment/EnrolmentSteps';
import { factorEnrolmentTexts } from '../forced/factor-enrolment/factor-enrolment.texts';
import { useFlowActor } from '../shared/use-flow-actor';
import { useFlowRoute } from '../shared/use-flow-route';
import { DetailsForm, InviteSummary } from './DetailsForm';
import { ExistingAccountForm } from './ExistingAccountForm';
import { PasswordForm } from './PasswordForm';
import { registrationActors } from './registration.actors';
import { registrationTexts as t } from './registration.texts';
import { StartForm } from './StartForm';

const BASE = REGISTRATION_ROUTE;

/**
 * A button whose label wraps onto more lines, the button growing in height, where its one line
 * would be wider than the page (Mantine's label is one line, the rest cut off): at 320 CSS px
 * (WCAG 1.4.10).
 */
const wrappingButtonStyles = {
  root: {
    height: 'auto',
    minHeight: 'var(--button-height)',
    maxWidth: '100%',
    paddingBlock: 'calc(0.5rem * var(--mantine-scale))',
  },
  label: { whiteSpace: 'normal', height: 'auto', lineHeight: 1.3 },
} as const;

export default function RegistrationPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [, send, actorRef] = useFlowActor(registrationMachine, {
    input: { targetPath: session.targetPath, adminTargetPath: session.adminTargetPath },
    actors: registrationActors,
    actions: {
      announceResent: () => announce({ message: t.resent('sms'), tone: 'success' }),
      forgetCurrentUser: () => session.setCurrentUser(ANONYMOUS_USER),
    },
    onDone: (output) => applyFlowOutput(output, session, (to, options) => void navigate(to, options)),
  });
  useFlowRoute(actorRef, { basePath: BASE });

  const view = useSelector(actorRef, selectView);
  const busy = useSelector(actorRef, selectBusy);
  const resending = useSelector(actorRef, selectResending);
  const progress = useSelector(actorRef, selectProgress);
  const refusal = useSelector(actorRef, selectRefusal);
  const fieldErrors = useSelector(actorRef, selectFieldErrors);
  const invite = useSelector(actorRef, selectInvite);
  const editable = useSelector(
    actorRef,
    selectEditable,
    (a, b) => a.username === b.username && a.name === b.name,
  );
  const captchaDraw = useSelector(actorRef, selectCaptchaDraw);
  const authenticator = useSelector(actorRef, selectAuthenticator);
  const mobile = useSelector(actorRef, selectMobile);
  const questions = useSelector(actorRef, selectQuestions);
  const resendRefusal = useSelector(actorRef, selectResendRefusal);
  const smsUnavailable = useSelector(actorRef, selectSmsUnavailableMessage);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const continuation = useSelector(actorRef, (s) => s.children.continueSignIn);

  if (view === 'continuing' || view === 'failed' || view === 'done') {
    return (
      <Container size={520} px={0} py="xl">
        {view === 'continuing' && <ContinueSignInView actor={continuation} />}
        {view === 'failed' && (
          <ForcedStepFailed message={errorMessage} onLeave={() => send({ type: 'user.cancel' })} />
        )}
        {view === 'done' && <ForcedProgress label={t.signingIn} />}
      </Container>
    );
  }

  const codeError = refusal ? (fieldErrors.code ?? refusal.message) : null;
  const stepTitle: Record<Exclude<typeof view, 'continuing' | 'failed' | 'done'>, string> = {
    preparing: t.start.title,
    start: t.start.title,
    collectDetails: t.details.title,
    loadingAuthenticator: t.authenticator.title,
    selectAuthenticatorApp: t.authenticator.title,
    authenticatorAppVerification: t.authenticatorVerification.title,
    selectSms: factorEnrolmentTexts.selectSms.title,
    smsVerification: factorEnrolmentTexts.smsVerification.title,
    securityQuestions: t.securityQuestions.title,
    setPassword: t.setPassword.title,
    verifyIdentity: t.verifyIdentity.title,
  };

  return (
    <Container size={560} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading}</Title>
        {progress !== null && <StepProgress value={progress} />}
        <Title order={2} size="h3" data-step-heading>
          {stepTitle[view]}
        </Title>
        {view === 'preparing' && <ForcedProgress label={t.preparing} />}
        {view === 'start' && (
          <>
            <Text>{t.start.instructions}</Text>
            <StartForm
              busy={busy}
              refusal={refusal}
              captchaDraw={captchaDraw}
              onStart={(values) => send({ type: 'user.start', ...values })}
              onRefreshCaptcha={() => send({ type: 'user.refreshCaptcha' })}
            />
          </>
        )}
        {view === 'collectDetails' && invite && (
          <>
            <InviteSummary invite={invite} />
            <DetailsForm
              invite={invite}
              editable={editable}
              busy={busy}
              refusal={refusal}
              onSubmit={(values) => send({ type: 'user.submitDetails', ...values })}
            />
          </>
        )}
        {view === 'loadingAuthenticator' && <ForcedProgress label={t.preparing} />}
        {view === 'selectAuthenticatorApp' && authenticator && (
          <>
            <Text>{t.authenticator.instructions}</Text>
            <Image src={authenticator.qrCode} alt={t.authenticator.qrAlt} w={200} h={200} fit="contain" />
            <Text size="sm">
              {t.authenticator.setupKey}: <Code data-testid="setup-key">{authenticator.setupKey}</Code>
            </Text>
            <Group gap="sm">
              <Button
                onClick={() => send({ type: 'user.scanned' })}
                disabled={busy}
                styles={wrappingButtonStyles}
              >
                {t.authenticator.scanned}
              </Button>
              <Button variant="default" onClick={() => send({ type: 'user.chooseSms' })} disabled={busy}>
                {t.authenticator.chooseSms}
              </Button>
              <Button variant="default" onClick={() => send({ type: 'user.chooseEmail' })} loading={busy}>
                {t.authenticator.chooseEmail}
              </Button>
            </Group>
          </>
        )}
        {view === 'authenticatorAppVerification' && (
          <>
            <Text>{t.authenticatorVerification.instructions}</Text>
            <CodeForm
              name={t.authenticatorVerification.title}
              submitLabel={t.authenticatorVerification.submit}
              busy={busy}
              codeError={codeError}
              onSubmit={(code) => send({ type: 'user.verify', code })}
              after={
                <Anchor
                  component={Link}
                  to={resolveRoute(BASE, REGISTRATION_STEPS.SELECT_AUTHENTICATOR_APP_FACTOR)}
                  size="sm"
                >
                  {t.authenticatorVerification.back}
                </Anchor>
              }
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
            resend={{
              onResend: () => send({ type: 'user.resend' }),
              busy: resending,
              refusal: resendRefusal,
            }}
            changeMobileTo={resolveRoute(BASE, REGISTRATION_STEPS.SELECT_SMS_FACTOR)}
          />
        )}
        {view === 'securityQuestions' && (
          <SecurityQuestionsStep
            smsUnavailable={smsUnavailable}
            questions={questions}
            busy={busy}
            refusal={refusal}
            submitLabel={t.securityQuestions.submitLabel}
            onSubmit={(values) => send({ type: 'user.submitQuestions', ...values })}
          />
        )}
        {view === 'setPassword' && (
          <PasswordForm
            busy={busy}
            refusal={refusal}
            onSubmit={(values) => send({ type: 'user.submitPassword', ...values })}
          />
        )}
        {view === 'verifyIdentity' && invite && (
          <>
            <Text>{t.verifyIdentity.instructions}</Text>
            <InviteSummary invite={invite} />
            <ExistingAccountForm
              busy={busy}
              refusal={refusal}
              onSubmit={(values) => send({ type: 'user.submitExisting', ...values })}
              onCancel={() => send({ type: 'user.cancel' })}
            />
          </>
        )}
      </Stack>
    </Container>
  );
}
