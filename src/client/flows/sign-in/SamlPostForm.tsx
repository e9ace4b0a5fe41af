// SAML_HANDOFF: a hidden form posts samlResponse and relayState to the assertion consumer service
// and submits itself; the browser leaves the portal for the application.
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { SamlHandoffData } from '../../../contract/entities';
import { signInTexts as t } from './sign-in.texts';

export function SamlPostForm({ handoff }: { handoff: SamlHandoffData }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.submit();
  }, [handoff]);
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text role="status">{t.handingOff}</Text>
        <form
          ref={form}
          method="post"
          action={handoff.assertionConsumerServiceUrl}
          data-testid="saml-post-form"
        >
          <input type="hidden" name="SAMLResponse" value={handoff.samlResponse} />
          {handoff.relayState !== null && (
            <input type="hidden" name="RelayState" value={handoff.relayState} />
          )}
          <Button type="submit" variant="subtle" size="compact-sm">
            {t.continueHandoff}
          </Button>
        </form>
      </Stack>
    </Center>
  );
}
