// /access-requests/{id} with tabs organisations (default), history and api-calls (section 2.7), and
// /access-requests/{appCode}/{code}, which resolves the id and redirects. Runs the request machine;
// an admin approves or rejects a pending request here (a confirmation with the Jira ticket code, and
// the reason for a rejection), after which the request and its history are shown again.
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import * as v from 'valibot';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { requestMachine } from '../../../../machines/access-requests/request/request.machine';
import {
  selectCanDecide,
  selectDecision,
  selectOwnPendingRequest,
  selectDecisions,
  selectDeciding,
  selectDetails,
  selectErrorMessage,
  selectId,
  selectOutcome,
  selectRefusal,
  selectView,
} from '../../../../machines/access-requests/request/request.select';
import type {
  Decision,
  DecisionFieldErrors,
  DecisionOutcome,
  RequestContext,
  RequestInput,
} from '../../../../machines/access-requests/request/request.types';
import { DECISION_REASON_MAX, decisionReason, decisionTicketCode } from '../../../contract/access-requests';
import type { AccessRequestDetails } from '../../../contract/admin';
import { formatDateTime } from '../../app/format';
import { ACCESS_REQUESTS_ROUTE } from '../../app/routes';
import { useSession } from '../../app/session';
import { fieldErrorProps } from '../forced/shared/field-props';
import { useFlowActor } from '../shared/use-flow-actor';
import { requestActors } from './access-requests.actors';
import { accessRequestsTexts as t } from './access-requests.texts';
import { HistoryTab } from './HistoryTab';
import { APPROVE_COLOUR, StatusBadge } from './StatusBadge';

export type RequestTab = 'organisations' | 'history' | 'api-calls';

/**
 * /access-requests/{id}, which shows the default tab (organisations), or with a tab its child
 * address /access-requests/{id}/{tab}: the tab links always name their tab.
 */
export const requestPath = (id: string, tab?: RequestTab) =>
  tab ? `${ACCESS_REQUESTS_ROUTE}/${id}/${tab}` : `${ACCESS_REQUESTS_ROUTE}/${id}`;

const TABS: ReadonlyArray<readonly [RequestTab, string]> = [
  ['organisations', t.tabs.organisations],
  ['history', t.tabs.history],
  ['api-calls', t.tabs.apiCalls],
];

const requesterOf = (details: AccessRequestDetails) =>
  details.requester.name
    ? `${details.requester.name} (${details.requester.username})`
    : details.requester.username;

/**
 * The vertical table's value cells break a long unbroken value (an email address, a code) anywhere
 * rather than widening the page, and its header column takes 40% of the table below the xs
 * breakpoint instead of its 160 px: at 320 CSS px (WCAG 1.4.10).
 */
const valueCellStyle = { overflowWrap: 'anywhere' } as const;
const headerCellWidth = { base: '40%', xs: 160 };

