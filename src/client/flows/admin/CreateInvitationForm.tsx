// 'Invite someone' (admin): runs the create-invitation machine. The facility list follows the
// chosen app; an app whose handoff includes a facility needs one. A customer with a customer number
// who is not staff needs a name: they cannot enter it when registering (section 5; the server
// refuses such an invitation without one, at the name field, too). For keyboard and screen reader
// users: errors are announced at their fields and the first takes the focus; once sent, the notice
// takes the focus (the form it was in is gone), and 'Invite someone else' puts it in the email.
// The form is checked with the contract's CreateInvitationBody before anything is sent (as the
// access-request decision form is): the server answers a body it refuses with 400, which section 8
// takes to /error, and the admin's typing would be lost.
import '@mantine/core/styles/Checkbox.css';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import * as v from 'valibot';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createInvitationMachine } from '../../../../machines/admin/create-invitation/create-invitation.machine';
import { CreateInvitationBody, invitationFixesName, type InvitationSummary } from '../../../contract/admin';
import { messages } from '../../../contract/fields';
import { formatDateTime } from '../../app/format';
import { fieldErrorProps } from '../forced/shared/field-props';
import { useFlowActor } from '../shared/use-flow-actor';
import { createInvitationActors } from './admin.actors';
import { adminTexts } from './admin.texts';

const t = adminTexts.create;

interface Draft {
  email: string;
  appCode: string;
  facilityCode: string;
  name: string;
  customerNumber: string;
  isStaff: boolean;
  validityDays: string;
}

/** The fields that can be refused, in the form's order: the first in error takes the focus. */
const FIELD_ORDER = ['email', 'appCode', 'facilityCode', 'name', 'customerNumber', 'validityDays'] as const;
type FieldName = (typeof FIELD_ORDER)[number];

type FieldErrors = Partial<Record<FieldName, string>>;
const NOT_EDITED: Record<FieldName, boolean> = {
  email: false,
  appCode: false,
  facilityCode: false,
  name: false,
  customerNumber: false,
  validityDays: false,
};

/**
 * An issue of the contract's schema in the generic words of section 5. The validity's bounds come
 * without a message of their own in the contract (valibot's default names the check, not the rule).
 */
function messageOf(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'min_value') return messages.minValue(String(issue.requirement));
  if (issue.type === 'max_value') return messages.maxValue(String(issue.requirement));
  if (issue.type === 'integer') return t.wholeDays;
  return issue.message;
}

/**
 * The body for the draft, checked with the contract's CreateInvitationBody (the server's own check),
 * and the rules the server applies beyond it (the facility an app's handoff needs, the name an
 * invitee who cannot enter it needs; the server refuses those with 422): the body to send, or the
 * first problem of each field.
 */
function checked(
  draft: Draft,
  rules: { needsFacility: boolean; needsName: boolean; badValidity: boolean },
): { body: CreateInvitationBody } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const parsed = v.safeParse(CreateInvitationBody, {
    email: draft.email,
    appCode: draft.appCode,
    ...(rules.needsFacility ? { facilityCode: draft.facilityCode } : {}),
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    ...(draft.customerNumber.trim() ? { customerNumber: draft.customerNumber.trim() } : {}),
    isStaff: draft.isStaff,
    ...(draft.validityDays.trim() ? { validityDays: Number(draft.validityDays) } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const field = issue.path?.[0]?.key as FieldName | undefined;
      if (field && FIELD_ORDER.includes(field) && errors[field] === undefined)
        errors[field] = messageOf(issue);
    }
  }
  if (rules.needsName && !draft.name.trim()) errors.name ??= t.required;
  // Text a number field cannot read (the browser then gives an empty value, which would send none).
  if (rules.badValidity) errors.validityDays = messages.numeric;
  return parsed.success && Object.keys(errors).length === 0 ? { body: parsed.output } : { errors };
}

const EMPTY: Draft = {
  email: '',
  appCode: '',
  facilityCode: '',
  name: '',
  customerNumber: '',
  isStaff: false,
  validityDays: '14',
};

