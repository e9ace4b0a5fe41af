// /forced-actions/change-expired-password (section 2.6): runs its machine with the real actors,
// shows the view of its state, and when it is done updates the session and goes where it says.
import { Container, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useNavigate } from 'react-router-dom';
import { changeExpiredPasswordMachine } from '../../../../../machines/forced/change-expired-password/change-expired-password.machine';
import {
  selectBusy,
  selectErrorMessage,
  selectRefusal,
  selectView,
} from '../../../../../machines/forced/change-expired-password/change-expired-password.select';
import { useSession } from '../../../app/session';
import { useFlowActor } from '../../shared/use-flow-actor';
import { useFlowRoute } from '../../shared/use-flow-route';
import { applyFlowOutput } from '../../shared/flow-output';
import { ContinueSignInView, ForcedProgress, ForcedStepFailed } from '../shared/ForcedStatus';
import { changeExpiredPasswordActors } from './change-expired-password.actors';
import { changeExpiredPasswordTexts as t } from './change-expired-password.texts';
import { ChangeExpiredPasswordForm } from './ChangeExpiredPasswordForm';

export default function ChangeExpiredPasswordPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [, send, actorRef] = useFlowActor(changeExpiredPasswordMachine, {
    input: { targetPath: session.targetPath, adminTargetPath: session.adminTargetPath },
    actors: changeExpiredPasswordActors,
    onDone: (output) => applyFlowOutput(output, session, (to, options) => void navigate(to, options)),
  });
  useFlowRoute(actorRef);

  const view = useSelector(actorRef, selectView);
  const busy = useSelector(actorRef, selectBusy);
  const refusal = useSelector(actorRef, selectRefusal);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const continuation = useSelector(actorRef, (s) => s.children.continueSignIn);

  return (
    <Container size={440} px={0} py="xl">
      {view === 'form' && (
        <Stack gap="lg">
          <Title order={1}>{t.heading}</Title>
          <Text>{t.intro}</Text>
          <ChangeExpiredPasswordForm
            busy={busy}
            refusal={refusal}
            onSubmit={(values) => send({ type: 'user.submit', ...values })}
            onCancel={() => send({ type: 'user.cancel' })}
          />
        </Stack>
      )}
      {view === 'continuing' && <ContinueSignInView actor={continuation} />}
      {view === 'failed' && (
        <ForcedStepFailed message={errorMessage} onLeave={() => send({ type: 'user.cancel' })} />
      )}
      {view === 'cancelling' && <ForcedProgress label={t.cancelling} />}
      {view === 'done' && <ForcedProgress label={t.signingIn} />}
    </Container>
  );
}
