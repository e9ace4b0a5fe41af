// Journeys of the handoff: IdP-initiated from the applications page, SP-initiated from the demo
// service providers (sign-in, forced facility selection, and /single-sign-on for a user already
// signed in), and the JWT posted to a framing application on an origin of its own. The demo service
// providers validate what they receive independently (signature against the IdP metadata, audience,
// recipient); the journeys read their verdict.
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, pagePerTest } from './support/browser';
import { acsVerdict as readAcsVerdict } from './support/demo-sp';
import { portalOf } from './support/portal';

const PASSWORD = 'Harbour-Lights-2026';
const { baseUrl, demoSpUrl, unregisteredDemoSpUrl } = portalOf(import.meta.url);

let page: Page;
pagePerTest((p) => {
  page = p;
});

async function signIn(where: Page | FrameLocator, username: string): Promise<void> {
  // Required fields' labels end with Mantine's ' *' marker: match the label's start.
  await where.getByLabel(/^Username/).fill(username);
  await where.getByLabel(/^Password/).fill(PASSWORD);
  await where.getByRole('button', { name: 'Sign in' }).click();
}

/** The demo service provider's verdict on what it received, and what the assertion said. */
const acsVerdict = (app: 'LOANS' | 'PAYROLL') => readAcsVerdict(page, baseUrl, app);

/** From the demo service provider's start page: its sign-in link sends an AuthnRequest. */
async function startAtServiceProvider(app: 'LOANS' | 'PAYROLL', name: string): Promise<void> {
  await page.goto(`${baseUrl}/demo-sp/${app}`);
  await page.getByRole('link', { name: `Sign in to ${name} with the portal` }).click();
}

/** axe-core on a frame's document (the framed portal). */
async function expectNoAxeViolationsIn(frame: Frame, label: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await frame.evaluate(axeSource);
  const violations = await frame.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (d: Document, o: unknown) => Promise<{ violations: { id: string }[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.map((v) => v.id);
  });
  expect(violations, `axe-core on ${label}`).toEqual([]);
}

