// /admin/identities/{id}: one identity for its administrator. Details, enrolled factors, active
// sessions (browser, system, last active), trusted devices, the history (the access-request history
// view and machine, with this identity's pages), and 'Sign out of all devices' for that identity
// with the Jira ticket it is done for (section 2.2's modal in its wording for another identity).
// On the admin's own account (its id is the signed-in user's) the modal has the own-account wording
// and, once signed out, the admin goes to sign in as the profile's sign-out does (this session
// ended with the others); Unlock is not offered there, and the page says who can unlock it.
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Paper.css';
import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { SIGN_IN_ROUTE } from '../../../../machines/routes';
import { identityMachine } from '../../../../machines/admin/identity/identity.machine';
import type { IdentityDetails, IdentitySession } from '../../../contract/admin-identities';
import type { TrustedDevice } from '../../../contract/profile';
import { formatDateTime, formatIsoDate } from '../../app/format';
import { useSession } from '../../app/session';
import { HistoryTab } from '../access-requests/HistoryTab';
import { SignOutAllDevicesModal } from '../profile/SignOutAllDevicesModal';
import { useFlowActor } from '../shared/use-flow-actor';
import { identityActors, identityHistoryActors } from './identities.actors';
import { identityTexts } from './identities.texts';
import { ADMIN_IDENTITIES_ROUTE } from './identities.routes';

const t = identityTexts.identity;

/**
 * The vertical table's value cells break a long unbroken value (an email address, a code) anywhere
 * rather than widening the page, and its header column takes 40% of the table below the xs
 * breakpoint instead of its 200 px: at 320 CSS px (WCAG 1.4.10).
 */
const valueCellStyle = { overflowWrap: 'anywhere' } as const;
const headerCellWidth = { base: '40%', xs: 200 };

const joined = (...parts: Array<string | null | undefined>) => parts.filter((p) => p).join(' ');

export const sessionBrowser = (s: IdentitySession) =>
  joined(s.browser.family, s.browser.versionMajor) || t.unknownBrowser;
export const sessionSystem = (s: IdentitySession) =>
  joined(s.operatingSystem.family, s.operatingSystem.version) || t.unknownSystem;
export const deviceBrowser = (d: TrustedDevice) =>
  joined(
    d.browser.family,
    d.browser.versionMajor
      ? `${d.browser.versionMajor}${d.browser.versionMinor ? `.${d.browser.versionMinor}` : ''}`
      : null,
  ) || t.unknownBrowser;
const deviceSystem = (d: TrustedDevice) =>
  joined(d.operatingSystem.family, d.operatingSystem.version) || t.unknownSystem;
const deviceLocation = (d: TrustedDevice) =>
  [d.city, d.country, d.continent].filter((p) => p).join(', ') || t.none;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper component="section" withBorder p="lg" aria-labelledby={id} data-testid={id}>
      <Title order={3} id={id} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Details({ identity }: { identity: IdentityDetails }) {
  const f = t.fields;
  const statuses: string[] = [
    identity.isRetired && t.statuses.retired,
    identity.isIdentityVerified ? t.statuses.identityVerified : t.statuses.notVerified,
    identity.isPasswordExpired && t.statuses.passwordExpired,
    identity.isMfaRequired && t.statuses.mfaRequired,
  ].filter((s) => s !== false);
  const rows: Array<[string, ReactNode]> = [
    [f.username, identity.username],
    [f.name, identity.name],
    [f.email, identity.email ?? t.none],
    [f.mobile, identity.mobile ?? t.none],
    [f.phone, identity.phone ?? t.none],
    [f.birthDate, identity.birthDate ? formatIsoDate(identity.birthDate) : t.none],
    [f.customerNumber, identity.customerNumber ?? t.none],
    [f.kind, joined(identity.isStaff ? t.staff : t.customer, identity.isAdmin ? `(${t.admin})` : null)],
    ...(identity.isStaff
      ? ([[f.salaryNumber, identity.salaryNumber ?? t.none]] as Array<[string, ReactNode]>)
      : []),
    [f.roles, identity.roles.length === 0 ? t.noRoles : identity.roles.join(', ')],
    [f.status, statuses.join('; ')],
    [f.created, formatDateTime(identity.createdDate)],
    [
      f.applications,
      identity.accessibleApps.length === 0
        ? t.noApplications
        : identity.accessibleApps
            .map((a) => (a.facilityName ? `${a.appName} (${a.facilityName})` : a.appName))
            .join(', '),
    ],
  ];
  return (
    <Section id="identity-details" title={t.details}>
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
    </Section>
  );
}

