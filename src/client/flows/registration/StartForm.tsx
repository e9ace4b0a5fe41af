// Registration start (sections 2.5 and 5): email (required, valid, max 500), invitation code
// (required, max 100) and the security code of the captcha image, which is redrawn after each
// failed start. Typed values live only here until they are sent with user.start.
import { Alert, Button, Group, Image, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { Refusal } from '../../../../machines/registration/registration.types';
import {
  RegistrationStartRequest,
  type RegistrationStartRequest as StartValues,
} from '../../../contract/registration';
import { useCaptchaImageSrc } from '../shared/captcha-image';
import { registrationTexts as t } from './registration.texts';

type Field = keyof StartValues;
const FIELDS: readonly Field[] = ['email', 'inviteCode', 'captchaCode'];
const errorProps = { 'aria-live': 'polite' } as const;

export interface StartFormProps {
  busy: boolean;
  refusal: Refusal | null;
  /** The machine's number of the captcha image: a new number asks for a new image. */
  captchaDraw: number;
  onStart: (values: StartValues) => void;
  onRefreshCaptcha: () => void;
}

export function StartForm({ busy, refusal, captchaDraw, onStart, onRefreshCaptcha }: StartFormProps) {
  const [values, setValues] = useState<StartValues>({ email: '', inviteCode: '', captchaCode: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const captchaSrc = useCaptchaImageSrc(captchaDraw);

  useEffect(() => {
    if (refusal === null) return;
    const found: Partial<Record<Field, string>> = {};
    for (const { fieldName, message } of refusal.fieldErrors) {
      if ((FIELDS as readonly string[]).includes(fieldName)) found[fieldName as Field] = message;
    }
    setValues((current) => ({ ...current, captchaCode: '' }));
    setErrors(found);
    inputs.current[FIELDS.find((f) => found[f]) ?? 'captchaCode']?.focus();
  }, [refusal]);

  const bind = (field: Field) => ({
    value: values[field],
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
    error: errors[field],
    errorProps,
    ref: (node: HTMLInputElement | null) => {
      inputs.current[field] = node;
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = v.safeParse(RegistrationStartRequest, values, { abortPipeEarly: true });
    if (!result.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of result.issues) {
        const field = issue.path?.[0]?.key as Field | undefined;
        if (field && found[field] === undefined) found[field] = issue.message;
      }
      setErrors(found);
      inputs.current[FIELDS.find((f) => found[f]) ?? 'email']?.focus();
      return;
    }
    onStart(result.output);
  };

  return (
    <Stack gap="md">
      {refusal && (
        <Alert color="red" role="alert">
          {refusal.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.start.title}>
        <Stack gap="sm">
          <TextInput label={t.start.email} type="email" autoComplete="email" required {...bind('email')} />
          <TextInput label={t.start.inviteCode} autoComplete="off" required {...bind('inviteCode')} />
          <Group gap="sm" align="center">
            <Image src={captchaSrc} alt={t.start.captchaAlt} w={180} h={60} fit="contain" radius="sm" />
            <Button variant="subtle" size="compact-sm" onClick={onRefreshCaptcha} disabled={busy}>
              {t.start.refreshCaptcha}
            </Button>
          </Group>
          <TextInput label={t.start.securityCode} autoComplete="off" required {...bind('captchaCode')} />
          <Group gap="sm" mt="xs">
            <Button type="submit" loading={busy}>
              {t.start.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
