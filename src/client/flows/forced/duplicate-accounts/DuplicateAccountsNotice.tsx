// /forced-actions/duplicate-accounts (section 2.6): several accounts share the email address;
// Start merge, and Skip only before the cutoff date.
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { mergeAccountsTexts as t } from '../merge-accounts/merge-accounts.texts';

export interface DuplicateAccountsNoticeProps {
  email: string | null;
  canSkip: boolean;
  busy: boolean;
  /** A refused skip (the cutoff passed meanwhile). */
  error: string | null;
  onStartMerge: () => void;
  onSkip: () => void;
}

export function DuplicateAccountsNotice({
  email,
  canSkip,
  busy,
  error,
  onStartMerge,
  onSkip,
}: DuplicateAccountsNoticeProps) {
  return (
    <Stack gap="lg">
      <Title order={1}>{t.notice.heading}</Title>
      <Text>{t.notice.body(email)}</Text>
      {canSkip && <Text c="dimmed">{t.notice.skipNote}</Text>}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group>
        <Button onClick={onStartMerge} disabled={busy}>
          {t.notice.startMerge}
        </Button>
        {canSkip && (
          <Button variant="default" onClick={onSkip} loading={busy}>
            {t.notice.skip}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
