// The history and api-calls tabs (section 2.7): five items per page, the result count, 'N pages'
// when more than one; 'System' when no actor; actors are links only for READ_ONLY holders; the
// ticket's code links to its url; descriptions keep their lines; the type shows with its variant.
import '@mantine/core/styles/Badge.css';
import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { historyMachine } from '../../../../machines/access-requests/history/history.machine';
import {
  selectErrorMessage,
  selectItems,
  selectPage,
  selectView,
} from '../../../../machines/access-requests/history/history.select';
import type { HistoryItem } from '../../../contract/admin';
import { formatDateTime } from '../../app/format';
import { ERROR_TEXT, WARNING_TEXT } from '../../app/theme';
import { ADMIN_ROUTE } from '../../app/routes';
import { useSession } from '../../app/session';
import { useFlowActor } from '../shared/use-flow-actor';
import { apiCallActors, historyActors } from './access-requests.actors';
import { accessRequestsTexts as t } from './access-requests.texts';
import { Pager } from './Pager';
import { APPROVE_COLOUR } from './StatusBadge';

export const READ_ONLY = 'READ_ONLY';

/**
 * Badge colours of the history item variants (section 3: type has a text and a variant): filled,
 * in shades that keep white text at 4.5:1 or more (Mantine's light badges do not for green, nor
 * does its green 9, #2b8a3e, at 4.4:1: success takes the Approved status badge's green).
 */
export const VARIANT_COLOUR: Record<string, string> = {
  info: '#1971c2',
  success: APPROVE_COLOUR,
  warning: WARNING_TEXT,
  danger: ERROR_TEXT,
};

/** Where an actor link goes: the admin identity page. */
export const identityPath = (id: string) => `${ADMIN_ROUTE}/identities/${id}`;

function Actor({ item, asLink }: { item: HistoryItem; asLink: boolean }) {
  const app = item.actorApp ? <Text size="xs">{t.viaApp(item.actorApp.name)}</Text> : null;
  if (!item.actor) {
    return (
      <>
        <Text size="sm">{t.system}</Text>
        {app}
      </>
    );
  }
  return (
    <>
      {asLink ? (
        <Anchor component={Link} to={identityPath(item.actor.id)} size="sm">
          {item.actor.username}
        </Anchor>
      ) : (
        <Text size="sm">{item.actor.username}</Text>
      )}
      {app}
    </>
  );
}

export function HistoryTab({
  id,
  kind,
  actors,
}: {
  id: string;
  kind: 'history' | 'apiCalls';
  /** Another history's page loader (the admin identity page's); default: the access request's. */
  actors?: typeof historyActors;
}) {
  const { currentUser } = useSession();
  const [, send, actorRef] = useFlowActor(historyMachine, {
    input: { id },
    actors: actors ?? (kind === 'history' ? historyActors : apiCallActors),
  });
  const view = useSelector(actorRef, selectView);
  const items = useSelector(actorRef, selectItems);
  const page = useSelector(actorRef, selectPage);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const actorsAsLinks = currentUser?.roles.includes(READ_ONLY) ?? false;
  const busy = view === 'loading';

  if (view === 'failed') {
    return (
      <Stack gap="sm">
        <Alert color="red" role="alert" title={t.historyLoadFailed}>
          {errorMessage}
        </Alert>
        <Group>
          <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
        </Group>
      </Stack>
    );
  }
  // The pager is there from the first load (its count empty), so that a screen reader announces
  // the count when it comes and when it changes (WCAG 4.1.3).
  return (
    <Stack gap="sm" aria-busy={busy}>
      <Pager page={page} busy={busy} onPage={(n) => send({ type: 'user.page', page: n })} />
      {page === null ? (
        <Group>
          <Loader size="sm" role="progressbar" aria-label={t.loading} />
        </Group>
      ) : items.length === 0 ? (
        <Text>{kind === 'history' ? t.noHistory : t.noApiCalls}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.historyColumns.date}</Table.Th>
                <Table.Th>{t.historyColumns.actor}</Table.Th>
                <Table.Th>{t.historyColumns.type}</Table.Th>
                <Table.Th>{t.historyColumns.ticket}</Table.Th>
                <Table.Th>{t.historyColumns.description}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item, index) => (
                <Table.Tr key={`${page.number}:${index}`} data-testid="history-item">
                  <Table.Td>{formatDateTime(item.eventDate)}</Table.Td>
                  <Table.Td>
                    <Actor item={item} asLink={actorsAsLinks} />
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      variant="filled"
                      color={VARIANT_COLOUR[item.type.variant] ?? 'dark'}
                      data-variant={item.type.variant}
                    >
                      {item.type.text}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {item.ticket ? (
                      <Anchor href={item.ticket.url} target="_blank" rel="noreferrer noopener">
                        {item.ticket.code}
                      </Anchor>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                      {item.description}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
