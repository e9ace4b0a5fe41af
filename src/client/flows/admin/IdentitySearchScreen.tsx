// /admin/identities?query=…: the identity search (username, name, email, mobile, customer number),
// paged like the access-request list. The address's query is the search: the header's search bar
// and this page's form both change it, and each change is sent to the machine as a new search.
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { identitySearchMachine } from '../../../../machines/admin/identity-search/identity-search.machine';
import { LIST_PAGE_LIMIT } from '../../../contract/admin';
import { Pager } from '../access-requests/Pager';
import { useFlowActor } from '../shared/use-flow-actor';
import { identitySearchActors } from './identities.actors';
import { identityPagePath, identitySearchPath, queryOf } from './identities.routes';
import { identityTexts } from './identities.texts';

const t = identityTexts.search;

export function IdentitySearchScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const wanted = queryOf(location.search);
  const [snapshot, send] = useFlowActor(identitySearchMachine, {
    input: { query: wanted },
    actors: identitySearchActors,
  });
  const { query, result, errorMessage } = snapshot.context;
  const [draft, setDraft] = useState(wanted);

  const busy = snapshot.matches('loading');
  // A new address (the header's search bar, this form, back and forward) is a new search, sent
  // once the load under way has answered.
  useEffect(() => setDraft(wanted), [wanted]);
  useEffect(() => {
    if (!busy && wanted !== query) send({ type: 'user.search', query: wanted });
  }, [busy, wanted, query, send]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim() === query) send({ type: 'user.search', query: draft });
    else void navigate(identitySearchPath(draft));
  };
  const page = result?.page ?? null;

  return (
    <Stack gap="md">
      <Title order={2} data-step-heading>
        {t.heading}
      </Title>
      <form role="search" aria-label={t.label} onSubmit={submit}>
        <Group align="flex-end" gap="sm">
          <TextInput
            type="search"
            label={t.label}
            placeholder={t.placeholder}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            style={{ flex: 1 }}
            maxLength={200}
          />
          <Button type="submit">{t.submit}</Button>
        </Group>
      </form>
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
            page={page}
            busy={busy}
            maxPages={LIST_PAGE_LIMIT}
            onPage={(n) => send({ type: 'user.page', page: n })}
          />
          {page === null || result === null ? (
            <Group>
              <Loader size="sm" role="progressbar" aria-label={t.loading} />
            </Group>
          ) : result.data.length === 0 ? (
            <Text>{t.empty}</Text>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.columns.username}</Table.Th>
                    <Table.Th>{t.columns.name}</Table.Th>
                    <Table.Th>{t.columns.email}</Table.Th>
                    <Table.Th>{t.columns.mobile}</Table.Th>
                    <Table.Th>{t.columns.customerNumber}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.data.map((row) => (
                    <Table.Tr key={row.id} data-testid="identity-row">
                      <Table.Td>
                        <Group gap={6}>
                          <Anchor component={Link} to={identityPagePath(row.id)}>
                            {row.username}
                          </Anchor>
                          {row.isAdmin && (
                            <Badge size="sm" variant="outline" color="dark">
                              {t.admin}
                            </Badge>
                          )}
                          {row.isStaff && (
                            <Badge size="sm" variant="outline" color="dark">
                              {t.staff}
                            </Badge>
                          )}
                          {row.isRetired && (
                            <Badge size="sm" variant="outline" color="dark">
                              {t.retired}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{row.name}</Table.Td>
                      <Table.Td>{row.email ?? ''}</Table.Td>
                      <Table.Td>{row.mobile ?? ''}</Table.Td>
                      <Table.Td>{row.customerNumber ?? ''}</Table.Td>
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
