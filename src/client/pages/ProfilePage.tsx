// /profile, read only for now (section 2.3): the personal details of the current user. The MFA and
// trusted-device tables and the editing screens arrive with the profile issue.
import '@mantine/core/styles/DataList.css';
import { DataList, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, type ReactNode } from 'react';
import type { CurrentUser } from '../../contract/entities';
import { formatIsoDate } from '../app/format';
import { PageLoader } from '../app/shell/PageLoader';
import { useServices } from '../app/services';
import { useSession } from '../app/session/use-session';
import { useAsync } from '../app/use-async';
import { shellTexts } from '../app/texts';
import { profileTexts as t } from './profile.texts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>{children}</DataList.ItemValue>
    </DataList.Item>
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
        <Row label={t.name}>{orNotProvided(user.name)}</Row>
        <Row label={t.email}>{orNotProvided(user.email)}</Row>
        <Row label={t.mobile}>{orNotProvided(user.mobile)}</Row>
        <Row label={t.phone}>{orNotProvided(user.phone)}</Row>
        <Row label={t.dateOfBirth}>{user.birthDate ? formatIsoDate(user.birthDate) : t.notProvided}</Row>
        {user.isStaff && <SalaryNumber />}
        <Row label={t.password}>
          <Text span aria-hidden="true">
            {t.maskedPassword}
          </Text>
          <VisuallyHidden>{t.passwordHidden}</VisuallyHidden>
        </Row>
      </DataList>
    </Paper>
  );
}

export default function ProfilePage() {
  const { currentUser } = useSession();
  return (
    <Stack gap="lg">
      <Title order={1}>{t.heading}</Title>
      {currentUser ? <PersonalDetails user={currentUser} /> : <PageLoader />}
    </Stack>
  );
}
