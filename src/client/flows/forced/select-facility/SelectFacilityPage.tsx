// /forced-actions/select-facility (sections 2.6 and 4.3): runs the select-facility machine; a click
// on a facility hands off to the application with it. Cancel abandons the sign-in (sign out). A
// refused handoff is section 8's 8 s toast, as on the applications page and the header grid (only
// /single-sign-on shows it inline).
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { selectFacilityMachine } from '../../../../../machines/forced/select-facility/select-facility.machine';
import {
  selectBusyFacility,
  selectErrorMessage,
  selectFacilities,
  selectRefusal,
  selectSamlPost,
  selectView,
} from '../../../../../machines/forced/select-facility/select-facility.select';
import { FORCED_ACTION_ROUTES } from '../../../app/routes';
import { announceRefusal } from '../../handoff/handoff.actions';
import { useSignOut } from '../../../app/session/use-sign-out';
import { PageLoader } from '../../../app/shell/PageLoader';
import { ChoiceList } from '../../shared/ChoiceList';
import { SamlPostForm } from '../../shared/SamlPostForm';
import { useFlowActor } from '../../shared/use-flow-actor';
import { useFlowRoute } from '../../shared/use-flow-route';
import { selectFacilityActors } from './select-facility.actors';
import { selectFacilityTexts as t } from './select-facility.texts';

function SelectFacilityFlow() {
  const questionId = useId();
  const signOut = useSignOut();
  const [, send, actorRef] = useFlowActor(selectFacilityMachine, {
    input: undefined,
    actors: selectFacilityActors,
  });
  useFlowRoute(actorRef, { basePath: FORCED_ACTION_ROUTES.SELECT_FACILITY });

  const view = useSelector(actorRef, selectView);
  const facilities = useSelector(actorRef, selectFacilities);
  const busyFacility = useSelector(actorRef, selectBusyFacility);
  const saml = useSelector(actorRef, selectSamlPost);
  const refusal = useSelector(actorRef, selectRefusal);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const chosen = useSelector(actorRef, (s) => s.context.facility);

  // Each refusal is a new object (a new choice clears the last one), so it is told once, also when
  // an effect runs twice (StrictMode in development).
  const told = useRef<typeof refusal>(null);
  useEffect(() => {
    if (refusal === null || refusal === told.current) return;
    told.current = refusal;
    announceRefusal(undefined, refusal);
  }, [refusal]);

  const cancel = (
    <Group>
      <Button variant="default" disabled={busyFacility !== null} onClick={() => void signOut()}>
        {t.cancel}
      </Button>
    </Group>
  );

  switch (view) {
    case 'loading':
      return <PageLoader />;
    case 'posting':
      return saml ? (
        <SamlPostForm
          handoff={saml}
          label={t.handingOff(chosen?.name ?? '')}
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
          {cancel}
        </Stack>
      );
    case 'noFacilities':
      return (
        <Stack gap="md">
          <Text>{t.noFacilities}</Text>
          {cancel}
        </Stack>
      );
    case 'choose':
      return (
        <Stack gap="md">
          <Text id={questionId}>{t.question}</Text>
          <ChoiceList
            labelledBy={questionId}
            busyKey={busyFacility?.code ?? null}
            choices={facilities.map((facility) => ({
              key: facility.code,
              label: facility.name,
              detail: facility.aliasOrCode,
            }))}
            onChoose={(facilityCode) => send({ type: 'user.choose', facilityCode })}
          />
          {cancel}
        </Stack>
      );
  }
}

export default function SelectFacilityPage() {
  return (
    <Container size={560} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading}</Title>
        <SelectFacilityFlow />
      </Stack>
    </Container>
  );
}
