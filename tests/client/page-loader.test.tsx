// The page loader (a route's chunk, the session, a profile form's check) is a progress bar named
// Loading: a name on a role-less element is prohibited ARIA, which axe found on /profile/change-phone
// while its check ran (tests/e2e/keyboard.e2e.test.ts).
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { PageLoader } from '../../src/client/app/shell/PageLoader';
import { shellTexts } from '../../src/client/app/texts';

describe('the page loader', () => {
  it('is a progress bar named Loading, which axe accepts', async () => {
    render(
      <MantineProvider>
        <PageLoader />
      </MantineProvider>,
    );
    expect(screen.getByRole('progressbar', { name: shellTexts.loading })).toBeInTheDocument();
    const result = await axe.run(document.body, {
      runOnly: ['aria-prohibited-attr', 'aria-progressbar-name'],
    });
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });
});
