// The merge wizard's steps after select-accounts (sections 2.6, 4.4, 5 and 8).
// This page's own Mantine styles (app/styles.ts loads only what the first page needs).
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Table.css';
import { Alert, Anchor, Button, Group, List, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import * as v from 'valibot';
import type { Refusal } from '../../../../../machines/forced/continue-sign-in/forced-step';
import type { FieldError } from '../../../../contract/errors';
import { email as emailRule } from '../../../../contract/fields';
import { MERGE_ERROR_FIELDS, type MergeDetails } from '../../../../contract/merge';
import { formatIsoDate } from '../../../app/format';
import { fieldErrorProps } from '../shared/field-props';
import { mergeAccountsTexts as t, mergeErrorText } from './merge-accounts.texts';

const fieldError = (refusal: Refusal | null, field: string): string | null =>
  refusal ? (refusal.fieldErrors.find((e) => e.fieldName === field)?.message ?? refusal.message) : null;

/**
 * A step's Back link. While a call of the step is under way (the merge, a code being checked) it is
 * aria-disabled and does nothing, by mouse or keyboard: the step cannot be left before its answer.
 * It stays focusable, so the keyboard user who pressed it keeps the focus (WCAG 2.4.3).
 */
export function BackLink({ to, label, disabled = false }: { to: string; label: string; disabled?: boolean }) {
  return (
    <Anchor
      component={Link}
      to={to}
      size="sm"
      c={disabled ? 'dimmed' : undefined}
      aria-disabled={disabled || undefined}
      data-disabled={disabled || undefined}
      onClick={(event: MouseEvent) => {
        if (disabled) event.preventDefault();
      }}
    >
      {label}
    </Anchor>
  );
}

export interface ChangeEmailFormProps {
  currentEmail: string | null;
  busy: boolean;
  refusal: Refusal | null;
  backTo: string;
  onSubmit: (email: string) => void;
}

/** Section 5: required, valid, max 500; the merge email cannot equal the current email. */
export function ChangeEmailForm({ currentEmail, busy, refusal, backTo, onSubmit }: ChangeEmailFormProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (refusal === null) return;
    setError(fieldError(refusal, MERGE_ERROR_FIELDS.email));
    input.current?.focus();
  }, [refusal]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = v.safeParse(emailRule, value.trim());
    if (!checked.success) {
      setError(checked.issues[0].message);
      input.current?.focus();
      return;
    }
    if (currentEmail && checked.output.toLowerCase() === currentEmail.toLowerCase()) {
      setError(t.changeEmail.sameAsCurrent);
      input.current?.focus();
      return;
    }
    onSubmit(checked.output);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t.changeEmail.title}>
      <Stack gap="sm">
        <TextInput
          ref={input}
          label={t.changeEmail.email}
          type="email"
          autoComplete="email"
          required
          value={value}
          error={error}
          errorProps={fieldErrorProps}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setError(null);
          }}
        />
        <Group justify="space-between">
          <BackLink to={backTo} label={t.changeEmail.back} disabled={busy} />
          <Button type="submit" loading={busy}>
            {t.changeEmail.next}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface ChoosePreferredUsernameFormProps {
  options: readonly string[];
  initial: string | null;
  busy: boolean;
  refusal: Refusal | null;
  backTo: string;
  onSubmit: (username: string) => void;
}

export function ChoosePreferredUsernameForm({
  options,
  initial,
  busy,
  refusal,
  backTo,
  onSubmit,
}: ChoosePreferredUsernameFormProps) {
  const [value, setValue] = useState<string | null>(initial && options.includes(initial) ? initial : null);
  const [error, setError] = useState<string | null>(null);
  const radios = useRef<HTMLDivElement>(null);
  // The error is told with the focus on the choice (its group is described by the error): the
  // chosen username, else the first (WCAG 2.4.3, 3.3.1).
  const focusChoice = () =>
    (
      radios.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked') ??
      radios.current?.querySelector<HTMLInputElement>('input[type="radio"]')
    )?.focus();
  useEffect(() => {
    if (refusal === null) return;
    setError(fieldError(refusal, MERGE_ERROR_FIELDS.preferredUsername));
    focusChoice();
  }, [refusal]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!value) {
      setError(t.choosePreferredUsername.required);
      focusChoice();
      return;
    }
    onSubmit(value);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t.choosePreferredUsername.title}>
      <Stack gap="sm">
        <Radio.Group
          label={t.choosePreferredUsername.legend}
          required
          value={value}
          error={error}
          errorProps={fieldErrorProps}
          onChange={(next) => {
            setValue(next);
            setError(null);
          }}
        >
          <Stack gap="xs" mt="xs" ref={radios}>
            {options.map((username) => (
              <Radio key={username} value={username} label={username} />
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="space-between">
          <BackLink to={backTo} label={t.choosePreferredUsername.back} disabled={busy} />
          <Button type="submit" loading={busy}>
            {t.choosePreferredUsername.next}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface ConfirmationViewProps {
  details: MergeDetails | null;
  errors: readonly FieldError[];
  busy: boolean;
  backTo: string;
  onMerge: () => void;
}

export function ConfirmationView({ details, errors, busy, backTo, onMerge }: ConfirmationViewProps) {
  // Merge errors disable Merge, which had the focus: it goes to the list of errors (WCAG 2.4.3).
  const errorList = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (errors.length > 0) errorList.current?.focus();
  }, [errors]);
  const value = (text: string | null) => text ?? t.notSet;
  const rows: Array<[string, string]> = details
    ? [
        [t.confirmation.username, details.username],
        [t.confirmation.name, value(details.name)],
        [t.confirmation.email, value(details.email)],
        [t.confirmation.mobile, value(details.mobile)],
        [t.confirmation.phone, value(details.phone)],
        [t.confirmation.birthDate, details.birthDate ? formatIsoDate(details.birthDate) : t.notSet],
        [
          t.confirmation.facilities,
          details.accessibleFacilities.length > 0
            ? details.accessibleFacilities.map((f) => `${f.appName} ${f.name} (${f.code})`).join(', ')
            : t.confirmation.noFacilities,
        ],
      ]
    : [];
  return (
    <Stack gap="md">
      <Text>{t.confirmation.instructions}</Text>
      {errors.length > 0 && (
        <Alert color="red" role="alert" title={t.confirmation.errorsTitle} ref={errorList} tabIndex={-1}>
          <List size="sm">
            {errors.map((error, index) => (
              <List.Item key={`${error.fieldName}-${index}`}>{mergeErrorText(error)}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {details && (
        <Table>
          <Table.Tbody>
            {rows.map(([label, text]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td>{text}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group justify="space-between">
        <BackLink to={backTo} label={t.confirmation.back} disabled={busy} />
        <Button onClick={onMerge} loading={busy} disabled={errors.length > 0 || details === null}>
          {t.confirmation.merge}
        </Button>
      </Group>
    </Stack>
  );
}
