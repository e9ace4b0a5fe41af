// The idle warning (WCAG 2.2.1, timing adjustable): mounted by the shell while a session is signed
// in or pending. Two minutes before the server would end an unused session, the dialog 'Your
// session is about to end' says when, with Stay signed in (a call, which counts as use) and Sign
// out. It cannot be dismissed otherwise: leaving it open lets the session end as the server says.
import { Button, Group, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ActorOptions, ActorRefFrom } from 'xstate';
import {
  idleWarningMachine,
  WARNING_LEAD_MS,
} from '../../../../machines/session/idle-warning/idle-warning.machine';
import {
  selectExtending,
  selectWarningOpen,
} from '../../../../machines/session/idle-warning/idle-warning.select';
import { DecisionModal } from '../shell/DecisionModal';
import { useFlowImplementations } from '../../flows/shared/flow-implementations';
import { useServices } from '../services';
import { useSignOut } from '../session/use-sign-out';
import { endExpiredSession, idleWarningActors, onSessionExpiry } from './idle-warning.actors';
import { idleWarningTexts as t } from './idle-warning.texts';

type WarningActor = ActorRefFrom<typeof idleWarningMachine>;

const endsAtFormat = new Intl.DateTimeFormat('en-AU', { timeStyle: 'short' });

export function IdleWarningDialog({ actor }: { actor: WarningActor }) {
  const opened = useSelector(actor, selectWarningOpen);
  const extending = useSelector(actor, selectExtending);
  const expiresInMs = useSelector(actor, (s) => s.context.expiresInMs);
  // When the session will end, fixed as the dialog opens: a clock time, which a screen reader reads
  // once, rather than a countdown that would speak every second.
  const endsAt = useMemo(
    () => (opened ? endsAtFormat.format(Date.now() + Math.min(expiresInMs ?? 0, WARNING_LEAD_MS)) : ''),
    // Only a new opening fixes a new time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [opened],
  );
  return (
    <DecisionModal opened={opened} title={t.title}>
      <Stack gap="md">
        <Text size="sm">{t.explanation(endsAt)}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => actor.send({ type: 'user.signOut' })} disabled={extending}>
            {t.signOut}
          </Button>
          <Button
            data-autofocus
            loading={extending}
            onClick={() => actor.send({ type: 'user.staySignedIn' })}
          >
            {t.staySignedIn}
          </Button>
        </Group>
      </Stack>
    </DecisionModal>
  );
}

export interface IdleWarningProps {
  /** The clock of the machine's delays (tests give a simulated one); the browser's by default. */
  clock?: ActorOptions<typeof idleWarningMachine>['clock'];
}

/**
 * Runs the idle warning for the session and shows its dialog. A sign-out from the dialog that fails
 * (a 5xx or no answer: section 8 has shown /error) leaves the user signed in (useSignOut), so the
 * warning starts again, as the 'Re-enter password' watcher does: it asks how long the session has
 * left and warns again before it ends, rather than letting it end unannounced.
 */
export default function IdleWarning({ clock }: IdleWarningProps) {
  const [run, setRun] = useState(0);
  const restart = useCallback(() => setRun((n) => n + 1), []);
  return <Warning key={run} clock={clock} onSignOutFailed={restart} />;
}

function Warning({ clock, onSignOutFailed }: IdleWarningProps & { onSignOutFailed: () => void }) {
  const overrides = useFlowImplementations(idleWarningMachine.id);
  const services = useServices();
  const signOut = useSignOut();
  const leave = async () => {
    if (!(await signOut())) onSignOutFailed();
  };
  const signOutRef = useRef(leave);
  useEffect(() => {
    signOutRef.current = leave;
  });
  const logic = useMemo(
    () =>
      idleWarningMachine.provide({
        actors: { ...idleWarningActors(services.loadSession), ...overrides?.actors },
        actions: {
          endSession: endExpiredSession,
          signOut: () => void signOutRef.current(),
          ...overrides?.actions,
        },
      }),
    // The machine is made once for the component's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const actor = useActorRef(logic, {
    ...(clock ? { clock } : {}),
    ...(overrides?.inspect ? { inspect: overrides.inspect } : {}),
  });
  useEffect(
    () => onSessionExpiry((expiresInMs) => actor.send({ type: 'session.seen', expiresInMs })),
    [actor],
  );
  return <IdleWarningDialog actor={actor} />;
}
