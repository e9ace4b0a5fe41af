// A list of choices that each act at once when clicked (a facility to hand off to): buttons in a
// list named by the question above it, the busy one with a loader and the others disabled meanwhile.
import { Button, Stack, Text } from '@mantine/core';

export interface Choice {
  key: string;
  label: string;
  /** A second line, e.g. the facility's alias or code. */
  detail?: string | null;
}

export interface ChoiceListProps {
  choices: Choice[];
  /** Id of the element that asks the question (the list's accessible name). */
  labelledBy: string;
  /** The choice being acted on; every other one is disabled meanwhile. */
  busyKey: string | null;
  onChoose: (key: string) => void;
}

export function ChoiceList({ choices, labelledBy, busyKey, onChoose }: ChoiceListProps) {
  return (
    <Stack component="ul" gap="sm" aria-labelledby={labelledBy} m={0} p={0} style={{ listStyle: 'none' }}>
      {choices.map((choice) => (
        <li key={choice.key}>
          <Button
            variant="default"
            fullWidth
            size="md"
            h="auto"
            py="sm"
            justify="space-between"
            loading={busyKey === choice.key}
            disabled={busyKey !== null && busyKey !== choice.key}
            onClick={() => onChoose(choice.key)}
            styles={{ label: { flexDirection: 'column', alignItems: 'flex-start' } }}
          >
            <Text component="span" fw={600} size="md">
              {choice.label}
            </Text>
            {choice.detail && choice.detail !== choice.label && (
              <Text component="span" size="sm" c="gray.7">
                {choice.detail}
              </Text>
            )}
          </Button>
        </li>
      ))}
    </Stack>
  );
}
