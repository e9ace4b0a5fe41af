// One accessible application on the applications page: app name and facility. A left click hands
// off (onHandoff); a middle click or ctrl/meta click opens it in a new window.
import { Card, Text, Title } from '@mantine/core';
import type { HandoffTarget } from '../../contract/entities';
import { handoffClickHandlers, type HandoffHandler } from '../app/handoff';
import { facilityLabel } from './applications.texts';

export interface ApplicationCardProps {
  target: HandoffTarget;
  onHandoff: HandoffHandler;
}

export function ApplicationCard({ target, onHandoff }: ApplicationCardProps) {
  const facility = facilityLabel(target);
  return (
    <Card
      component="a"
      withBorder
      padding="lg"
      radius="md"
      className="portal-card-link"
      {...handoffClickHandlers(target, onHandoff)}
    >
      <Title order={2} size="h4">
        {target.appName}
      </Title>
      {facility && (
        <Text size="sm" c="gray.7" mt={4}>
          {facility}
        </Text>
      )}
    </Card>
  );
}
