// The frame of a profile wizard's step: the wizard's heading, its progress (50 then 100, section
// 2.3), and the failure view with the way back to /profile.
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { StepProgress } from '../forced/shared/StepProgress';
import { profileFormTexts, wizardTexts as t } from './profile.texts';

export function WizardFrame({
  heading,
  progress,
  children,
}: {
  heading: string;
  progress: number;
  children: ReactNode;
}) {
  return (
    <Container size={520} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{heading}</Title>
        <Stack gap={4}>
          <Text component="h2" size="sm" c="dimmed" data-step-heading>
            {progress === 50 ? t.stepDetails : t.stepVerification}
          </Text>
          <StepProgress value={progress} label={t.progress} />
        </Stack>
        {children}
      </Stack>
    </Container>
  );
}

/**
 * A profile screen's failure (its wizards' and its single-step forms'): the alert takes the focus
 * when it appears, as ForcedStepFailed's heading does, so that the keyboard user is not left on the
 * page when the form they were in goes (WCAG 2.4.3).
 */
export function WizardFailed({ message, onBack }: { message: string | null; onBack: () => void }) {
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => alert.current?.focus(), []);
  return (
    <Stack gap="md">
      <Alert color="red" role="alert" title={profileFormTexts.failedHeading} ref={alert} tabIndex={-1}>
        {message}
      </Alert>
      <Group>
        <Button variant="default" onClick={onBack}>
          {t.back}
        </Button>
      </Group>
    </Stack>
  );
}
