import { Center, Loader } from '@mantine/core';
import { shellTexts } from '../texts';

/** Shown while a route's chunk or the session loads: a progress bar named Loading. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader role="progressbar" aria-label={shellTexts.loading} />
    </Center>
  );
}
