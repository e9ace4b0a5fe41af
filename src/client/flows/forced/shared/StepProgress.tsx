// A wizard step's progress (section 2.6's values), as a bar and as a percentage with two decimals.
import '@mantine/core/styles/Progress.css';
import { Group, Progress, Text } from '@mantine/core';
import { forcedTexts as t } from './forced.texts';

export function StepProgress({ value, label = t.progress }: { value: number; label?: string }) {
  return (
    <Group gap="sm" wrap="nowrap" align="center">
      <Progress value={value} aria-label={label} style={{ flex: 1 }} />
      <Text size="sm" c="dimmed" aria-hidden="true" data-testid="step-progress">
        {t.percent(value)}
      </Text>
    </Group>
  );
}
