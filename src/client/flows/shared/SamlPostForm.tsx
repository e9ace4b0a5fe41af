// SAML handoff: a hidden form posts SAMLResponse and RelayState to the application's assertion
// consumer service and submits itself; the browser leaves the portal for the application. Used by
// sign-in (SAML_HANDOFF), the handoff from the applications page and header, single sign-on and the
// forced facility selection.
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { SamlHandoffData } from '../../../contract/entities';

export interface SamlPostFormProps {
  handoff: SamlHandoffData;
  /** The status line, e.g. 'Handing off'. */
  label: string;
  /** The form's own button, for a browser that did not submit it. */
  continueLabel: string;
  /**
   * The browser showed the page again from its back-forward cache (the user came back from the
   * application): the posted response is spent, so the flow should offer its choices again.
   */
  onRestored?: () => void;
  /** The form's button leaves the tab order (a visually hidden form, as in the header's grid). */
  unfocusable?: boolean;
}

export function SamlPostForm({
  handoff,
  label,
  continueLabel,
  onRestored,
  unfocusable = false,
}: SamlPostFormProps) {
  const form = useRef<HTMLFormElement>(null);
  // A response is posted once: StrictMode's second effect run must not post it again.
  const posted = useRef<SamlHandoffData | null>(null);
  useEffect(() => {
    if (posted.current === handoff) return;
    posted.current = handoff;
    form.current?.submit();
  }, [handoff]);

  const restored = useRef(onRestored);
  useEffect(() => {
    restored.current = onRestored;
  });
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) restored.current?.();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text role="status">{label}</Text>
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
          <Button type="submit" variant="subtle" size="compact-sm" tabIndex={unfocusable ? -1 : undefined}>
            {continueLabel}
          </Button>
        </form>
      </Stack>
    </Center>
  );
}
