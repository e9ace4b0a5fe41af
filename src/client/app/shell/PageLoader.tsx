import { Center, Loader } from '@mantine/core';
import { shellTexts } from '../texts';

/** Shown while a route's chunk or the session loads. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader aria-label={shellTexts.loading} />
    </Center>
  );
}
