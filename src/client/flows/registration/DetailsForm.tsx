// collect-details (sections 2.5 and 5): the invitation's details, the username (2 to 50, editable
// only when the invitation sets none; the staff hints or 'Must be in the form C99999') and the full
// name (max 100, editable for staff, without a customer number, or when the invitation lacks the
// name it should carry: inviteeEntersName).
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type {
  DetailsInput,
  InviteDetails,
  Refusal,
} from '../../../../machines/registration/registration.types';
import { formatIsoDate } from '../../app/format';
import { limits, requiredString } from '../../../contract/fields';
import { registrationUsername } from '../../../contract/registration';
import { registrationTexts as t } from './registration.texts';

type Field = 'username' | 'name';
const errorProps = { 'aria-live': 'polite' } as const;
const nameRule = requiredString(limits.name);

/** Section 2.5: the hint that matches the invitee. */
export function usernameHint(invite: InviteDetails): string {
  if (!invite.isStaff) return t.details.customerHint;
  if (invite.isSecondaryAffiliateEmailDomain && !invite.isPrimaryAffiliateEmailDomain)
    return t.details.salaryNumberHint;
  return t.details.domainAccountHint;
}

export interface DetailsFormProps {
  invite: InviteDetails;
  editable: { username: boolean; name: boolean };
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (values: DetailsInput) => void;
}

export function DetailsForm({ invite, editable, busy, refusal, onSubmit }: DetailsFormProps) {
  const [values, setValues] = useState({ username: invite.username ?? '', name: invite.name ?? '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  useEffect(() => {
    if (refusal === null) return;
    const found: Partial<Record<Field, string>> = {};
    for (const { fieldName, message } of refusal.fieldErrors) {
      if (fieldName === 'username' || fieldName === 'name') found[fieldName] = message;
    }
    setErrors(found);
    inputs.current[found.username ? 'username' : 'name']?.focus();
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
    const found: Partial<Record<Field, string>> = {};
    const out: DetailsInput = {};
    if (editable.username) {
      const checked = v.safeParse(registrationUsername, values.username, { abortPipeEarly: true });
      if (checked.success) out.username = checked.output;
      else found.username = checked.issues[0].message;
    }
    if (editable.name) {
      const checked = v.safeParse(nameRule, values.name, { abortPipeEarly: true });
      if (checked.success) out.name = checked.output;
      else found.name = checked.issues[0].message;
    }
    if (found.username || found.name) {
      setErrors(found);
      inputs.current[found.username ? 'username' : 'name']?.focus();
      return;
    }
    onSubmit(out);
  };

  return (
    <Stack gap="md">
      {refusal && (
        <Alert color="red" role="alert">
          {refusal.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.details.title}>
        <Stack gap="sm">
          <TextInput
            label={t.details.username}
            description={editable.username ? usernameHint(invite) : undefined}
            autoComplete="username"
            required
            readOnly={!editable.username}
            {...bind('username')}
          />
          <TextInput
            label={t.details.name}
            description={editable.name ? undefined : t.details.nameFixed}
            autoComplete="name"
            required
            readOnly={!editable.name}
            {...bind('name')}
          />
          <Group gap="sm" mt="xs">
            <Button type="submit" loading={busy}>
              {t.details.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** 'Name (detail)', or the name alone when there is no detail. */
const withDetail = (name: string, detail: string): string => (detail ? `${name} (${detail})` : name);

/** A facility of an invitation: its name with its alias or code, whichever of them exist. */
export function inviteFacilityText(
  invite: Pick<InviteDetails, 'facilityName' | 'facilityAliasOrCode'>,
): string {
  const alias = invite.facilityAliasOrCode?.trim() ?? '';
  const name = invite.facilityName?.trim() ?? '';
  if (!name) return alias;
  return withDetail(name, alias === name ? '' : alias);
}

/** A role of an invitation: its name, with its scope type and scope where they exist. */
export function inviteRoleText(role: InviteDetails['roles'][number]): string {
  const detail = [role.scopeType, role.scope]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
  return withDetail(role.name, detail);
}

/** The invitation: what it grants and who it is for. */
export function InviteSummary({ invite }: { invite: InviteDetails }) {
  const rows: Array<[string, string]> = [[t.invitation.product, invite.productName]];
  const facility = inviteFacilityText(invite);
  if (facility) rows.push([t.invitation.facility, facility]);
  if (invite.roles.length > 0) rows.push([t.invitation.roles, invite.roles.map(inviteRoleText).join(', ')]);
  if (invite.customerNumber) rows.push([t.invitation.customerNumber, invite.customerNumber]);
  if (invite.birthDate) rows.push([t.invitation.birthDate, formatIsoDate(invite.birthDate)]);
  rows.push([t.invitation.email, invite.email]);
  return (
    <Stack gap={2} aria-label={t.invitation.title} role="group">
      {rows.map(([label, value]) => (
        <Text key={label} size="sm">
          <Text span fw={600}>
            {label}:
          </Text>{' '}
          {value}
        </Text>
      ))}
    </Stack>
  );
}