export function CreateInvitationForm({ onCreated }: { onCreated: (invitation: InvitationSummary) => void }) {
  const [snapshot, send] = useFlowActor(createInvitationMachine, {
    input: undefined,
    actors: createInvitationActors,
  });
  const { apps, loadError, created, refusal } = snapshot.context;
  const [draft, setDraft] = useState<Draft>(EMPTY);
  // The form's own check, each cleared as its field is edited.
  const [local, setLocal] = useState<FieldErrors>({});
  // The server's refusals stay at their field until it is edited.
  const [edited, setEdited] = useState<Record<FieldName, boolean>>(NOT_EDITED);
  const busy = snapshot.matches('creating');
  const fields = useRef<Partial<Record<FieldName, HTMLInputElement | HTMLSelectElement | null>>>({});
  const fieldRef = (field: FieldName) => (node: HTMLInputElement | HTMLSelectElement | null) => {
    fields.current[field] = node;
  };
  const focusFirst = (inError: (field: FieldName) => boolean) => {
    const first = FIELD_ORDER.find(inError);
    if (first) fields.current[first]?.focus();
  };
  const notice = useRef<HTMLDivElement>(null);
  // Set by 'Invite someone else': the email takes the focus once the form is back.
  const focusEmail = useRef(false);

  const createdId = created?.id ?? null;
  useEffect(() => {
    if (created) {
      onCreated(created);
      setDraft(EMPTY);
    }
    // Once per invitation sent.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [createdId]);
  // The notice replaces the form and its button, which had the focus.
  useEffect(() => {
    if (createdId !== null) notice.current?.focus();
  }, [createdId]);
  // The server's refusal: its first field in error takes the focus.
  useEffect(() => {
    setEdited(NOT_EDITED);
    if (refusal) focusFirst((field) => refusal.fieldErrors.some((e) => e.fieldName === field));
  }, [refusal]);
  const editing = snapshot.matches('editing');
  useEffect(() => {
    if (editing && focusEmail.current) {
      focusEmail.current = false;
      fields.current.email?.focus();
    }
  }, [editing]);

  if (snapshot.matches('loadingApps')) {
    return <Loader size="sm" role="progressbar" aria-label={adminTexts.invitations.loading} />;
  }
  if (snapshot.matches('loadFailed')) {
    return (
      <Stack gap="sm">
        <Alert color="red" role="alert" title={t.loadFailed}>
          {loadError}
        </Alert>
        <Group>
          <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
        </Group>
      </Stack>
    );
  }
  if (snapshot.matches('created') && created) {
    return (
      <Stack gap="sm">
        <Stack gap={4} role="status" ref={notice} tabIndex={-1}>
          <Text fw={600}>{t.sent(created.email)}</Text>
          <Text size="sm">
            {t.sentDetail(
              created.facility
                ? `${created.app?.name ?? ''} at ${created.facility.name}`
                : (created.app?.name ?? ''),
              formatDateTime(created.expiresDate),
            )}
          </Text>
        </Stack>
        <Group>
          <Button
            onClick={() => {
              focusEmail.current = true;
              send({ type: 'user.again' });
            }}
          >
            {t.again}
          </Button>
        </Group>
      </Stack>
    );
  }

  const app = apps.find((a) => a.code === draft.appCode) ?? null;
  const needsFacility = app?.facilityHandoff === 'SELECTED_BEFORE_HANDOFF';
  const needsName = invitationFixesName(draft);
  const fieldError = (field: FieldName) =>
    local[field] ??
    (edited[field] ? undefined : refusal?.fieldErrors.find((e) => e.fieldName === field)?.message);
  const set = (field: keyof Draft, value: string | boolean) => setDraft((d) => ({ ...d, [field]: value }));
  /** An edit of a field: its value, and its errors (the form's and the server's) go. */
  const edit = (field: FieldName, value: string) => {
    set(field, value);
    setLocal((errors) => ({ ...errors, [field]: undefined }));
    setEdited((e) => ({ ...e, [field]: true }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = checked(draft, {
      needsFacility,
      needsName,
      badValidity: fields.current.validityDays?.validity?.badInput === true,
    });
    if ('errors' in result) {
      setLocal(result.errors);
      focusFirst((field) => result.errors[field] !== undefined);
      return;
    }
    setLocal({});
    send({ type: 'user.submit', form: result.body });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t.heading}>
      <Stack gap="sm">
        <Title order={3}>{t.heading}</Title>
        {refusal && (
          <Alert color="red" role="alert">
            {refusal.message}
          </Alert>
        )}
        <TextInput
          label={t.email}
          type="email"
          required
          value={draft.email}
          onChange={(e) => edit('email', e.currentTarget.value)}
          error={fieldError('email')}
          errorProps={fieldErrorProps}
          ref={fieldRef('email')}
          maxLength={500}
        />
        <NativeSelect
          label={t.app}
          required
          value={draft.appCode}
          onChange={(e) => {
            edit('appCode', e.currentTarget.value);
            edit('facilityCode', '');
          }}
          error={fieldError('appCode')}
          errorProps={fieldErrorProps}
          ref={fieldRef('appCode')}
          data={[
            { value: '', label: '' },
            ...apps.map((a) => ({ value: a.code, label: `${a.name} (${a.code})` })),
          ]}
        />
        {app && <Text size="sm">{t.handoff[app.facilityHandoff]}</Text>}
        {needsFacility && (
          <NativeSelect
            label={t.facility}
            required
            value={draft.facilityCode}
            onChange={(e) => edit('facilityCode', e.currentTarget.value)}
            error={fieldError('facilityCode')}
            errorProps={fieldErrorProps}
            ref={fieldRef('facilityCode')}
            data={[
              { value: '', label: '' },
              ...(app?.facilities ?? []).map((f) => ({
                value: f.code,
                label: `${f.name} (${f.alias ?? f.code})`,
              })),
            ]}
          />
        )}
        <TextInput
          label={t.name}
          required={needsName}
          value={draft.name}
          onChange={(e) => edit('name', e.currentTarget.value)}
          error={fieldError('name')}
          errorProps={fieldErrorProps}
          ref={fieldRef('name')}
          maxLength={100}
        />
        <TextInput
          label={t.customerNumber}
          description={t.customerNumberHint}
          value={draft.customerNumber}
          onChange={(e) => edit('customerNumber', e.currentTarget.value)}
          error={fieldError('customerNumber')}
          errorProps={fieldErrorProps}
          ref={fieldRef('customerNumber')}
          maxLength={20}
        />
        <Checkbox
          label={t.isStaff}
          checked={draft.isStaff}
          onChange={(e) => set('isStaff', e.currentTarget.checked)}
        />
        <TextInput
          label={t.validityDays}
          type="number"
          min={1}
          max={365}
          value={draft.validityDays}
          onChange={(e) => edit('validityDays', e.currentTarget.value)}
          error={fieldError('validityDays')}
          errorProps={fieldErrorProps}
          ref={fieldRef('validityDays')}
        />
        <Group>
          <Button type="submit" loading={busy}>
            {t.submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
