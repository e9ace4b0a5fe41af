// The 'Re-enter password' modal (sections 2.2 and 4.2) and the watcher that opens it: mounted by
// the shell while the user is signed in. The modal cannot be closed by Esc or the backdrop; its
// buttons are Sign out (the shell's sign-out) and Submit. The typed password lives only here.
import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { ActorOptions, ActorRefFrom } from 'xstate';
import { reenterPasswordMachine } from '../../../../machines/session/reenter-password/reenter-password.machine';
import {
  selectModalOpen,
  selectPasswordError,
  selectSubmitting,
} from '../../../../machines/session/reenter-password/reenter-password.select';
import { DecisionModal } from '../shell/DecisionModal';
import { useFlowImplementations } from '../../flows/shared/flow-implementations';
import { reenterPasswordActors } from './reenter-password.actors';
import { reenterPasswordTexts as t } from './reenter-password.texts';
import { useSignOut } from '../session/use-sign-out';
import { registerReenterPrompt } from './gate';
import { fieldErrorProps } from '../../flows/forced/shared/field-props';

type WatcherActor = ActorRefFrom<typeof reenterPasswordMachine>;

export function ReenterPasswordModal({ actor }: { actor: WatcherActor }) {
  const opened = useSelector(actor, selectModalOpen);
  const submitting = useSelector(actor, selectSubmitting);
  const serverError = useSelector(actor, selectPasswordError);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // A new opening starts empty; each refusal empties the field and puts its message on it.
  useEffect(() => {
    if (!opened) setPassword('');
  }, [opened]);
  useEffect(() => {
    setError(serverError);
    if (serverError === null) return;
    setPassword('');
    input.current?.focus();
  }, [serverError]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password === '') {
      setError(t.required);
      input.current?.focus();
      return;
    }
    actor.send({ type: 'user.submit', password });
  };

  return (
    <DecisionModal opened={opened} title={t.title}>
      <form onSubmit={submit} noValidate aria-label={t.title}>
        <Stack gap="md">
          <Text size="sm">{t.explanation}</Text>
          <PasswordInput
            ref={input}
            label={t.password}
            autoComplete="current-password"
            required
            data-autofocus
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            // Mantine's PasswordInput marks its input data-invalid only: assistive technology needs aria.
            aria-invalid={error !== null}
            errorProps={fieldErrorProps}
          />
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => actor.send({ type: 'user.signOut' })}
              disabled={submitting}
            >
              {t.signOut}
            </Button>
            <Button type="submit" loading={submitting}>
              {t.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </DecisionModal>
  );
}

export interface ReenterPasswordWatcherProps {
  /** The clock of the watcher's delays (tests give a simulated one); the browser's by default. */
  clock?: ActorOptions<typeof reenterPasswordMachine>['clock'];
}

/**
 * For the api layer (gate.ts): opens the modal now and settles once it has closed, the password
 * entered again or the server saying it need not be; rejects when the caller gives up.
 */
function askNow(actor: ActorRefFrom<typeof reenterPasswordMachine>, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let asked = false;
    const settle = (done: () => void) => {
      subscription.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    const subscription = actor.subscribe((snapshot) => {
      if (snapshot.matches('prompting')) asked = true;
      else if (asked && snapshot.matches('watching')) settle(resolve);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    actor.send({ type: 'password.required' });
  });
}

/**
 * Runs the watcher for the signed-in user and shows its modal. A sign-out from the modal that fails
 * leaves the user signed in (useSignOut), so the watcher starts again: the modal comes back while
 * the password is still to be entered.
 */
export default function ReenterPasswordWatcher({ clock }: ReenterPasswordWatcherProps) {
  const [run, setRun] = useState(0);
  const restart = useCallback(() => setRun((n) => n + 1), []);
  return <Watcher key={run} clock={clock} onSignOutFailed={restart} />;
}

function Watcher({ clock, onSignOutFailed }: ReenterPasswordWatcherProps & { onSignOutFailed: () => void }) {
  const overrides = useFlowImplementations(reenterPasswordMachine.id);
  const signOut = useSignOut();
  const leave = async () => {
    if (!(await signOut())) onSignOutFailed();
  };
  const signOutRef = useRef(leave);
  useEffect(() => {
    signOutRef.current = leave;
  });
  const [logic] = useState(() =>
    reenterPasswordMachine.provide({
      actors: { ...reenterPasswordActors, ...overrides?.actors },
      actions: { signOut: () => void signOutRef.current(), ...overrides?.actions },
    }),
  );
  // An absent option must stay absent: `clock: undefined` would replace the actor's default clock.
  const actor = useActorRef(logic, {
    ...(clock ? { clock } : {}),
    ...(overrides?.inspect ? { inspect: overrides.inspect } : {}),
  });
  useEffect(() => {
    registerReenterPrompt((signal) => askNow(actor, signal));
    return () => registerReenterPrompt(null);
  }, [actor]);
  return <ReenterPasswordModal actor={actor} />;
}
