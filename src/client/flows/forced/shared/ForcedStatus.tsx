// The views every forced step shares: waiting, the continuation of sign-in, and failure.
import { Alert, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { AnyActorRef } from 'xstate';
import {
  selectContinueSignInView,
  selectSamlHandoff,
} from '../../../../../machines/forced/continue-sign-in/continue-sign-in.select';
import { SamlPostForm } from '../../shared/SamlPostForm';
import { forcedTexts as t } from './forced.texts';

/** A call is under way: a spinner and a status line for screen readers. */
export function ForcedProgress({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text role="status">{label}</Text>
      </Stack>
    </Center>
  );
}

/**
 * The step's `continueSignIn` child: progress while the user loads, the hidden SAML form, or the
 * hand-off to the parent frame.
 */
export function ContinueSignInView({ actor }: { actor: AnyActorRef | undefined }) {
  const view = useSelector(actor, (snapshot: unknown) => selectContinueSignInView(snapshot));
  const saml = useSelector(actor, (snapshot: unknown) => selectSamlHandoff(snapshot));
  if (view === 'postingSaml' && saml) {
    return <SamlPostForm handoff={saml} label={t.handingOff} continueLabel={t.continueHandoff} />;
  }
  return <ForcedProgress label={view === 'handingOff' ? t.handingOff : t.signingIn} />;
}

/** An unexpected failure or 'Unknown authentication outcome'; the way out ends the session. */
export function ForcedStepFailed({ message, onLeave }: { message: string | null; onLeave?: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack gap="md">
      <Title order={1} ref={heading} tabIndex={-1}>
        {t.failedHeading}
      </Title>
      <Alert color="red" role="alert">
        {message ?? t.unknownOutcome}
      </Alert>
      {onLeave && (
        <div>
          <Button variant="default" onClick={onLeave}>
            {t.backToSignIn}
          </Button>
        </div>
      )}
    </Stack>
  );
}
