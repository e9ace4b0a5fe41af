// /profile (section 2.3): personal details with the links to change them, the MFA table from
// profile/enrolled-factors with the actions that fit each factor, the trusted-device table (delete
// one, clear all; the period text), and 'Sign out of all devices'. An SMS 503 from a profile wizard
// arrives as navigation state and is shown here (section 8).
import '@mantine/core/styles/DataList.css';
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Anchor,
  Button,
  DataList,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PROFILE_ROUTES, SIGN_IN_ROUTE } from '../../../machines/routes';
import type { CurrentUser, FactorType, HandoffTarget } from '../../contract/entities';
import type { TrustedDevice } from '../../contract/profile';
import { formatDateTime, formatIsoDate } from '../app/format';
import { announce } from '../app/notices';
import { PageLoader } from '../app/shell/PageLoader';
import { useServices } from '../app/services';
import { useSession } from '../app/session/use-session';
import { useAsync } from '../app/use-async';
import { shellTexts } from '../app/texts';
import type { ProfileNavigationState } from '../flows/profile/profile-output';
import { useProfileCalls } from '../flows/profile/profile-calls-context';
import { profileToasts } from '../flows/profile/profile.texts';
import { SignOutAllDevicesModal } from '../flows/profile/SignOutAllDevicesModal';
import { profileTexts as t } from './profile.texts';

function Row({ label, children, action }: { label: string; children: ReactNode; action?: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>{children}</DataList.ItemValue>
      {/* A second dd: the value's own dd holds the value only. */}
      {action && (
        <DataList.ItemValue>
          <Group gap="sm" mb="xs">
            {action}
          </Group>
        </DataList.ItemValue>
      )}
    </DataList.Item>
  );
}

function EditLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      {label}
    </Anchor>
  );
}

const orNotProvided = (value: string | null) => value || t.notProvided;

function SalaryNumber() {
  const services = useServices();
  const load = useCallback((signal: AbortSignal) => services.getSalaryNumber({ signal }), [services]);
  const salary = useAsync(load);
  return (
    <Row label={t.salaryNumber}>
      {salary.status === 'loading'
        ? shellTexts.loading
        : salary.status === 'done'
          ? orNotProvided(salary.value)
          : t.notProvided}
    </Row>
  );
}

function PersonalDetails({ user }: { user: CurrentUser }) {
  return (
    <Paper component="section" withBorder p="lg" aria-labelledby="personal-details-heading">
      <Title order={2} size="h3" id="personal-details-heading" mb="md">
        {t.personalDetails}
      </Title>
      <DataList labelWidth="10rem">
        <Row label={t.username}>{orNotProvided(user.username)}</Row>
        <Row label={t.name} action={<EditLink to={PROFILE_ROUTES.CHANGE_NAME} label={t.edit(t.name)} />}>
          {orNotProvided(user.name)}
        </Row>
        <Row label={t.email} action={<EditLink to={PROFILE_ROUTES.CHANGE_EMAIL} label={t.edit(t.email)} />}>
          {orNotProvided(user.email)}
        </Row>
        <Row
          label={t.mobile}
          action={
            <>
              <EditLink to={PROFILE_ROUTES.CHANGE_MOBILE} label={t.edit(t.mobile)} />
              {user.mobile && <EditLink to={PROFILE_ROUTES.REMOVE_MOBILE} label={t.removeMobile} />}
            </>
          }
        >
          {orNotProvided(user.mobile)}
        </Row>
        <Row label={t.phone} action={<EditLink to={PROFILE_ROUTES.CHANGE_PHONE} label={t.edit(t.phone)} />}>
          {orNotProvided(user.phone)}
        </Row>
        <Row
          label={t.dateOfBirth}
          action={<EditLink to={PROFILE_ROUTES.CHANGE_DATE_OF_BIRTH} label={t.edit(t.dateOfBirth)} />}
        >
          {user.birthDate ? formatIsoDate(user.birthDate) : t.notProvided}
        </Row>
        {user.isStaff && <SalaryNumber />}
        <Row
          label={t.password}
          action={<EditLink to={PROFILE_ROUTES.CHANGE_PASSWORD} label={t.edit(t.password)} />}
        >
          <Text span aria-hidden="true">
            {t.maskedPassword}
          </Text>
          <VisuallyHidden>{t.passwordHidden}</VisuallyHidden>
        </Row>
        <Row
          label={t.securityQuestions}
          action={
            <EditLink to={PROFILE_ROUTES.CHANGE_SECURITY_QUESTIONS} label={t.edit(t.securityQuestions)} />
          }
        >
          <Text span aria-hidden="true">
            {t.maskedPassword}
          </Text>
          <VisuallyHidden>{t.passwordHidden}</VisuallyHidden>
        </Row>
      </DataList>
    </Paper>
  );
}