function Organisations({ details }: { details: AccessRequestDetails }) {
  const rows: Array<[string, ReactNode]> = [
    [t.organisation.app, `${details.app.name} (${details.app.code})`],
    [
      t.organisation.facility,
      details.facility ? `${details.facility.name} (${details.facility.code})` : t.noFacilityText,
    ],
    [t.organisation.requester, requesterOf(details)],
    [t.organisation.status, <StatusBadge status={details.status} />],
    [t.organisation.created, formatDateTime(details.createdDate)],
    [t.organisation.decided, details.decidedDate ? formatDateTime(details.decidedDate) : t.notDecided],
  ];
  return (
    <Table variant="vertical" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={headerCellWidth}>{label}</Table.Th>
            <Table.Td style={valueCellStyle}>{value}</Table.Td>
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

/** The first message of `schema` for `value`, or null when it passes (the contract's own field rules). */
function problemOf(schema: v.GenericSchema, value: string): string | null {
  const parsed = v.safeParse(schema, value);
  return parsed.success ? null : (parsed.issues[0]?.message ?? null);
}

type Field = keyof DecisionFieldErrors;

/**
 * The confirmation of a decision: what it does, the Jira ticket code, and for a rejection the
 * reason. Fields are checked with the contract's schemas before anything is sent; the server's
 * refusals show at their fields (or above them), and the first field in error takes the focus.
 */
function DecisionForm({
  details,
  decision,
  busy,
  refusal,
  onConfirm,
  onCancel,
}: {
  details: AccessRequestDetails;
  decision: Decision;
  busy: boolean;
  refusal: RequestContext['refusal'];
  onConfirm: (ticketCode: string, reason: string) => void;
  onCancel: () => void;
}) {
  const d = t.decision;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const fields = { ticketCode: useRef<HTMLInputElement>(null), reason: useRef<HTMLTextAreaElement>(null) };
  const [ticketCode, setTicketCode] = useState('');
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<DecisionFieldErrors>({});
  // Server errors stay at their field until it is edited.
  const [edited, setEdited] = useState<Record<Field, boolean>>({ ticketCode: false, reason: false });
  const rejecting = decision === 'reject';

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    setEdited({ ticketCode: false, reason: false });
    const first = (['ticketCode', 'reason'] as const).find((f) => refusal?.fieldErrors[f]);
    if (first) fields[first].current?.focus();
    // `fields` holds refs: stable for the component's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refusal]);

  const errorOf = (field: Field) =>
    local[field] ?? (edited[field] ? null : (refusal?.fieldErrors[field] ?? null));
  const general = refusal && !refusal.fieldErrors.ticketCode && !refusal.fieldErrors.reason ? refusal : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: DecisionFieldErrors = {};
    const ticketProblem = problemOf(decisionTicketCode, ticketCode);
    if (ticketProblem) problems.ticketCode = ticketProblem;
    const reasonProblem = rejecting ? problemOf(decisionReason, reason) : null;
    if (reasonProblem) problems.reason = reasonProblem;
    setLocal(problems);
    const first = (['ticketCode', 'reason'] as const).find((f) => problems[f]);
    if (first) {
      fields[first].current?.focus();
      return;
    }
    onConfirm(ticketCode, rejecting ? reason : '');
  };

  const target = d.target(details.app.name, details.facility?.name ?? null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Stack gap="sm">
          <Title order={3} id={headingId} ref={heading} tabIndex={-1}>
            {rejecting ? d.rejectHeading(details.code) : d.approveHeading(details.code)}
          </Title>
          <Text>
            {rejecting
              ? d.rejectSummary(requesterOf(details), target)
              : d.approveSummary(requesterOf(details), target)}
          </Text>
          {general && (
            <Alert color="red" role="alert" title={d.refusedTitle}>
              {general.message}
            </Alert>
          )}
          <TextInput
            ref={fields.ticketCode}
            label={d.ticketLabel}
            description={d.ticketHint}
            placeholder={d.ticketPlaceholder}
            required
            maxLength={50}
            readOnly={busy}
            value={ticketCode}
            onChange={(event) => {
              setTicketCode(event.currentTarget.value);
              setLocal((errors) => ({ ...errors, ticketCode: undefined }));
              setEdited((e) => ({ ...e, ticketCode: true }));
            }}
            error={errorOf('ticketCode')}
            errorProps={fieldErrorProps}
          />
          {rejecting && (
            <Textarea
              ref={fields.reason}
              label={d.reasonLabel}
              description={d.reasonHint}
              required
              rows={4}
              maxLength={DECISION_REASON_MAX}
              readOnly={busy}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setLocal((errors) => ({ ...errors, reason: undefined }));
                setEdited((e) => ({ ...e, reason: true }));
              }}
              error={errorOf('reason')}
              errorProps={fieldErrorProps}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={busy}>
              {d.cancel}
            </Button>
            <Button type="submit" color={rejecting ? 'red.9' : APPROVE_COLOUR} loading={busy}>
              {rejecting ? d.confirmReject : d.confirmApprove}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** What the last decision did; it takes the focus when it appears, so it is read out. */
function Outcome({ outcome, code }: { outcome: DecisionOutcome; code: string }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), [outcome]);
  if (outcome.type === 'alreadyDecided') {
    return (
      <Alert ref={notice} tabIndex={-1} color="orange" role="alert" title={t.decision.alreadyDecidedTitle}>
        {outcome.message}
      </Alert>
    );
  }
  return (
    <Alert ref={notice} tabIndex={-1} color={outcome.status === 'REJECTED' ? 'red' : 'green'} role="status">
      {outcome.status === 'REJECTED' ? t.decision.rejected(code) : t.decision.approved(code)}
    </Alert>
  );
}

function DecisionActions({
  onDecide,
  takeFocus,
}: {
  onDecide: (decision: Decision) => void;
  takeFocus: boolean;
}) {
  const approve = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (takeFocus) approve.current?.focus();
  }, [takeFocus]);
  return (
    <Group component="section" aria-label={t.decision.actionsLabel} gap="sm">
      <Button ref={approve} color={APPROVE_COLOUR} onClick={() => onDecide('approve')}>
        {t.decision.approve}
      </Button>
      <Button color="red.9" variant="outline" onClick={() => onDecide('reject')}>
        {t.decision.reject}
      </Button>
    </Group>
  );
}

