// /access-requests: the searchable, paged list (section 2.7). Runs the request-list machine.
import '@mantine/core/styles/Table.css';
import { Alert, Anchor, Button, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { requestListMachine } from '../../../../machines/access-requests/request-list/request-list.machine';
import {
  selectErrorMessage,
  selectPage,
  selectQuery,
  selectRows,
  selectView,
} from '../../../../machines/access-requests/request-list/request-list.select';
import { LIST_PAGE_LIMIT } from '../../../contract/admin';
import { ACCESS_REQUESTS_ROUTE } from '../../app/routes';
import { formatDateTime } from '../../app/format';
import { useFlowActor } from '../shared/use-flow-actor';
import { requestListActors } from './access-requests.actors';
import { accessRequestsTexts as t } from './access-requests.texts';
import { Pager } from './Pager';
import { StatusBadge } from './StatusBadge';

export function RequestList() {
  const [, send, actorRef] = useFlowActor(requestListMachine, { input: {}, actors: requestListActors });
  const view = useSelector(actorRef, selectView);
  const rows = useSelector(actorRef, selectRows);
  const page = useSelector(actorRef, selectPage);
  const query = useSelector(actorRef, selectQuery);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const [draft, setDraft] = useState(query);
  const busy = view === 'loading';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'user.search', query: draft });
  };

  return (
    <Stack gap="md">
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
      {view === 'failed' ? (
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
            page={page}
            busy={busy}
            maxPages={LIST_PAGE_LIMIT}
            onPage={(n) => send({ type: 'user.page', page: n })}
          />
          {page === null ? (
            <Group>
              <Loader size="sm" role="progressbar" aria-label={t.loading} />
            </Group>
          ) : rows.length === 0 ? (
            <Text>{t.noRequests}</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.columns.code}</Table.Th>
                    <Table.Th>{t.columns.app}</Table.Th>
                    <Table.Th>{t.columns.facility}</Table.Th>
                    <Table.Th>{t.columns.requester}</Table.Th>
                    <Table.Th>{t.columns.status}</Table.Th>
                    <Table.Th>{t.columns.created}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`${ACCESS_REQUESTS_ROUTE}/${row.id}`}>
                          {row.code}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{row.app.name}</Table.Td>
                      <Table.Td>{row.facility?.name ?? t.noFacility}</Table.Td>
                      <Table.Td>
                        {row.requester.name
                          ? `${row.requester.name} (${row.requester.username})`
                          : row.requester.username}
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={row.status} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(row.createdDate)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Stack>
  );
}
