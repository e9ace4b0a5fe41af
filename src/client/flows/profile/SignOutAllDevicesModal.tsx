// The 'Sign out of all devices' modal (section 2.2): the applications being signed out of, the
// optional Jira ticket code (shown only when asked for; required when mandatory), and wording for
// one's own account or another identity's (the admin case). `onConfirm` answers a refusal message.
// This page's own Mantine styles (app/styles.ts loads only what the first page needs).
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/List.css';
import '../../app/style-nonce-global';
import { Alert, Button, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { HandoffTarget } from '../../../contract/entities';
import { signOutAllTexts as t } from '../../pages/profile.texts';
import { fieldErrorProps } from '../forced/shared/field-props';

export interface SignOutAllDevicesModalProps {
  opened: boolean;
  onClose: () => void;
  /** Null for one's own account; otherwise the identity's name. */
  otherName: string | null;
  /**
   * The applications being signed out of; null while loading; 'unavailable' when the list could not
   * be loaded (the sign-out still covers them all, and the modal says so rather than 'none').
   */
  apps: HandoffTarget[] | null | 'unavailable';
  ticket: 'hidden' | 'optional' | 'mandatory';
  /** Signs out; answers the refusal's message, or null when done. */
  onConfirm: (ticketCode: string | null) => Promise<string | null>;
}

export function SignOutAllDevicesModal({
  opened,
  onClose,
  otherName,
  apps,
  ticket,
  onConfirm,
}: SignOutAllDevicesModalProps) {
  const [ticketCode, setTicketCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const names = Array.isArray(apps) ? [...new Set(apps.map((a) => a.appName))] : [];

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = ticketCode.trim();
    if (ticket === 'mandatory' && code === '') {
      setError(t.required);
      return;
    }
    setBusy(true);
    try {
      const refusal = await onConfirm(ticket === 'hidden' || code === '' ? null : code);
      setError(refusal);
    } finally {
      setBusy(false);
    }
  };

  return (
    // While a sign-out runs it cannot be called off: nothing offers to close the modal then (its
    // Cancel and close buttons are disabled, Escape and a click outside do nothing).
    <Modal
      opened={opened}
      onClose={onClose}
      title={t.title}
      centered
      closeOnEscape={!busy}
      closeOnClickOutside={!busy}
      closeButtonProps={{ 'aria-label': t.cancel, disabled: busy }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={t.title}>
        <Stack gap="md">
          <Text>{otherName === null ? t.ownIntro : t.otherIntro(otherName)}</Text>
          {apps === null ? (
            <Text size="sm" role="status">
              {t.loadingApps}
            </Text>
          ) : apps === 'unavailable' ? (
            <Text size="sm" role="status">
              {otherName === null ? t.ownAppsUnavailable : t.otherAppsUnavailable}
            </Text>
          ) : names.length === 0 ? (
            <Text size="sm">{t.noApps}</Text>
          ) : (
            <Stack gap={4}>
              <Text size="sm">{otherName === null ? t.ownApps : t.otherApps}</Text>
              <List size="sm" aria-label={t.ownApps}>
                {names.map((name) => (
                  <List.Item key={name}>{name}</List.Item>
                ))}
              </List>
            </Stack>
          )}
          {ticket !== 'hidden' ? (
            <TextInput
              label={t.ticket}
              description={t.ticketHint}
              placeholder={t.ticketPlaceholder}
              required={ticket === 'mandatory'}
              value={ticketCode}
              maxLength={50}
              onChange={(event) => {
                setTicketCode(event.currentTarget.value);
                setError(null);
              }}
              error={error}
              errorProps={fieldErrorProps}
            />
          ) : (
            error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t.cancel}
            </Button>
            <Button type="submit" color="red.9" loading={busy}>
              {t.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
