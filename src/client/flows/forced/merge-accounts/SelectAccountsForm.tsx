// select-accounts (sections 2.6, 4.4, 5 and 8): a checkbox and a password per account, and None.
// None and an account tick clear each other (and the identity-conflict error); an isIdvConflict
// account cannot be ticked; a 422 field error goes to the matching checkbox or password field.
// Typed passwords live only here until they are sent.
// This page's own Mantine styles (app/styles.ts loads only what the first page needs).
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Fieldset.css';
import { Alert, Button, Checkbox, Fieldset, PasswordInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Refusal } from '../../../../../machines/forced/continue-sign-in/forced-step';
import { messages } from '../../../../contract/fields';
import { MERGE_ERROR_FIELDS, type IdentityCandidate } from '../../../../contract/merge';
import { fieldErrorProps } from '../shared/field-props';
import { mergeAccountsTexts as t } from './merge-accounts.texts';

export interface SelectAccountsFormProps {
  candidates: readonly IdentityCandidate[];
  /** The ids selected before (going back keeps the ticks; passwords are asked again). */
  selectedIds: readonly string[];
  /** None was chosen before. */
  noneSelected: boolean;
  busy: boolean;
  refusal: Refusal | null;
  /** The identity-verification conflict of the last refusal: a banner, and Next is disabled. */
  idvConflict: string | null;
  onSelectionChanged: () => void;
  onSubmit: (identities: Array<{ id: string; password: string }>) => void;
}

export function SelectAccountsForm({
  candidates,
  selectedIds,
  noneSelected,
  busy,
  refusal,
  idvConflict,
  onSelectionChanged,
  onSubmit,
}: SelectAccountsFormProps) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(() => new Set(selectedIds));
  const [none, setNone] = useState(noneSelected);
  const [passwords, setPasswords] = useState<Record<string, string>>({});
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [optionError, setOptionError] = useState<string | null>(null);
  const passwordInputs = useRef<Record<string, HTMLInputElement | null>>({});
  const checkboxes = useRef<HTMLDivElement>(null);
  const banner = useRef<HTMLDivElement>(null);
  /** The first account (or None) that can be ticked: where an error about the choice sends the focus. */
  const focusFirstCheckbox = () =>
    checkboxes.current?.querySelector<HTMLInputElement>('input[type="checkbox"]:not(:disabled)')?.focus();

  const serverErrors: Record<string, string> = Object.fromEntries(
    (refusal?.fieldErrors ?? []).map((e) => [e.fieldName, e.message]),
  );
  // A refused password is typed again, and the first refused one has the focus for it. Otherwise the
  // focus (which Next, disabled while it was sending, has dropped) goes to the banner that says why,
  // or to the accounts when the refusal is about the choice (WCAG 2.4.3, 3.3.1).
  useEffect(() => {
    if (refusal === null) return;
    const refused = refusal.fieldErrors
      .map((e) => /^identities\.(.+)\.password$/.exec(e.fieldName)?.[1])
      .filter((id): id is string => id !== undefined);
    setPasswords((current) => {
      const next = { ...current };
      for (const id of refused) next[id] = '';
      return next;
    });
    const first = refused.map((id) => passwordInputs.current[id]).find((input) => input != null);
    if (first) first.focus();
    else if (banner.current) banner.current.focus();
    else focusFirstCheckbox();
  }, [refusal]);

  const tick = (id: string, checked: boolean) => {
    const next = new Set(ticked);
    if (checked) next.add(id);
    else next.delete(id);
    setTicked(next);
    if (checked) setNone(false);
    setOptionError(null);
    onSelectionChanged();
  };
  const tickNone = (checked: boolean) => {
    setNone(checked);
    if (checked) setTicked(new Set());
    setOptionError(null);
    setLocalErrors({});
    onSelectionChanged();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!none && ticked.size === 0) {
      setOptionError(t.selectAccounts.optionRequired);
      focusFirstCheckbox();
      return;
    }
    const missing: Record<string, string> = {};
    for (const id of ticked) if (!passwords[id]) missing[id] = messages.required;
    setLocalErrors(missing);
    const firstMissing = candidates.find((c) => missing[c.id] !== undefined);
    if (firstMissing) {
      passwordInputs.current[firstMissing.id]?.focus();
      return;
    }
    onSubmit(none ? [] : [...ticked].map((id) => ({ id, password: passwords[id] ?? '' })));
  };

  const groupError = optionError ?? serverErrors[MERGE_ERROR_FIELDS.identities] ?? null;

  return (
    <Stack gap="md">
      {idvConflict && (
        <Alert color="red" role="alert" ref={banner} tabIndex={-1}>
          {idvConflict}
        </Alert>
      )}
      {refusal && !idvConflict && refusal.fieldErrors.length === 0 && (
        <Alert color="red" role="alert" ref={banner} tabIndex={-1}>
          {refusal.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.selectAccounts.title}>
        <Stack gap="md">
          <Fieldset legend={t.selectAccounts.accounts}>
            <Stack gap="sm" ref={checkboxes}>
              {candidates.map((candidate) => {
                const checked = ticked.has(candidate.id);
                const passwordError =
                  localErrors[candidate.id] ??
                  serverErrors[MERGE_ERROR_FIELDS.identityPassword(candidate.id)] ??
                  null;
                return (
                  <Stack key={candidate.id} gap={4}>
                    <Checkbox
                      label={
                        candidate.name ? `${candidate.username} (${candidate.name})` : candidate.username
                      }
                      checked={checked}
                      disabled={candidate.isIdvConflict || busy}
                      description={candidate.isIdvConflict ? t.selectAccounts.idvConflict : undefined}
                      error={!checked && passwordError ? passwordError : undefined}
                      onChange={(event) => tick(candidate.id, event.currentTarget.checked)}
                    />
                    {checked && (
                      <PasswordInput
                        ref={(input) => {
                          passwordInputs.current[candidate.id] = input;
                        }}
                        label={t.selectAccounts.password(candidate.username)}
                        required
                        // The other account's own password (WCAG 3.3.8): a password manager may fill it.
                        autoComplete="current-password"
                        value={passwords[candidate.id] ?? ''}
                        error={passwordError}
                        errorProps={fieldErrorProps}
                        aria-invalid={passwordError !== null}
                        onChange={(event) => {
                          const value = event.currentTarget.value;
                          setPasswords((current) => ({ ...current, [candidate.id]: value }));
                          setLocalErrors(({ [candidate.id]: _, ...rest }) => rest);
                        }}
                      />
                    )}
                  </Stack>
                );
              })}
              <Checkbox
                label={t.selectAccounts.none}
                checked={none}
                disabled={busy}
                onChange={(event) => tickNone(event.currentTarget.checked)}
              />
            </Stack>
          </Fieldset>
          {/* Red 9 keeps 5:1 on white (Mantine's default error red is 3.5:1). */}
          {groupError && (
            <Text c="red.9" size="sm" role="alert">
              {groupError}
            </Text>
          )}
          <Button type="submit" loading={busy} disabled={idvConflict !== null}>
            {t.selectAccounts.next}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
