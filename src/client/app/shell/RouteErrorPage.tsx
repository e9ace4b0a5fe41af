// The route error element: a page chunk that failed to load even after the one reload (or a bug).
import { Button, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router-dom';
import { shellTexts } from '../texts';

export function RouteErrorPage() {
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  return (
    <Stack gap="md" align="flex-start">
      <Title order={1}>{shellTexts.pageLoadFailedTitle}</Title>
      <Text>{shellTexts.pageLoadFailed}</Text>
      <Button onClick={() => window.location.reload()}>{shellTexts.reloadPage}</Button>
    </Stack>
  );
}
