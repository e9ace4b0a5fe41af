// A JWT application's sign-in opened in a tab of its own: the token goes only to the application's
// frame (section 4.1), and there is none, so nothing was posted. Loaded only then: the sign-in page
// most visitors see does not carry it.
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { APPLICATIONS_ROUTE } from '../../app/routes';
import { outsideFrameTexts as t } from './outside-frame.texts';

export default function SignInOutsideFrame() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack gap="md">
      <Title order={1} ref={heading} tabIndex={-1}>
        {t.heading}
      </Title>
      <Alert color="red" role="alert">
        {t.message}
      </Alert>
      {/* A new page load, not an in-app link: the session is read again (signed in, the
          applications page; otherwise sign-in). */}
      <Text>
        <Anchor href={APPLICATIONS_ROUTE}>{t.link}</Anchor>
      </Text>
    </Stack>
  );
}
