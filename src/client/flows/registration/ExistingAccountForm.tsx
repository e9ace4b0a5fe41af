// verify-identity (sections 2.5, 5 and 8): the existing account's username (required, max 50) and
// password (required); after a 422 the help text tells the user to cancel, reset the password and
// retry registration from the invitation email.
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { ExistingAccountInput, Refusal } from '../../../../machines/registration/registration.types';
import { limits, requiredSecret, requiredString } from '../../../contract/fields';
import { registrationTexts as t } from './registration.texts';

type Field = keyof ExistingAccountInput;
const errorProps = { 'aria-live': 'polite' } as const;
const rules = { username: requiredString(limits.signInUsername), password: requiredSecret() };

export function ExistingAccountForm({
  busy,
  refusal,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (values: ExistingAccountInput) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<ExistingAccountInput>({ username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  useEffect(() => {
    if (refusal === null) return;
    setValues((current) => ({ ...current, password: '' }));
    inputs.current.password?.focus();
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
    const username = v.safeParse(rules.username, values.username, { abortPipeEarly: true });
    if (!username.success) found.username = username.issues[0].message;
    const password = v.safeParse(rules.password, values.password, { abortPipeEarly: true });
    if (!password.success) found.password = password.issues[0].message;
    if (!username.success || !password.success) {
      setErrors(found);
      inputs.current[found.username ? 'username' : 'password']?.focus();
      return;
    }
    onSubmit({ username: username.output, password: password.output });
  };

  return (
    <Stack gap="md">
      {refusal && (
        <Alert color="red" role="alert">
          <Stack gap="xs">
            <Text size="sm">{refusal.message}</Text>
            <Text size="sm">{t.verifyIdentity.help}</Text>
          </Stack>
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.verifyIdentity.title}>
        <Stack gap="sm">
          <TextInput
            label={t.verifyIdentity.username}
            autoComplete="username"
            required
            {...bind('username')}
          />
          <PasswordInput
            label={t.verifyIdentity.password}
            autoComplete="current-password"
            required
            {...bind('password')}
          />
          <Group gap="sm" mt="xs">
            <Button type="submit" loading={busy}>
              {t.verifyIdentity.submit}
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