const Loading = () => (
  <Group>
    <Loader size="sm" role="progressbar" aria-label={t.loading} />
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

/** /access-requests/{id}[/organisations|/history|/api-calls]. */
export function RequestDetail({ id, tab }: { id: string; tab: RequestTab }) {
  // Whether the user may decide is the machine's input: wait for the user (the route guard has
  // normally loaded it already).
  const { currentUser } = useSession();
  if (!currentUser) return <Loading />;
  return <RequestDetailOf id={id} tab={tab} mayDecide={currentUser.isAdmin} selfId={currentUser.id} />;
}

function RequestDetailOf({
  id,
  tab,
  mayDecide,
  selfId,
}: {
  id: string;
  tab: RequestTab;
  mayDecide: boolean;
  selfId: string | null;
}) {
  const [, send, actorRef] = useFlowActor(requestMachine, {
    input: { id, mayDecide, ...(selfId ? { selfId } : {}) } satisfies RequestInput,
    actors: requestActors,
  });
  const view = useSelector(actorRef, selectView);
  const details = useSelector(actorRef, selectDetails);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const canDecide = useSelector(actorRef, selectCanDecide);
  const ownPendingRequest = useSelector(actorRef, selectOwnPendingRequest);
  const decision = useSelector(actorRef, selectDecision);
  const deciding = useSelector(actorRef, selectDeciding);
  const refusal = useSelector(actorRef, selectRefusal);
  const outcome = useSelector(actorRef, selectOutcome);
  const decisions = useSelector(actorRef, selectDecisions);
  // After Cancel the focus goes back to the actions (the confirmation it was in is gone).
  const [cancelled, setCancelled] = useState(false);

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
          <Title order={2} data-step-heading>
            {t.requestHeading(details.code)}
          </Title>
          {outcome && <Outcome outcome={outcome} code={details.code} />}
          {ownPendingRequest && <Text c="dimmed">{t.decision.ownRequest}</Text>}
          {canDecide && (
            <DecisionActions
              takeFocus={cancelled}
              onDecide={(chosen) => {
                setCancelled(false);
                send({ type: chosen === 'approve' ? 'user.approve' : 'user.reject' });
              }}
            />
          )}
          {decision && (
            <DecisionForm
              key={decision}
              details={details}
              decision={decision}
              busy={deciding}
              refusal={refusal}
              onConfirm={(ticketCode, reason) => send({ type: 'user.confirm', ticketCode, reason })}
              onCancel={() => {
                setCancelled(true);
                send({ type: 'user.cancel' });
              }}
            />
          )}
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
              // Keyed by the decisions seen: a decision loads the history (and api calls) again.
              <HistoryTab
                key={`${tab}:${decisions}`}
                id={id}
                kind={tab === 'history' ? 'history' : 'apiCalls'}
              />
            )}
          </section>
        </>
      )}
    </Stack>
  );
}
