// /access-requests/{id} with tabs organisations (default), history and api-calls (section 2.7), and
// /access-requests/{appCode}/{code}, which resolves the id and redirects. Runs the request machine.
import { Alert, Anchor, Button, Group, Loader, Stack, Table, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { requestMachine } from '../../../../machines/access-requests/request/request.machine';
import {
  selectDetails,
  selectErrorMessage,
  selectId,
  selectView,
} from '../../../../machines/access-requests/request/request.select';
import type { RequestInput } from '../../../../machines/access-requests/request/request.types';
import type { AccessRequestDetails } from '../../../contract/admin';
import { formatDateTime } from '../../app/format';
import { ACCESS_REQUESTS_ROUTE } from '../../app/routes';
import { useFlowActor } from '../shared/use-flow-actor';
import { requestActors } from './access-requests.actors';
import { accessRequestsTexts as t } from './access-requests.texts';
import { HistoryTab } from './HistoryTab';

export type RequestTab = 'organisations' | 'history' | 'api-calls';

export const requestPath = (id: string, tab: RequestTab = 'organisations') =>
  tab === 'organisations' ? `${ACCESS_REQUESTS_ROUTE}/${id}` : `${ACCESS_REQUESTS_ROUTE}/${id}/${tab}`;

const TABS: ReadonlyArray<readonly [RequestTab, string]> = [
  ['organisations', t.tabs.organisations],
  ['history', t.tabs.history],
  ['api-calls', t.tabs.apiCalls],
];

function Organisations({ details }: { details: AccessRequestDetails }) {
  const rows: Array<[string, string]> = [
    [t.organisation.app, `${details.app.name} (${details.app.code})`],
    [
      t.organisation.facility,
      details.facility ? `${details.facility.name} (${details.facility.code})` : t.noFacilityText,
    ],
    [
      t.organisation.requester,
      details.requester.name
        ? `${details.requester.name} (${details.requester.username})`
        : details.requester.username,
    ],
    [t.organisation.status, t.status[details.status] ?? details.status],
    [t.organisation.created, formatDateTime(details.createdDate)],
    [t.organisation.decided, details.decidedDate ? formatDateTime(details.decidedDate) : t.notDecided],
  ];
  return (
    <Table variant="vertical" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={160}>{label}</Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Failed({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="red" role="alert" title={t.loadFailed}>
        {message}
      </Alert>
      <Group>
        <Button onClick={onRetry}>{t.retry}</Button>
      </Group>
    </Stack>
  );
}

const Loading = () => (
  <Group>
    <Loader size="sm" aria-label={t.loading} />
  </Group>
);

/** /access-requests/{appCode}/{code}: resolves the id, then replaces the address with /access-requests/{id}. */
export function ResolveRequest({ appCode, code }: { appCode: string; code: string }) {
  const [, send, actorRef] = useFlowActor(requestMachine, {
    input: { appCode, code } satisfies RequestInput,
    actors: requestActors,
  });
  const view = useSelector(actorRef, selectView);
  const id = useSelector(actorRef, selectId);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const navigate = useNavigate();
  useEffect(() => {
    if (view === 'resolved' && id) void navigate(requestPath(id), { replace: true });
  }, [view, id, navigate]);
  if (view === 'failed')
    return <Failed message={errorMessage} onRetry={() => send({ type: 'user.retry' })} />;
  return <Loading />;
}

/** /access-requests/{id}[/history|/api-calls]. */
export function RequestDetail({ id, tab }: { id: string; tab: RequestTab }) {
  const [, send, actorRef] = useFlowActor(requestMachine, {
    input: { id } satisfies RequestInput,
    actors: requestActors,
  });
  const view = useSelector(actorRef, selectView);
  const details = useSelector(actorRef, selectDetails);
  const errorMessage = useSelector(actorRef, selectErrorMessage);

  useEffect(() => {
    if (details) document.title = `${t.requestHeading(details.code)} | ${t.heading}`;
  }, [details]);

  return (
    <Stack gap="md">
      <Anchor component={Link} to={ACCESS_REQUESTS_ROUTE} size="sm">
        {t.backToList}
      </Anchor>
      {view === 'failed' ? (
        <Failed message={errorMessage} onRetry={() => send({ type: 'user.retry' })} />
      ) : !details ? (
        <Loading />
      ) : (
        <>
          <Title order={2}>{t.requestHeading(details.code)}</Title>
          {/* The tabs are addresses (section 2.7's child routes): links, the current one marked. */}
          <Group component="nav" aria-label={t.tabsLabel} gap="xs">
            {TABS.map(([value, label]) => (
              <Button
                key={value}
                component={Link}
                to={requestPath(id, value)}
                replace
                variant={value === tab ? 'filled' : 'subtle'}
                aria-current={value === tab ? 'page' : undefined}
              >
                {label}
              </Button>
            ))}
          </Group>
          <section aria-label={TABS.find(([value]) => value === tab)![1]}>
            {tab === 'organisations' ? (
              <Organisations details={details} />
            ) : (
              <HistoryTab key={tab} id={id} kind={tab === 'history' ? 'history' : 'apiCalls'} />
            )}
          </section>
        </>
      )}
    </Stack>
  );
}
