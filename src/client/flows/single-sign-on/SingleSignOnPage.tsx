// /single-sign-on (section 2.1): runs the single-sign-on machine (machines/single-sign-on) for the
// application in the session's SAML context. Cancel (and the way on from 'no access') takes the
// user to their landing page in the portal: they stay signed in, the application gets nothing.
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { singleSignOnMachine } from '../../../../machines/single-sign-on/single-sign-on.machine';
import {
  selectAppName,
  selectBusyTarget,
  selectErrorMessage,
  selectRefusal,
  selectSamlPost,
  selectTargets,
  selectView,
} from '../../../../machines/single-sign-on/single-sign-on.select';
import type { CurrentUser } from '../../../contract/entities';
import { landingRoute } from '../../app/guards/guards';
import { SINGLE_SIGN_ON_ROUTE } from '../../app/routes';
import { useSession } from '../../app/session';
import { useSignOut } from '../../app/session/use-sign-out';
import { PageLoader } from '../../app/shell/PageLoader';
import { ChoiceList } from '../shared/ChoiceList';
import { SamlPostForm } from '../shared/SamlPostForm';
import { useFlowActor } from '../shared/use-flow-actor';
import { useFlowRoute } from '../shared/use-flow-route';
import { singleSignOnActors } from './single-sign-on.actors';
import { singleSignOnTexts as t } from './single-sign-on.texts';

function SignedInAs({ user }: { user: CurrentUser }) {
  const signOut = useSignOut();
  return (
    <Group gap="xs">
      <Text>{t.signedInAs(user.name, user.username)}</Text>
      <Text component="span">{t.notYou}</Text>
      <Button variant="subtle" size="compact-sm" onClick={() => void signOut()}>
        {t.signOut}
      </Button>
    </Group>
  );
}

function SingleSignOnFlow({ appCode, user }: { appCode: string; user: CurrentUser }) {
  const navigate = useNavigate();
  const questionId = useId();
  const [, send, actorRef] = useFlowActor(singleSignOnMachine, {
    input: { appCode },
    actors: singleSignOnActors,
    onDone: () => void navigate(landingRoute(user), { replace: true }),
  });
  useFlowRoute(actorRef, { basePath: SINGLE_SIGN_ON_ROUTE });

  const view = useSelector(actorRef, selectView);
  const appName = useSelector(actorRef, selectAppName);
  const targets = useSelector(actorRef, selectTargets);
  const busyTarget = useSelector(actorRef, selectBusyTarget);
  const saml = useSelector(actorRef, selectSamlPost);
  const refusal = useSelector(actorRef, selectRefusal);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const busy = busyTarget !== null;
  const refusalRef = useRef<HTMLDivElement>(null);
  // A refused handoff: the button pressed was busy (disabled) while it ran and has dropped the
  // focus; it goes to the refusal, which has no field to point at (WCAG 2.4.3).
  useEffect(() => {
    if (refusal) refusalRef.current?.focus();
  }, [refusal]);

  const refusalAlert = refusal && (
    <Alert color="red" role="alert" ref={refusalRef} tabIndex={-1}>
      {t.refused(refusal.appName, refusal.message)}
    </Alert>
  );

  switch (view) {
    case 'loading':
    case 'done':
      return <PageLoader />;
    case 'posting':
      return saml ? (
        <SamlPostForm
          handoff={saml}
          label={t.handingOff(appName)}
          continueLabel={t.continueHandoff}
          onRestored={() => send({ type: 'page.restored' })}
        />
      ) : null;
    case 'failed':
      return (
        <Stack gap="md">
          <Alert color="red" role="alert" title={t.loadFailed}>
            {errorMessage}
          </Alert>
          <Group>
            <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
          </Group>
        </Stack>
      );
    case 'noAccess':
      return (
        <Stack gap="md">
          <Text size="lg">{t.noAccess(appName)}</Text>
          <Group>
            <Button onClick={() => send({ type: 'user.cancel' })}>{t.continueToPortal}</Button>
          </Group>
        </Stack>
      );
    case 'confirm':
      return (
        <Stack gap="md">
          {refusalAlert}
          <Title order={2} size="h3" id={questionId}>
            {t.confirm(appName)}
          </Title>
          <Group>
            <Button loading={busy} onClick={() => send({ type: 'user.confirm' })}>
              {t.yes}
            </Button>
            <Button variant="default" disabled={busy} onClick={() => send({ type: 'user.cancel' })}>
              {t.cancel}
            </Button>
          </Group>
        </Stack>
      );
    case 'choose':
      return (
        <Stack gap="md">
          {refusalAlert}
          <Title order={2} size="h3" id={questionId}>
            {t.choose(appName)}
          </Title>
          <ChoiceList
            labelledBy={questionId}
            busyKey={busyTarget?.facilityCode ?? null}
            choices={targets.map((target) => ({
              key: target.facilityCode ?? '',
              label: target.facilityName ?? target.facilityAliasOrCode ?? target.appName,
              detail: target.facilityAliasOrCode,
            }))}
            onChoose={(facilityCode) => send({ type: 'user.choose', facilityCode })}
          />
          <Group>
            <Button variant="default" disabled={busy} onClick={() => send({ type: 'user.cancel' })}>
              {t.cancel}
            </Button>
          </Group>
        </Stack>
      );
  }
}

export default function SingleSignOnPage() {
  const { currentUser, context } = useSession();
  return (
    <Container size={560} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading}</Title>
        {currentUser && context ? (
          <>
            <SignedInAs user={currentUser} />
            <SingleSignOnFlow appCode={context.appCode} user={currentUser} />
          </>
        ) : (
          <PageLoader />
        )}
      </Stack>
    </Container>
  );
}
