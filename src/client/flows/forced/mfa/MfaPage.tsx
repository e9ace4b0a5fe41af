// /forced-actions/mfa/<factor>-verification (section 2.6): one machine for the three screens, so a
// skip moves between them without losing what the page knows; the address gives the first screen
// and the sign-in page's navigation state any SMS-unavailable message.
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import { Alert, Anchor, Checkbox, Container, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { mfaMachine } from '../../../../../machines/forced/mfa/mfa.machine';
import {
  selectCodeError,
  selectErrorMessage,
  selectResending,
  selectResendRefusal,
  selectNoOtherFactor,
  selectSmsUnavailableMessage,
  selectTrustedDevicePeriod,
  selectVerifying,
  selectView,
} from '../../../../../machines/forced/mfa/mfa.select';
import type { FactorType } from '../../../../contract/entities';
import { announce } from '../../../app/notices';
import { FORCED_ACTION_ROUTES } from '../../../app/routes';
import { useSession } from '../../../app/session';
import { useSignOut } from '../../../app/session/use-sign-out';
import { useFlowActor } from '../../shared/use-flow-actor';
import { useFlowRoute } from '../../shared/use-flow-route';
import { CodeForm } from '../shared/CodeForm';
import { applyFlowOutput, type FlowNavigationState } from '../../shared/flow-output';
import { ContinueSignInView, ForcedProgress, ForcedStepFailed } from '../shared/ForcedStatus';
import { mfaActors } from './mfa.actors';
import { mfaTexts as t } from './mfa.texts';

const FACTOR_OF_ROUTE: Record<string, FactorType> = {
  [FORCED_ACTION_ROUTES.MFA_AUTHENTICATOR_APP]: 'AUTHENTICATOR_APP',
  [FORCED_ACTION_ROUTES.MFA_SMS]: 'SMS',
  [FORCED_ACTION_ROUTES.MFA_EMAIL]: 'EMAIL',
};

export const factorOfPath = (path: string): FactorType | null =>
  FACTOR_OF_ROUTE[path.replace(/\/$/, '')] ?? null;

function TrustDevice({
  checked,
  onChange,
  period,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  period: string;
}) {
  return (
    <Checkbox
      label={t.trustDevice(period)}
      description={t.trustDeviceHint}
      checked={checked}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}

export default function MfaPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();
  const handedOver = (location.state ?? null) as FlowNavigationState | null;
  const [, send, actorRef] = useFlowActor(mfaMachine, {
    input: {
      factor: factorOfPath(location.pathname),
      smsUnavailableMessage: handedOver?.smsUnavailableMessage ?? null,
      targetPath: session.targetPath,
      adminTargetPath: session.adminTargetPath,
    },
    actors: mfaActors,
    actions: {
      announceResent: (_, { channel }) => announce({ message: t.resent(channel), tone: 'success' }),
    },
    onDone: (output) => applyFlowOutput(output, session, (to, options) => void navigate(to, options)),
  });
  useFlowRoute(actorRef);
  const [trustDevice, setTrustDevice] = useState(false);

  const view = useSelector(actorRef, selectView);
  const verifying = useSelector(actorRef, selectVerifying);
  const resending = useSelector(actorRef, selectResending);
  const codeError = useSelector(actorRef, selectCodeError);
  const resendRefusal = useSelector(actorRef, selectResendRefusal);
  const smsUnavailable = useSelector(actorRef, selectSmsUnavailableMessage);
  const period = useSelector(actorRef, selectTrustedDevicePeriod);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const skipping = useSelector(actorRef, (s) => s.matches('skipping'));
  const noOtherFactor = useSelector(actorRef, selectNoOtherFactor);
  const continuation = useSelector(actorRef, (s) => s.children.continueSignIn);
  // A skip that found no other factor: the clicked link is gone, so focus goes to the message that
  // says why (WCAG 2.4.3) rather than falling to the page.
  const noOtherFactorAlert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (noOtherFactor) noOtherFactorAlert.current?.focus();
  }, [noOtherFactor]);

  if (view === 'continuing' || view === 'failed' || view === 'loading' || view === 'done') {
    return (
      <Container size={440} px={0} py="xl">
        {view === 'continuing' && <ContinueSignInView actor={continuation} />}
        {view === 'failed' && <ForcedStepFailed message={errorMessage} onLeave={() => void signOut()} />}
        {view === 'loading' && <ForcedProgress label={skipping ? t.skipping : t.loading} />}
        {view === 'done' && <ForcedProgress label={t.signingIn} />}
      </Container>
    );
  }

  const factor = view;
  const canSkip = factor !== 'EMAIL' && !noOtherFactor;
  const canResend = factor !== 'AUTHENTICATOR_APP';
  // The machine takes no skip while a code is checked or another one sent: the link says so.
  const busy = verifying || resending;
  return (
    <Container size={440} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading[factor]}</Title>
        {smsUnavailable && (
          <Alert color="orange" title={t.smsUnavailableTitle}>
            {smsUnavailable}
          </Alert>
        )}
        {noOtherFactor && (
          <Alert
            color="orange"
            role="alert"
            title={t.noOtherFactorTitle}
            ref={noOtherFactorAlert}
            tabIndex={-1}
          >
            {t.noOtherFactor}
          </Alert>
        )}
        <Text>{t.instructions[factor]}</Text>
        <CodeForm
          key={factor}
          name={t.heading[factor]}
          submitLabel={t.verify}
          busy={verifying}
          codeError={codeError}
          onSubmit={(code) => send({ type: 'user.verify', code, trustDevice })}
          resend={
            canResend
              ? { onResend: () => send({ type: 'user.resend' }), busy: resending, refusal: resendRefusal }
              : undefined
          }
          after={
            canSkip && (
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => send({ type: 'user.skip' })}
                disabled={busy}
                aria-disabled={busy}
              >
                {t.noAccess}
              </Anchor>
            )
          }
        >
          <TrustDevice checked={trustDevice} onChange={setTrustDevice} period={t.period(period)} />
        </CodeForm>
      </Stack>
    </Container>
  );
}
