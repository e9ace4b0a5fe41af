// What the demo service provider's ACS page shows once the portal's handoff arrived there.
import type { Page } from 'playwright-core';

export interface AcsVerdict {
  verdict: string;
  username: string;
  facility: string;
  startedBy: string;
}

/** Waits for the app's ACS page on the portal's server and reads its verdict and claims. */
export async function acsVerdict(page: Page, baseUrl: string, app: 'LOANS' | 'PAYROLL'): Promise<AcsVerdict> {
  await page.waitForURL(`${baseUrl}/demo-sp/${app}/acs`);
  const text = async (id: string) => ((await page.locator(`#${id}`).textContent()) ?? '').trim();
  return {
    verdict: await text('verdict'),
    username: await text('username'),
    facility: await text('facility'),
    startedBy: await text('started-by'),
  };
}