const FACTORS: readonly FactorType[] = ['AUTHENTICATOR_APP', 'SMS', 'EMAIL'];

function factorActions(factor: FactorType, enabled: boolean): ReactNode {
  const name = t.factorNames[factor];
  switch (factor) {
    case 'AUTHENTICATOR_APP':
      return enabled ? (
        <>
          <EditLink
            to={PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP}
            label={`${t.changeApp} ${name.toLowerCase()}`}
          />
          <EditLink
            to={PROFILE_ROUTES.UNENROL_AUTHENTICATOR_APP}
            label={`${t.disable} ${name.toLowerCase()}`}
          />
        </>
      ) : (
        <EditLink to={PROFILE_ROUTES.ENROL_AUTHENTICATOR_APP} label={`${t.enable} ${name.toLowerCase()}`} />
      );
    case 'SMS':
      return enabled ? (
        <EditLink to={PROFILE_ROUTES.UNENROL_SMS} label={`${t.disable} ${name}`} />
      ) : (
        <EditLink to={PROFILE_ROUTES.ENROL_SMS} label={`${t.enable} ${name}`} />
      );
    case 'EMAIL':
      return enabled ? <Text size="sm">{t.emailFactorNote}</Text> : null;
  }
}

function MfaTable({ factors }: { factors: readonly string[] }) {
  return (
    <Paper component="section" withBorder p="lg" aria-labelledby="mfa-heading">
      <Title order={2} size="h3" id="mfa-heading" mb="md">
        {t.mfa}
      </Title>
      {/* Scrolled inside its box at narrow widths rather than widening the page (WCAG 1.4.10). */}
      <Table.ScrollContainer minWidth={480}>
        <Table aria-labelledby="mfa-heading">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.factor}</Table.Th>
              <Table.Th>{t.status}</Table.Th>
              <Table.Th>{t.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {FACTORS.map((factor) => {
              const enabled = factors.includes(factor);
              return (
                <Table.Tr key={factor}>
                  <Table.Td>{t.factorNames[factor]}</Table.Td>
                  <Table.Td>{enabled ? t.enabled : t.notEnabled}</Table.Td>
                  <Table.Td>
                    <Group gap="sm">{factorActions(factor, enabled)}</Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

const joined = (...parts: Array<string | null>) => parts.filter((p) => p).join(' ') || t.unknown;

export const deviceBrowser = (d: TrustedDevice) =>
  joined(
    d.browser.family,
    d.browser.versionMajor
      ? `${d.browser.versionMajor}${d.browser.versionMinor ? `.${d.browser.versionMinor}` : ''}`
      : null,
  );
const deviceOs = (d: TrustedDevice) => joined(d.operatingSystem.family, d.operatingSystem.version);
const deviceLocation = (d: TrustedDevice) =>
  [d.city, d.country, d.continent].filter((p) => p).join(', ') || t.unknown;

/**
 * The trusted-device calls as this page makes them: with the page's signal, so that leaving /profile
 * cancels them (the api layer then neither navigates nor reports).
 */
interface TrustedDeviceCalls {
  deleteTrustedDevice: (id: string, signal: AbortSignal) => Promise<unknown>;
  clearTrustedDevices: (signal: AbortSignal) => Promise<unknown>;
}

/** A rejected call as this page reads it: the api layer's error (views do not import the api). */
interface CallFailure {
  /** Section 8's global handling has acted (gone to /error, /not-found, sign-in...). */
  handled?: unknown;
  body?: { message?: unknown; errors?: unknown };
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * What to tell about a failed change: the server's message and field errors for an answer left to
 * the page (section 8: a 422 without reroute, a 429), or null when section 8 has acted already.
 */
function changeFailure(error: unknown): string[] | null {
  const failure: CallFailure = typeof error === 'object' && error !== null ? error : {};
  if (failure.handled === true) return null;
  const fieldErrors: unknown[] = Array.isArray(failure.body?.errors) ? failure.body.errors : [];
  const messages = [
    failure.body?.message,
    ...fieldErrors.map((e) =>
      typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : null,
    ),
  ].filter(isText);
  return messages.length ? [...new Set(messages)] : [t.changeFailed];
}

function TrustedDevices({
  devices,
  period,
  onChanged,
  takeFocus,
}: {
  devices: TrustedDevice[];
  period: number;
  onChanged: () => void;
  /** Drawn again after a change: the button used went with the old table. */
  takeFocus: boolean;
}) {
  const profileCalls: TrustedDeviceCalls = useProfileCalls();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string[] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const failureAlert = useRef<HTMLDivElement>(null);
  const running = useRef<AbortController | null>(null);
  // Leaving the page cancels the call under way.
  useEffect(() => () => running.current?.abort(), []);
  // The focus, lost with the button that was used, goes to the section's heading (WCAG 2.4.3), and
  // not back to the page's top (where the shell puts a focus lost soon after arriving).
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, [takeFocus]);
  // A refusal: the button used was disabled while it ran; the focus goes to the message.
  useEffect(() => {
    if (failure) failureAlert.current?.focus();
  }, [failure]);
  const run = async (key: string, call: (signal: AbortSignal) => Promise<unknown>, toast: string) => {
    const controller = new AbortController();
    running.current = controller;
    setBusy(key);
    setFailure(null);
    try {
      await call(controller.signal);
      if (controller.signal.aborted) return;
      announce({ message: toast, tone: 'success' });
      onChanged();
    } catch (error) {
      if (!controller.signal.aborted) setFailure(changeFailure(error));
    } finally {
      if (running.current === controller) running.current = null;
      if (!controller.signal.aborted) setBusy(null);
    }
  };
  return (
    <Paper component="section" withBorder p="lg" aria-labelledby="trusted-devices-heading">
      <Title order={2} size="h3" id="trusted-devices-heading" mb="md" ref={heading} tabIndex={-1}>
        {t.trustedDevices}
      </Title>
      <Stack gap="md">
        <Text>{t.trustedIntro(t.period(period))}</Text>
        {failure && (
          <Alert color="red" role="alert" title={t.trustedDevicesNotChanged} ref={failureAlert} tabIndex={-1}>
            {failure.map((message) => (
              <Text key={message} size="sm">
                {message}
              </Text>
            ))}
          </Alert>
        )}
        {devices.length === 0 ? (
          <Text>{t.noTrustedDevices}</Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table aria-labelledby="trusted-devices-heading">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.browser}</Table.Th>
                    <Table.Th>{t.operatingSystem}</Table.Th>
                    <Table.Th>{t.location}</Table.Th>
                    <Table.Th>{t.lastActive}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t.actions}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {devices.map((device) => (
                    <Table.Tr key={device.id}>
                      <Table.Td>{deviceBrowser(device)}</Table.Td>
                      <Table.Td>{deviceOs(device)}</Table.Td>
                      <Table.Td>{deviceLocation(device)}</Table.Td>
                      <Table.Td>{formatDateTime(device.lastActiveDate)}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="default"
                          loading={busy === device.id}
                          disabled={busy !== null}
                          aria-label={t.deleteDeviceLabel(`${deviceBrowser(device)}, ${deviceOs(device)}`)}
                          onClick={() =>
                            void run(
                              device.id,
                              (signal) => profileCalls.deleteTrustedDevice(device.id, signal),
                              profileToasts.deletedTrustedDevice,
                            )
                          }
                        >
                          {t.deleteDevice}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Group>
              <Button
                variant="default"
                loading={busy === 'all'}
                disabled={busy !== null}
                onClick={() =>
                  void run(
                    'all',
                    (signal) => profileCalls.clearTrustedDevices(signal),
                    profileToasts.clearedTrustedDevices,
                  )
                }
              >
                {t.clearAll}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function SignOutAllDevices() {
  const profileCalls = useProfileCalls();
  const session = useSession();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [apps, setApps] = useState<HandoffTarget[] | null | 'unavailable'>(null);
  const appsLoad = useRef<AbortController | null>(null);
  // Leaving the page (or closing the modal) cancels the list's load: a late answer changes nothing.
  useEffect(() => () => appsLoad.current?.abort(), []);
  const open = () => {
    setOpened(true);
    setApps(null);
    appsLoad.current?.abort();
    const controller = new AbortController();
    appsLoad.current = controller;
    // A failed load is not 'no applications': the modal says the list is missing, and signing out
    // is still offered.
    profileCalls.accessibleApps(controller.signal).then(
      (list) => {
        if (!controller.signal.aborted) setApps(list);
      },
      () => {
        if (!controller.signal.aborted) setApps('unavailable');
      },
    );
  };
  const close = () => {
    setOpened(false);
    appsLoad.current?.abort();
  };
  return (
    <>
      <Group>
        <Button color="red.9" variant="outline" onClick={open}>
          {t.signOutAll}
        </Button>
      </Group>
      <SignOutAllDevicesModal
        opened={opened}
        onClose={close}
        otherName={null}
        apps={apps}
        ticket="hidden"
        onConfirm={async (ticketCode) => {
          const refusal = await profileCalls.signOutOfAllDevices(ticketCode);
          if (refusal === null) {
            // This browser's session ended with the others on the server. Here, forget what the
            // header's Sign out forgets, with the same function (section 4.1: the user, the target
            // paths, the context and the single sign-on app), then sign in again (section 2.2).
            setOpened(false);
            session.clear();
            void navigate(SIGN_IN_ROUTE, { replace: true });
          }
          return refusal;
        }}
      />
    </>
  );
}

function ProfileFacts({ onChanged, changed }: { onChanged: () => void; changed: boolean }) {
  const profileCalls = useProfileCalls();
  const load = useCallback((signal: AbortSignal) => profileCalls.loadFacts(signal), [profileCalls]);
  const facts = useAsync(load);
  if (facts.status === 'loading') return <PageLoader />;
  if (facts.status === 'failed') {
    return (
      <Alert color="red" role="alert">
        {t.loadFailed}
      </Alert>
    );
  }
  return (
    <>
      <MfaTable factors={facts.value.factors} />
      <TrustedDevices
        devices={facts.value.devices}
        period={facts.value.period}
        onChanged={onChanged}
        takeFocus={changed}
      />
    </>
  );
}

export default function ProfilePage() {
  const { currentUser } = useSession();
  const location = useLocation();
  const [reload, setReload] = useState(0);
  const smsUnavailable = (location.state as ProfileNavigationState | null)?.smsUnavailableMessage;
  return (
    <Stack gap="lg">
      <Title order={1}>{t.heading}</Title>
      {smsUnavailable && (
        <Alert color="orange" role="alert">
          {smsUnavailable}
        </Alert>
      )}
      {currentUser ? <PersonalDetails user={currentUser} /> : <PageLoader />}
      {/* Loaded again (a new key) after a trusted-device change. */}
      <ProfileFacts key={reload} changed={reload > 0} onChanged={() => setReload((n) => n + 1)} />
      <SignOutAllDevices />
    </Stack>
  );
}
