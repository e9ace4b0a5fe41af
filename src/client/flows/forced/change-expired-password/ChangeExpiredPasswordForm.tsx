// The new password and its confirmation (section 5: required; the policy hint; the confirmation
// required and equal), with the server's 422 reasons on their fields. The typed passwords live only
// here, in form state, until they are sent with user.submit.
import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { Refusal } from '../../../../../machines/forced/continue-sign-in/forced-step';
import { newPassword, requiredSecret } from '../../../../contract/fields';
import { changeExpiredPasswordTexts as t } from './change-expired-password.texts';
import { fieldErrorProps } from '../shared/field-props';

type Field = 'password' | 'confirmPassword';
type Errors = Partial<Record<Field, string>>;
const FIELDS: readonly Field[] = ['password', 'confirmPassword'];

export function validateNewPassword(values: Record<Field, string>): Errors {
  const errors: Errors = {};
  const password = v.safeParse(newPassword, values.password);
  if (!password.success) errors.password = password.issues[0].message;
  const confirm = v.safeParse(requiredSecret(), values.confirmPassword);
  if (!confirm.success) errors.confirmPassword = confirm.issues[0].message;
  else if (password.success && values.confirmPassword !== values.password)
    errors.confirmPassword = t.mismatch;
  return errors;
}

export interface ChangeExpiredPasswordFormProps {
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (values: { password: string; confirmPassword: string }) => void;
  onCancel: () => void;
}

export function ChangeExpiredPasswordForm({
  busy,
  refusal,
  onSubmit,
  onCancel,
}: ChangeExpiredPasswordFormProps) {
  const [values, setValues] = useState<Record<Field, string>>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  // Each refusal: the passwords are emptied and the server's reasons attach to their fields.
  useEffect(() => {
    if (refusal === null) return;
    setValues({ password: '', confirmPassword: '' });
    const found: Errors = {};
    for (const { fieldName, message } of refusal.fieldErrors) {
      if ((FIELDS as readonly string[]).includes(fieldName)) found[fieldName as Field] = message;
    }
    setErrors(found);
    inputs.current[FIELDS.find((f) => found[f]) ?? 'password']?.focus();
  }, [refusal]);

  const bind = (field: Field) => ({
    value: values[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
    error: errors[field],
    // Mantine's PasswordInput marks its input data-invalid only: assistive technology needs aria.
    'aria-invalid': errors[field] !== undefined,
    errorProps: fieldErrorProps,
    ref: (node: HTMLInputElement | null) => {
      inputs.current[field] = node;
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateNewPassword(values);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      setErrors(found);
      inputs.current[first]?.focus();
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
      <form onSubmit={submit} noValidate aria-label={t.heading}>
        <Stack gap="sm">
          <PasswordInput
            label={t.newPassword}
            description={t.hint}
            autoComplete="new-password"
            required
            {...bind('password')}
          />
          <PasswordInput
            label={t.confirmPassword}
            autoComplete="new-password"
            required
            {...bind('confirmPassword')}
          />
          <Group gap="sm" mt="xs">
            <Button type="submit" loading={busy}>
              {t.submit}
            </Button>
            <Button variant="default" onClick={onCancel} disabled={busy}>
              {t.cancel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
