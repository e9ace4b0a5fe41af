// set-password (sections 2.5 and 5): the password with its required confirmation; the server's
// policy refusals attach to their fields. The passwords live only here until they are sent.
import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { PasswordInput as Values, Refusal } from '../../../../machines/registration/registration.types';
import { newPassword, requiredSecret } from '../../../contract/fields';
import { registrationTexts as t } from './registration.texts';

type Field = keyof Values;
const errorProps = { 'aria-live': 'polite' } as const;

export function PasswordForm({
  busy,
  refusal,
  onSubmit,
}: {
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (values: Values) => void;
}) {
  const [values, setValues] = useState<Values>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  useEffect(() => {
    if (refusal === null) return;
    const found: Partial<Record<Field, string>> = {};
    for (const { fieldName, message } of refusal.fieldErrors) {
      if (fieldName === 'password' || fieldName === 'confirmPassword') found[fieldName] = message;
    }
    setValues({ password: '', confirmPassword: '' });
    setErrors(found);
    inputs.current[found.confirmPassword && !found.password ? 'confirmPassword' : 'password']?.focus();
  }, [refusal]);

  const bind = (field: Field) => ({
    value: values[field],
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
    error: errors[field],
    // Mantine's PasswordInput marks its input data-invalid only: assistive technology needs aria.
    'aria-invalid': errors[field] !== undefined,
    errorProps,
    ref: (node: HTMLInputElement | null) => {
      inputs.current[field] = node;
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    const password = v.safeParse(newPassword, values.password, { abortPipeEarly: true });
    if (!password.success) found.password = password.issues[0].message;
    const confirm = v.safeParse(requiredSecret(), values.confirmPassword, { abortPipeEarly: true });
    if (!confirm.success) found.confirmPassword = confirm.issues[0].message;
    else if (password.success && values.confirmPassword !== values.password)
      found.confirmPassword = t.setPassword.mismatch;
    if (found.password || found.confirmPassword) {
      setErrors(found);
      inputs.current[found.password ? 'password' : 'confirmPassword']?.focus();
      return;
    }
    onSubmit(values);
  };

  return (
    <Stack gap="md">
      {refusal && (
        <Alert color="red" role="alert">
          {refusal.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.setPassword.title}>
        <Stack gap="sm">
          <PasswordInput
            label={t.setPassword.password}
            description={t.setPassword.hint}
            autoComplete="new-password"
            required
            {...bind('password')}
          />
          <PasswordInput
            label={t.setPassword.confirmPassword}
            autoComplete="new-password"
            required
            {...bind('confirmPassword')}
          />
          <Group gap="sm" mt="xs">
            <Button type="submit" loading={busy}>
              {t.setPassword.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
