// 'Invite someone' (admin): runs the create-invitation machine. The facility list follows the
// chosen app; an app whose handoff includes a facility needs one.
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
import { useEffect, useState, type FormEvent } from 'react';
import { createInvitationMachine } from '../../../../machines/admin/create-invitation/create-invitation.machine';
import type { InvitationSummary } from '../../../contract/admin';
import { formatDateTime } from '../../app/format';
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

  const createdId = created?.id ?? null;
  useEffect(() => {
    if (created) {
      onCreated(created);
      setDraft(EMPTY);
    }
    // Once per invitation sent.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [createdId]);

  if (snapshot.matches('loadingApps')) {
    return <Loader size="sm" aria-label={adminTexts.invitations.loading} />;
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
        <Stack gap={4} role="status">
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
          <Button onClick={() => send({ type: 'user.again' })}>{t.again}</Button>
        </Group>
      </Stack>
    );
  }

  const app = apps.find((a) => a.code === draft.appCode) ?? null;
  const needsFacility = app?.facilityHandoff === 'SELECTED_BEFORE_HANDOFF';
  const fieldError = (field: keyof Draft) =>
    missing[field] ?? refusal?.fieldErrors.find((e) => e.fieldName === field)?.message;
  const set = (field: keyof Draft, value: string | boolean) => setDraft((d) => ({ ...d, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors: Partial<Record<keyof Draft, string>> = {};
    if (!draft.email.trim()) errors.email = t.required;
    if (!draft.appCode) errors.appCode = t.required;
    if (needsFacility && !draft.facilityCode) errors.facilityCode = t.required;
    setMissing(errors);
    if (Object.keys(errors).length > 0) return;
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
          value={draft.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={fieldError('name')}
          maxLength={100}
        />
        <TextInput
          label={t.customerNumber}
          description={t.customerNumberHint}
          value={draft.customerNumber}
          onChange={(e) => set('customerNumber', e.currentTarget.value)}
          error={fieldError('customerNumber')}
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
