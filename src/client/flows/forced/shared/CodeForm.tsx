// A one-time code form (section 5: required, sent as text): the code field, what a screen adds
// (trust this device), the resend link with its refusal in red (section 8), and the submit button.
// The typed code lives only here until it is sent.
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import * as v from 'valibot';
import { oneTimeCode } from '../../../../contract/fields';
import { forcedTexts as t } from './forced.texts';
import { fieldErrorProps } from './field-props';

export interface CodeFormProps {
  /** The form's accessible name. */
  name: string;
  submitLabel: string;
  busy: boolean;
  /** The server's message for the last refused code; a new value empties the field. */
  codeError: string | null;
  onSubmit: (code: string) => void;
  /** The resend link, where the screen offers one. */
  resend?: {
    onResend: () => void;
    busy: boolean;
    /** A refused resend: shown in red, and the link is disabled. */
    refusal: string | null;
  };
  /** Fields between the code and the button (trust this device). */
  children?: ReactNode;
  /** Links after the button ("I don't have access"). */
  after?: ReactNode;
}

export function CodeForm({
  name,
  submitLabel,
  busy,
  codeError,
  onSubmit,
  resend,
  children,
  after,
}: CodeFormProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const resendLink = useRef<HTMLButtonElement>(null);
  const resendRefusal = useRef<HTMLParagraphElement>(null);
  const resendBusy = resend?.busy ?? false;
  const refusedResend = resend?.refusal ?? null;
  const wasResending = useRef(false);

  // The resend link is disabled while it sends and after a refusal, which drops the focus it had
  // (WCAG 2.4.3): a refusal takes the focus to its message; a resend sent gives it back to the link
  // when nothing else took it.
  useEffect(() => {
    if (refusedResend !== null) resendRefusal.current?.focus();
  }, [refusedResend]);
  useEffect(() => {
    const finished = wasResending.current && !resendBusy;
    wasResending.current = resendBusy;
    if (!finished || refusedResend !== null) return;
    const active = document.activeElement;
    if (active === null || active === document.body || active === resendLink.current) {
      resendLink.current?.focus();
    }
  }, [resendBusy, refusedResend]);

  // Each refused code: the field is emptied, the message is put on it, and focus goes back to it.
  useEffect(() => {
    setError(codeError);
    if (codeError === null) return;
    setCode('');
    input.current?.focus();
  }, [codeError]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = v.safeParse(oneTimeCode, code);
    if (!checked.success) {
      setError(checked.issues[0].message);
      input.current?.focus();
      return;
    }
    onSubmit(checked.output);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={name}>
      <Stack gap="sm">
        <TextInput
          ref={input}
          label={t.code}
          required
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          errorProps={fieldErrorProps}
        />
        {resend && (
          <Stack gap={4} align="flex-start">
            <Anchor
              ref={resendLink}
              component="button"
              type="button"
              size="sm"
              onClick={resend.onResend}
              disabled={resend.busy || resend.refusal !== null}
              aria-disabled={resend.busy || resend.refusal !== null}
            >
              {t.resendCode}
            </Anchor>
            {resend.busy && (
              <Text size="sm" role="status">
                {t.resending}
              </Text>
            )}
            {resend.refusal !== null && (
              <Text size="sm" c="red.9" role="alert" ref={resendRefusal} tabIndex={-1}>
                {resend.refusal}
              </Text>
            )}
          </Stack>
        )}
        {children}
        <Group gap="sm">
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
        {after}
      </Stack>
    </form>
  );
}
