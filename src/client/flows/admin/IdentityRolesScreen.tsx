// /admin/roles: section 3's roles lists from GET admin/roles, samAdmin and the access-request user
// role, each option with its value; READ_ONLY and VIEW_ACCESS_REQUESTS are shown disabled.
import '@mantine/core/styles/Table.css';
import { Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import type { Option } from '../../../contract/admin';
import { identityRolesMachine } from '../../../../machines/admin/identity-roles/identity-roles.machine';
import { useFlowActor } from '../shared/use-flow-actor';
import { identityRolesActors } from './identities.actors';
import { identityTexts } from './identities.texts';

const t = identityTexts.roles;

function RoleList({ label, options, testId }: { label: string; options: Option[]; testId: string }) {
  return (
    <Stack gap="xs" component="section" aria-label={label} style={{ flex: 1, minWidth: 'min(280px, 100%)' }}>
      <Title order={3}>{label}</Title>
      <Table withTableBorder data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.role}</Table.Th>
            <Table.Th>{t.availability}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {options.map((option) => (
            <Table.Tr
              key={option.value}
              aria-disabled={option.disabled || undefined}
              data-testid="role-option"
            >
              <Table.Td>{option.value}</Table.Td>
              <Table.Td>{option.disabled ? t.disabled : t.assignable}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export function IdentityRolesScreen() {
  const [snapshot, send] = useFlowActor(identityRolesMachine, {
    input: undefined,
    actors: identityRolesActors,
  });
  const { roles, errorMessage } = snapshot.context;
  return (
    <Stack gap="md">
      <Title order={2} data-step-heading>
        {t.heading}
      </Title>
      <Text>{t.explanation}</Text>
      {snapshot.matches('failed') ? (
        <Stack gap="sm">
          <Alert color="red" role="alert" title={t.loadFailed}>
            {errorMessage}
          </Alert>
          <Group>
            <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
          </Group>
        </Stack>
      ) : roles === null ? (
        <Loader size="sm" role="progressbar" aria-label={t.loading} />
      ) : (
        <Group align="flex-start" gap="xl">
          <RoleList label={t.samAdmin} options={roles.samAdmin} testId="roles-sam-admin" />
          <RoleList
            label={t.accessRequestUser}
            options={roles.accessRequestUser}
            testId="roles-access-request-user"
          />
        </Group>
      )}
    </Stack>
  );
}
