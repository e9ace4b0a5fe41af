// /admin/invitations: the invitation list (search, pages, revoke) beside the 'Invite someone'
// form. A sent invitation reloads the list's first page, where it is on top. Each row's status is a
// badge; a revoked one says who revoked it and when, and only open ones offer Revoke. What a
// revoke did takes the focus: the row's button that had it is gone (or was disabled meanwhile).
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { invitationsMachine } from '../../../../machines/admin/invitations/invitations.machine';
import { LIST_PAGE_LIMIT, type InvitationStatus, type InvitationSummary } from '../../../contract/admin';
import { formatDateTime } from '../../app/format';
import { Pager } from '../access-requests/Pager';
import { useFlowActor } from '../shared/use-flow-actor';
import { invitationsActors } from './admin.actors';
import { adminTexts } from './admin.texts';
import { CreateInvitationForm } from './CreateInvitationForm';

const t = adminTexts.invitations;

// Outline badges in dark shades: their text keeps a 4.5:1 contrast on the striped rows.
const STATUS_COLOR: Record<InvitationStatus, string> = {
  OPEN: 'teal.9',
  USED: 'blue.9',
  EXPIRED: 'gray.7',
  REVOKED: 'red.9',
};

function InvitationStatusCell({ invitation }: { invitation: InvitationSummary }) {
  return (
    <Stack gap={2} align="flex-start">
      <Badge variant="outline" color={STATUS_COLOR[invitation.status]}>
        {t.status[invitation.status] ?? invitation.status}
      </Badge>
      {invitation.status === 'REVOKED' && invitation.revokedAt && (
        <Text size="xs">{t.revokedDetail(formatDateTime(invitation.revokedAt), invitation.revokedBy)}</Text>
      )}
    </Stack>
  );
}

export function InvitationsScreen() {
  const [, send, actorRef] = useFlowActor(invitationsMachine, {
    input: undefined,
    actors: invitationsActors,
  });
  const snapshot = useSelector(actorRef, (s) => s);
  const { result, query, revoked, revokeError, revokeId, errorMessage } = snapshot.context;
  const [draft, setDraft] = useState(query);
  const busy = snapshot.matches('loading') || snapshot.matches('revoking');
  const revokedNotice = useRef<HTMLParagraphElement>(null);
  const revokeAlert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (revoked) revokedNotice.current?.focus();
  }, [revoked]);
  useEffect(() => {
    if (revokeError) revokeAlert.current?.focus();
  }, [revokeError]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'user.search', query: draft });
  };

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="md">
          <Title order={2} data-step-heading>
            {t.heading}
          </Title>
          <form role="search" onSubmit={submit}>
            <Group align="flex-end" gap="sm">
              <TextInput
                type="search"
                label={t.searchLabel}
                placeholder={t.searchPlaceholder}
                value={draft}
                onChange={(e) => setDraft(e.currentTarget.value)}
                style={{ flex: 1 }}
                maxLength={200}
              />
              <Button type="submit" disabled={busy}>
                {t.search}
              </Button>
            </Group>
          </form>
          {revoked && (
            <Text ref={revokedNotice} tabIndex={-1} role="status" fw={600}>
              {t.revoked(revoked.email)}
            </Text>
          )}
          {revokeError && (
            <Alert ref={revokeAlert} tabIndex={-1} color="red" role="alert" title={t.revokeFailed}>
              {revokeError}
            </Alert>
          )}
          {snapshot.matches('failed') ? (
            <Stack gap="sm">
              <Alert color="red" role="alert" title={t.loadFailed}>
                {errorMessage}
              </Alert>
              <Group>
                <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
              </Group>
            </Stack>
          ) : (
            // The pager is there from the first load (its count empty), so that a screen reader
            // announces the count when it comes and when it changes (WCAG 4.1.3).
            <Stack gap="sm" aria-busy={busy}>
              <Pager
                page={result?.page ?? null}
                busy={busy}
                maxPages={LIST_PAGE_LIMIT}
                onPage={(n) => send({ type: 'user.page', page: n })}
              />
              {result === null ? (
                <Loader size="sm" role="progressbar" aria-label={t.loading} />
              ) : result.data.length === 0 ? (
                <Text>{t.empty}</Text>
              ) : (
                <Table.ScrollContainer minWidth={640}>
                  <Table striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t.columns.email}</Table.Th>
                        <Table.Th>{t.columns.app}</Table.Th>
                        <Table.Th>{t.columns.invitee}</Table.Th>
                        <Table.Th>{t.columns.status}</Table.Th>
                        <Table.Th>{t.columns.expires}</Table.Th>
                        <Table.Th>{t.columns.actions}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {result.data.map((invitation) => (
                        <Table.Tr key={invitation.id} data-testid="invitation-row">
                          <Table.Td>
                            <Anchor href={`mailto:${invitation.email}`}>{invitation.email}</Anchor>
                            {invitation.createdBy && <Text size="xs">{t.sentBy(invitation.createdBy)}</Text>}
                          </Table.Td>
                          <Table.Td>
                            {invitation.app?.name ?? ''}
                            {invitation.facility && <Text size="xs">{invitation.facility.name}</Text>}
                          </Table.Td>
                          <Table.Td>
                            {[invitation.name, invitation.customerNumber].filter(Boolean).join(' · ')}
                          </Table.Td>
                          <Table.Td>
                            <InvitationStatusCell invitation={invitation} />
                          </Table.Td>
                          <Table.Td>{formatDateTime(invitation.expiresDate)}</Table.Td>
                          <Table.Td>
                            {invitation.status === 'OPEN' && (
                              <Button
                                size="compact-sm"
                                variant="default"
                                aria-label={t.revokeLabel(invitation.email)}
                                loading={revokeId === invitation.id}
                                disabled={busy}
                                onClick={() => send({ type: 'user.revoke', id: invitation.id })}
                              >
                                {t.revoke}
                              </Button>
                            )}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Stack>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <CreateInvitationForm onCreated={() => send({ type: 'invitation.created' })} />
      </Grid.Col>
    </Grid>
  );
}
