// /admin/apps: every app with its settings in the constant option texts of section 3 (facility
// handoff, access-request handling) and its facilities.
import '@mantine/core/styles/Table.css';
import { Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { appsMachine } from '../../../../machines/admin/apps/apps.machine';
import { useFlowActor } from '../shared/use-flow-actor';
import { createInvitationActors } from './admin.actors';
import { adminTexts } from './admin.texts';

const t = adminTexts.apps;

/**
 * The vertical table's value cells break a long unbroken value (an email address, a code) anywhere
 * rather than widening the page, and its header column takes 40% of the table below the xs
 * breakpoint instead of its 220 px: at 320 CSS px (WCAG 1.4.10).
 */
const valueCellStyle = { overflowWrap: 'anywhere' } as const;
const headerCellWidth = { base: '40%', xs: 220 };

export function AppsScreen() {
  const [snapshot, send] = useFlowActor(appsMachine, {
    input: undefined,
    actors: { loadApps: createInvitationActors.loadApps },
  });
  const { apps, errorMessage } = snapshot.context;
  return (
    <Stack gap="md">
      <Title order={2} data-step-heading>
        {t.heading}
      </Title>
      {snapshot.matches('loading') ? (
        <Loader size="sm" role="progressbar" aria-label={adminTexts.invitations.loading} />
      ) : snapshot.matches('failed') ? (
        <Stack gap="sm">
          <Alert color="red" role="alert" title={t.loadFailed}>
            {errorMessage}
          </Alert>
          <Group>
            <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
          </Group>
        </Stack>
      ) : (
        apps.map((app) => (
          <Stack key={app.code} gap="xs" component="section" aria-label={app.name} data-testid="admin-app">
            <Title order={3}>{`${app.name} (${app.code})`}</Title>
            <Table variant="vertical" withTableBorder>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={headerCellWidth}>{t.contextType}</Table.Th>
                  <Table.Td style={valueCellStyle}>{app.contextType}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t.facilityHandoff}</Table.Th>
                  <Table.Td style={valueCellStyle}>{adminTexts.create.handoff[app.facilityHandoff]}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t.accessRequestHandling}</Table.Th>
                  <Table.Td style={valueCellStyle}>
                    {adminTexts.create.handling[app.accessRequestHandling]}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t.facilities}</Table.Th>
                  <Table.Td style={valueCellStyle}>
                    {app.facilities.length === 0 ? (
                      <Text size="sm">{t.noFacilities}</Text>
                    ) : (
                      app.facilities.map((f) => (
                        <Text key={f.code} size="sm">
                          {`${f.name} (${f.code}${f.alias ? `, ${f.alias}` : ''})`}
                        </Text>
                      ))
                    )}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Stack>
        ))
      )}
    </Stack>
  );
}
