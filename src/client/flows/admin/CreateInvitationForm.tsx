// 'Invite someone' (admin): runs the create-invitation machine. The facility list follows the
// chosen app; an app whose handoff includes a facility needs one. A customer with a customer number
// who is not staff needs a name: they cannot enter it when registering (section 5; the server
// refuses such an invitation without one, at the name field, too). For keyboard and screen reader
// users: errors are announced at their fields and the first takes the focus; once sent, the notice
// takes the focus (the form it was in is gone), and 'Invite someone else' puts it in the email.
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
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createInvitationMachine } from '../../../../machines/admin/create-invitation/create-invitation.machine';
import { invitationFixesName, type InvitationSummary } from '../../../contract/admin';
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
  const [missing, setMissing] = useState<Partial<Record<keyof Draft, string>>>({});
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
  const fieldError = (field: keyof Draft) =>
    missing[field] ?? refusal?.fieldErrors.find((e) => e.fieldName === field)?.message;
  const set = (field: keyof Draft, value: string | boolean) => setDraft((d) => ({ ...d, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors: Partial<Record<keyof Draft, string>> = {};
    if (!draft.email.trim()) errors.email = t.required;
    if (!draft.appCode) errors.appCode = t.required;
    if (needsFacility && !draft.facilityCode) errors.facilityCode = t.required;
    if (needsName && !draft.name.trim()) errors.name = t.required;
    setMissing(errors);
    if (Object.keys(errors).length > 0) {
      focusFirst((field) => errors[field] !== undefined);
      return;
    }
    send({
      type: 'user.submit',
      form: {
        email: draft.email.trim(),
        appCode: draft.appCode,
        ...(needsFacility ? { facilityCode: draft.facilityCode } : {}),
        ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
        ...(draft.customerNumber.trim() ? { customerNumber: draft.customerNumber.trim() } : {}),
        isStaff: draft.isStaff,
        ...(draft.validityDays ? { validityDays: Number(draft.validityDays) } : {}),
      },
    });
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
          onChange={(e) => set('email', e.currentTarget.value)}
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
            set('appCode', e.currentTarget.value);
            set('facilityCode', '');
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
            onChange={(e) => set('facilityCode', e.currentTarget.value)}
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
          onChange={(e) => set('name', e.currentTarget.value)}
          error={fieldError('name')}
          errorProps={fieldErrorProps}
          ref={fieldRef('name')}
          maxLength={100}
        />
        <TextInput
          label={t.customerNumber}
          description={t.customerNumberHint}
          value={draft.customerNumber}
          onChange={(e) => set('customerNumber', e.currentTarget.value)}
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
          onChange={(e) => set('validityDays', e.currentTarget.value)}
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
