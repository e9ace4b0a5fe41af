// The sign-in page's other views: waiting, 503 unavailable, and failure.
import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { signInTexts as t } from './sign-in.texts';

/** Loading the failed count, loading the user after an outcome, or handing off to the parent frame. */
export function SignInProgress({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text role="status">{label}</Text>
      </Stack>
    </Center>
  );
}

function Problem({ heading, message }: { heading: string; message: string | null }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Stack gap="md">
      <Title order={1} ref={headingRef} tabIndex={-1}>
        {heading}
      </Title>
      <Alert color="red" role="alert">
        {message}
      </Alert>
    </Stack>
  );
}

/** Login answered 503. */
export function SignInUnavailable({ message }: { message: string | null }) {
  return <Problem heading={t.unavailableHeading} message={message} />;
}

/** 'Unknown authentication outcome' or an unexpected failure. */
export function SignInFailed({ message }: { message: string | null }) {
  return <Problem heading={t.errorHeading} message={message ?? t.unknownOutcome} />;
}