function Factors({ identity }: { identity: IdentityDetails }) {
  const names = identity.enrolledFactors.map((f) => t.factorNames[f] ?? f);
  if (identity.hasSecurityQuestions) names.push(t.securityQuestions);
  return (
    <Section id="identity-factors" title={t.factors}>
      {names.length === 0 ? (
        <Text>{t.noFactors}</Text>
      ) : (
        <Group gap="xs">
          {names.map((name) => (
            <Badge key={name} variant="outline" color="dark" size="lg">
              {name}
            </Badge>
          ))}
        </Group>
      )}
    </Section>
  );
}

function Sessions({ sessions }: { sessions: IdentitySession[] }) {
  const c = t.sessionColumns;
  return (
    <Section id="identity-sessions" title={t.sessions}>
      {sessions.length === 0 ? (
        <Text>{t.noSessions}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-labelledby="identity-sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{c.browser}</Table.Th>
                <Table.Th>{c.system}</Table.Th>
                <Table.Th>{c.signedIn}</Table.Th>
                <Table.Th>{c.lastActive}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((s, i) => (
                <Table.Tr key={i} data-testid="identity-session">
                  <Table.Td>
                    {sessionBrowser(s)}
                    {s.type === 'AUTHENTICATION_PENDING' && <Text size="xs">{t.pendingSession}</Text>}
                  </Table.Td>
                  <Table.Td>{sessionSystem(s)}</Table.Td>
                  <Table.Td>{formatDateTime(s.signedInDate)}</Table.Td>
                  <Table.Td>{formatDateTime(s.lastActiveDate)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

function TrustedDevices({ devices }: { devices: TrustedDevice[] }) {
  const c = t.deviceColumns;
  return (
    <Section id="identity-trusted-devices" title={t.trustedDevices}>
      {devices.length === 0 ? (
        <Text>{t.noTrustedDevices}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-labelledby="identity-trusted-devices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{c.browser}</Table.Th>
                <Table.Th>{c.system}</Table.Th>
                <Table.Th>{c.location}</Table.Th>
                <Table.Th>{c.lastActive}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {devices.map((d) => (
                <Table.Tr key={d.id} data-testid="identity-trusted-device">
                  <Table.Td>{deviceBrowser(d)}</Table.Td>
                  <Table.Td>{deviceSystem(d)}</Table.Td>
                  <Table.Td>{deviceLocation(d)}</Table.Td>
                  <Table.Td>{formatDateTime(d.lastActiveDate)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

const BackToSearch = () => (
  <Anchor component={Link} to={ADMIN_IDENTITIES_ROUTE} size="sm">
    {t.backToSearch}
  </Anchor>
);

export function IdentityScreen({ id }: { id: string }) {
  // Whether this is the admin's own account is the machine's input: wait for the user (the admin
  // route's guard has normally loaded it already).
  const { currentUser } = useSession();
  if (!currentUser) {
    return (
      <Stack gap="md">
        <BackToSearch />
        <Loader size="sm" role="progressbar" aria-label={t.loading} />
      </Stack>
    );
  }
  return <IdentityOf id={id} ownAccount={currentUser.id !== null && currentUser.id === id} />;
}

function IdentityOf({ id, ownAccount }: { id: string; ownAccount: boolean }) {
  const session = useSession();
  const navigate = useNavigate();
  const [snapshot, send, actorRef] = useFlowActor(identityMachine, {
    input: { id, ownAccount },
    actors: identityActors,
    // Signed out of their own account: this browser's session ended with the others on the server.
    // As the profile's sign-out: forget what the header's Sign out forgets, then sign in again
    // (section 2.2).
    onDone: () => {
      session.clear();
      void navigate(SIGN_IN_ROUTE, { replace: true });
    },
  });
  const { identity, errorMessage, signedOutTicket, signOuts, unlocks, unlockNotice, unlockError } =
    snapshot.context;
  // The machine takes an action only while viewing: every other time its buttons are disabled.
  const viewing = snapshot.matches({ ready: 'viewing' });
  const modalOpen = useSelector(
    actorRef,
    (s) => s.matches({ ready: 'confirmingSignOut' }) || s.matches({ ready: 'signingOut' }),
  );

  // The modal is mounted only while open, so Mantine has no element to give the focus back to:
  // once it closes, the notice of a sign-out takes the focus, or else the button that opened it.
  const signOutButton = useRef<HTMLButtonElement>(null);
  const signedOutNotice = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !modalOpen) (signedOutNotice.current ?? signOutButton.current)?.focus();
    wasOpen.current = modalOpen;
  }, [modalOpen]);
  // An answered unlock takes the Unlock button away (the reloaded page has no lock): its notice
  // takes the focus, as the sign-out's does, rather than leaving it on nothing.
  const unlockedNotice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (unlocks > 0) unlockedNotice.current?.focus();
  }, [unlocks]);

  /** The modal's confirm: the machine signs out; the answer is its refusal, or null once done. */
  const confirm = (ticketCode: string | null) =>
    new Promise<string | null>((resolve) => {
      send({ type: 'user.confirmSignOut', ticketCode: ticketCode ?? '' });
      const subscription = actorRef.subscribe((s) => {
        if (s.matches({ ready: 'signingOut' })) return;
        subscription.unsubscribe();
        resolve(s.matches({ ready: 'confirmingSignOut' }) ? s.context.signOutRefusal : null);
      });
    });

  return (
    <Stack gap="md">
      <BackToSearch />
      {snapshot.matches('failed') ? (
        <Stack gap="sm">
          <Alert color="red" role="alert" title={t.loadFailed}>
            {errorMessage}
          </Alert>
          <Group>
            <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
          </Group>
        </Stack>
      ) : identity === null ? (
        <Loader size="sm" role="progressbar" aria-label={t.loading} />
      ) : (
        <Stack gap="lg" aria-busy={snapshot.matches('loading')}>
          <Group justify="space-between" align="flex-start">
            <Title order={2} data-step-heading>
              {t.heading(identity.username)}
            </Title>
            <Button
              ref={signOutButton}
              color="red.9"
              variant="outline"
              onClick={() => send({ type: 'user.openSignOut' })}
              disabled={!viewing}
            >
              {t.signOutAll}
            </Button>
          </Group>
          {identity.lockedDate !== null && (
            <Alert color="orange" role="status" title={t.lockedTitle} data-testid="locked-notice">
              <Stack gap="sm" align="flex-start">
                <Text size="sm">{t.locked(formatDateTime(identity.lockedDate))}</Text>
                {ownAccount ? (
                  <Text size="sm" data-testid="own-account-unlock">
                    {t.ownAccountUnlock}
                  </Text>
                ) : (
                  <Button
                    onClick={() => send({ type: 'user.unlock' })}
                    loading={snapshot.matches({ ready: 'unlocking' })}
                    disabled={!viewing && !snapshot.matches({ ready: 'unlocking' })}
                  >
                    {t.unlock}
                  </Button>
                )}
              </Stack>
            </Alert>
          )}
          {unlockError !== null && (
            <Alert color="red" role="alert" title={t.unlockFailed}>
              {unlockError}
            </Alert>
          )}
          {unlockNotice !== null && (
            <Alert
              ref={unlockedNotice}
              tabIndex={-1}
              color="green"
              role="status"
              data-testid="unlocked-notice"
            >
              {unlockNotice === 'unlocked'
                ? t.unlocked(identity.username)
                : t.alreadyUnlocked(identity.username)}
            </Alert>
          )}
          {signedOutTicket !== null && (
            <Alert
              ref={signedOutNotice}
              tabIndex={-1}
              color="green"
              role="status"
              data-testid="signed-out-notice"
            >
              {t.signedOut(identity.username, signedOutTicket)}
            </Alert>
          )}
          <Details identity={identity} />
          <Factors identity={identity} />
          <Sessions sessions={identity.sessions} />
          <TrustedDevices devices={identity.trustedDevices} />
          <Section id="identity-history" title={t.history}>
            {/* A sign-out or an unlock adds an item: the history starts again from its first page. */}
            <HistoryTab
              key={`${signOuts}:${unlocks}`}
              id={id}
              kind="history"
              actors={identityHistoryActors}
            />
          </Section>
          {/* Mounted while open: each opening starts with an empty ticket field. */}
          {modalOpen && (
            <SignOutAllDevicesModal
              opened
              onClose={() => send({ type: 'user.cancel' })}
              otherName={ownAccount ? null : identity.name}
              apps={identity.accessibleApps}
              ticket="mandatory"
              onConfirm={confirm}
            />
          )}
        </Stack>
      )}
    </Stack>
  );
}