describe('SAML handoff (IdP-initiated)', () => {
  it('C10001 clicks LOANS at F002 on the applications page; the demo SP validates the assertion', async () => {
    await page.goto(`${baseUrl}/`);
    await signIn(page, 'C10001');
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    const main = page.getByRole('main');
    // One card per facility target: LOANS twice (F001, F002), PAYROLL once.
    await expect.poll(() => main.getByRole('link').count()).toBe(3);
    await expect.poll(() => main.getByRole('link', { name: /Loans/ }).count()).toBe(2);
    await expectNoAxeViolations(page, 'applications page');

    await main.getByRole('link', { name: /Riverside Family Practice \(F002\)/ }).click();
    const received = await acsVerdict('LOANS');
    expect(received.verdict).toContain('Loans validated the response');
    expect(received.username).toBe('C10001');
    expect(received.facility).toMatch(/^F002\b/);
    expect(received.startedBy).toBe('The portal (IdP-initiated)');
  });

  it("the header's application grid hands off to PAYROLL", async () => {
    await page.goto(`${baseUrl}/`);
    await signIn(page, 'C10001');
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    // C10001's second sign-in here: the previous sign-in toast shows for 8 s and must not cover the
    // header's menus meanwhile (at the top right it did, and this click waited for it to go).
    await expect.poll(() => page.getByText('Previous sign-in', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Applications' }).click({ timeout: 4_000 });
    await page.getByRole('menuitem', { name: 'Payroll' }).click({ timeout: 4_000 });
    const received = await acsVerdict('PAYROLL');
    expect(received.verdict).toContain('Payroll validated the response');
    expect(received.username).toBe('C10001');
    expect(received.facility).toBe('None');
  });
});

describe('SAML handoff (SP-initiated)', () => {
  it('from /demo-sp/PAYROLL through sign-in back to PAYROLL, in response to its request', async () => {
    await startAtServiceProvider('PAYROLL', 'Payroll');
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.getByLabel(/^Username/).isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'sign-in page from PAYROLL');
    await signIn(page, 'C10001');
    const received = await acsVerdict('PAYROLL');
    expect(received.verdict).toContain('Payroll validated the response');
    expect(received.username).toBe('C10001');
    expect(received.startedBy).toMatch(/^Payroll \(in response to .+\)$/);
  });

  it('C10008 arriving from LOANS chooses a facility (forced select-facility) and hands off', async () => {
    await startAtServiceProvider('LOANS', 'Loans');
    await page.waitForURL(`${baseUrl}/`);
    await signIn(page, 'C10008');
    await page.waitForURL(`${baseUrl}/forced-actions/select-facility`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'Select facility' }).isVisible())
      .toBe(true);
    const list = page.getByRole('list', { name: 'Which facility would you like to continue to?' });
    await expect.poll(() => list.getByRole('button').count()).toBe(3);
    // Section 2.6: each facility with its name and alias-or-code.
    await expect
      .poll(() => list.getByRole('button', { name: /^Bayview Aged Care/ }).textContent())
      .toContain('Bayview');
    await expect
      .poll(() => list.getByRole('button', { name: /^Riverside Family Practice/ }).textContent())
      .toContain('F002');
    await expectNoAxeViolations(page, 'select-facility page');

    await list.getByRole('button', { name: /^Bayview Aged Care/ }).click();
    const received = await acsVerdict('LOANS');
    expect(received.verdict).toContain('Loans validated the response');
    expect(received.username).toBe('C10008');
    expect(received.facility).toMatch(/^F003\b/);
    expect(received.startedBy).toMatch(/^Loans \(in response to .+\)$/);
  });

  it('a user already signed in who arrives from LOANS is asked on /single-sign-on which facility', async () => {
    await page.goto(`${baseUrl}/`);
    await signIn(page, 'C10001');
    await page.waitForURL(`${baseUrl}/profile/my-applications`);

    await startAtServiceProvider('LOANS', 'Loans');
    await page.waitForURL(`${baseUrl}/single-sign-on`);
    await expect
      .poll(() =>
        page.getByRole('heading', { name: 'Which Loans Facility would you like to handoff to?' }).isVisible(),
      )
      .toBe(true);
    await expect
      .poll(() => page.getByText('You are signed in as Olivia Bennett (C10001).').isVisible())
      .toBe(true);
    await expectNoAxeViolations(page, 'single-sign-on page');

    await page.getByRole('button', { name: /^Northside Community Clinic/ }).click();
    const received = await acsVerdict('LOANS');
    expect(received.verdict).toContain('Loans validated the response');
    expect(received.username).toBe('C10001');
    expect(received.facility).toMatch(/^F001\b/);
    expect(received.startedBy).toMatch(/^Loans \(in response to .+\)$/);
  });

  it('Cancel on /single-sign-on keeps the user in the portal', async () => {
    await page.goto(`${baseUrl}/`);
    await signIn(page, 'C10001');
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    await startAtServiceProvider('PAYROLL', 'Payroll');
    await page.waitForURL(`${baseUrl}/single-sign-on`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${baseUrl}/profile/my-applications`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'Applications' }).isVisible())
      .toBe(true);
  });
});

describe('JWT to a parent frame (TREASURY)', () => {
  it('framed sign-in delivers a token the application verifies against the JWKS', async () => {
    await page.goto(`${demoSpUrl}/demo-sp/TREASURY`);
    const portal = page.frameLocator('#portal-frame');
    await expect.poll(() => portal.getByLabel(/^Username/).isVisible()).toBe(true);
    const frame = page.frames().find((f) => f.url().startsWith(baseUrl));
    expect(frame, 'the portal in the frame').toBeDefined();
    await expectNoAxeViolationsIn(frame as Frame, 'framed sign-in page');

    await signIn(portal, 'admin1');
    const status = page.locator('#status');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('verified');
    expect(await status.textContent()).toBe('Token verified: signed by the portal for Treasury.');
    expect(await page.locator('#claim-username').textContent()).toBe('admin1');
    expect(await page.locator('#claim-aud').textContent()).toBe('TREASURY');
    expect(await page.locator('#claim-iss').textContent()).toBe(baseUrl);
    // Only the portal's exact origin spoke to the page.
    expect(await page.locator('#ignored-messages li').count()).toBe(0);
  });

  it('an origin that is not registered gets no portal in its frame and no token', async () => {
    await page.goto(`${unregisteredDemoSpUrl}/demo-sp/TREASURY`);
    // The portal refuses to be framed there (frame-ancestors lists the registered origin only).
    await page.waitForTimeout(3_000);
    expect(
      await page
        .frameLocator('#portal-frame')
        .getByLabel(/^Username/)
        .count(),
    ).toBe(0);
    expect(await page.locator('#status').getAttribute('data-state')).toBe('waiting');
    expect(await page.locator('#claims').isHidden()).toBe(true);
  });
});

describe('single sign-on error page', () => {
  it('names the application that asked when the user has no access to it, also after a reload', async () => {
    // admin1's applications are PAYROLL and TREASURY: from LOANS, sign-in ends on the error page.
    await startAtServiceProvider('LOANS', 'Loans');
    await page.waitForURL(`${baseUrl}/`);
    await signIn(page, 'admin1');
    await page.waitForURL(`${baseUrl}/single-sign-on-error`);
    const heading = page.getByRole('heading', { level: 1, name: 'Single sign on error' });
    await expect.poll(() => heading.isVisible()).toBe(true);
    await expect.poll(() => page.getByText('You do not have access to Loans.').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'single-sign-on error page');

    await page.reload();
    await expect.poll(() => page.getByText('You do not have access to Loans.').isVisible()).toBe(true);
  });
});
