// The frame of the status pages: one h1, the explanation, and a back button where it helps.
import { Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { BackButton } from '../app/shell/BackButton';

export interface StatusPageProps {
  heading: string;
  children: ReactNode;
  /** Route the back button falls back to; no back button without it. */
  backFallback?: string;
}

export function StatusPage({ heading, children, backFallback }: StatusPageProps) {
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{heading}</Title>
      {children}
      {backFallback && (
        <Group>
          <BackButton fallback={backFallback} />
        </Group>
      )}
    </Stack>
  );
}
