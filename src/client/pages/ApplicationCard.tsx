// One accessible application on the applications page: app name and facility. A left click hands
// off (onHandoff); a middle click or ctrl/meta click opens it in a new window.
import { Card, Group, Loader, Text, Title } from '@mantine/core';
import type { HandoffTarget } from '../../contract/entities';
import { handoffClickHandlers, type HandoffHandler } from '../app/handoff';
import { facilityLabel } from './applications.texts';

export interface ApplicationCardProps {
  target: HandoffTarget;
  onHandoff: HandoffHandler;
  /** The handoff to this card's target is under way. */
  busy?: boolean;
}

export function ApplicationCard({ target, onHandoff, busy = false }: ApplicationCardProps) {
  const facility = facilityLabel(target);
  return (
    <Card
      component="a"
      withBorder
      padding="lg"
      radius="md"
      className="portal-card-link"
      aria-busy={busy || undefined}
      {...handoffClickHandlers(target, onHandoff)}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Title order={2} size="h4">
          {target.appName}
        </Title>
        {busy && <Loader size="sm" aria-hidden="true" />}
      </Group>
      {facility && (
        <Text size="sm" c="gray.7" mt={4}>
          {facility}
        </Text>
      )}
    </Card>
  );
}
