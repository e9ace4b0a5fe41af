// A keyboard-only user for the browser suite's keyboard journeys (WCAG 2.1.1): Tab, Shift+Tab,
// Enter, Space, the arrow keys and typing into the focused field; nothing is clicked or filled.
// Also what the journeys assert after each step: the focus on the new page's heading or wizard
// step's title (WCAG 2.4.3), and errors in a live region and on their field (WCAG 3.3.1, 4.1.3).
import type { Frame, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoAxeViolations } from './browser';
import { DEMO_PASSWORD } from './reset';

/** Whether `target` is its document's focused element. */
export const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement, undefined, { timeout: 1_000 }).catch(() => false);

/**
 * axe-core on the portal inside a framing application's page: the checker only evaluates script in
 * the document it is given, which a frame does as a page does.
 */
export const expectNoAxeViolationsIn = (frame: Frame, label: string) =>
  expectNoAxeViolations(frame as unknown as Page, label);

const LIVE = '[role="alert"], [role="status"], [aria-live="polite"], [aria-live="assertive"]';

/** Marks an alert already on the page (see markAlertsShown). */
const SHOWN = 'data-e2e-shown';

/**
 * Marks the alerts on the page now, so that `newAlert` tells a later one from them. A form that
 * drops its refusal on submit and draws the next one anew (the sign-in form) shows each refusal
 * in a new element: the last refusal's alert, still standing, is not taken for the next one.
 */
export const markAlertsShown = (scope: Page | Frame) =>
  scope.locator('[role="alert"]').evaluateAll((alerts, shown) => {
    for (const alert of alerts) alert.setAttribute(shown, '');
  }, SHOWN);

/** Alerts with `text` drawn since the last markAlertsShown. */
export const newAlert = (scope: Page | Frame, text: string | RegExp) =>
  scope.locator(`[role="alert"]:not([${SHOWN}])`).filter({ hasText: text });

/** Longer than Mantine's modal exit transition (200 ms), through which a closing modal still shows. */
const PAST_MODAL_EXIT_MS = 500;

/**
 * Escape does not dismiss `dialog`: once a modal it closed would have finished its exit transition,
 * the dialog still shows and the focus is still inside it.
 */
export async function expectEscapeKeepsDialog(page: Page, dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await page.waitForTimeout(PAST_MODAL_EXIT_MS);
  expect(await dialog.isVisible(), 'the dialog is still open after Escape').toBe(true);
  expect(
    await dialog.evaluate((el) => el.contains(document.activeElement)),
    'the focus is still in the dialog after Escape',
  ).toBe(true);
}

export interface KeyboardUserOptions {
  /** The journey's current page (journeys open a new one per test). */
  page: () => Page;
  /** Where the portal is: the page itself, or the frame a framing application shows it in. */
  scope?: () => Page | Frame;
  /** The portal's address, for signIn. */
  baseUrl: string;
}

/** The keyboard helpers bound to a journey's page (and, when framed, to the portal's frame). */
export function keyboardUser({ page, scope = page, baseUrl }: KeyboardUserOptions) {
  const keyboard = () => page().keyboard;

  async function expectFocusOn(target: Locator): Promise<void> {
    await expect
      .poll(() => isFocused(target), { timeout: 15_000, message: `focus on ${target.toString()}` })
      .toBe(true);
  }

  /**
   * Presses Tab (or Shift+Tab) until `target` has the focus. Waits for it first, for as long as a
   * page can take to come on a machine two journeys (and their servers) share.
   */
  async function tabTo(target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
    await target.waitFor({ timeout: 30_000 });
    for (let presses = 0; presses <= 60; presses += 1) {
      if (await isFocused(target)) return;
      await keyboard().press(key);
    }
    const active = await scope().evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
    throw new Error(`${key} never reached ${target.toString()}; the focus is on ${active}`);
  }

  /** Presses an arrow key (in a menu, a radio group) until `target` has the focus. */
  async function arrowTo(target: Locator, key: 'ArrowDown' | 'ArrowUp' = 'ArrowDown'): Promise<void> {
    await target.waitFor({ timeout: 15_000 });
    for (let presses = 0; presses < 10 && !(await isFocused(target)); presses += 1) {
      await keyboard().press(key);
    }
    await expectFocusOn(target);
  }

  /** Tabs to a field and types into it (what was there is replaced). */
  async function typeInto(field: Locator, text: string): Promise<void> {
    await tabTo(field);
    await keyboard().press('ControlOrMeta+A');
    await keyboard().type(text);
  }

  /**
   * Chooses a radio button as a keyboard user does: Tab into its group (the focus lands on the
   * checked radio, or on the first when none is), then the arrow keys, which move and check.
   */
  async function chooseRadio(target: Locator): Promise<void> {
    await target.waitFor({ timeout: 15_000 });
    const inGroup = () =>
      scope()
        .getByRole('radio')
        .evaluateAll((radios) => radios.some((radio) => radio === document.activeElement));
    for (let presses = 0; presses <= 60 && !(await inGroup()); presses += 1) await keyboard().press('Tab');
    await arrowTo(target);
    await keyboard().press('Space');
    await expect.poll(() => target.isChecked()).toBe(true);
  }

  /**
   * Chooses an option of a native select as a keyboard user does: Tab to it, then the arrow keys
   * (which, on a closed select, change the choice) until the option with that text is chosen.
   */
  async function chooseOption(select: Locator, optionText: string): Promise<void> {
    await tabTo(select);
    const chosen = () => select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text ?? '');
    for (const key of ['ArrowDown', 'ArrowUp'] as const) {
      for (let presses = 0; presses < 20 && (await chosen()) !== optionText; presses += 1) {
        await keyboard().press(key);
      }
    }
    expect(await chosen()).toBe(optionText);
    await expectFocusOn(select);
  }

  /** The heading of the new page (level 1) or of the new wizard step (level 2) has the focus. */
  const expectFocusOnHeading = (name: string | RegExp, level = 1) =>
    expectFocusOn(scope().getByRole('heading', { level, name, exact: typeof name === 'string' }));

  /**
   * The message is announced: it is inside a live region (role alert or status, or aria-live).
   * The same words may also stand elsewhere on the page (a state the announcement confirms).
   */
  async function expectAnnounced(text: string | RegExp): Promise<void> {
    const messages = scope().getByText(text);
    await messages.first().waitFor({ timeout: 15_000 });
    const live = await messages.evaluateAll(
      (els, selector) => els.some((el) => el.closest(selector) !== null),
      LIVE,
    );
    expect(live, `'${String(text)}' is in a live region`).toBe(true);
  }

  /**
   * The field's error is announced: the field is marked invalid and described by its error
   * message (what a screen reader reads with the focused field), and the message is in a live
   * region. Answers the message.
   */
  async function expectFieldErrorAnnounced(field: Locator): Promise<string> {
    await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
    const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
    const error = await scope().evaluate(
      ({ ids, selector }) => {
        const found = ids
          .map((id) => document.getElementById(id))
          .find((el) => el !== null && el.id.endsWith('-error'));
        return found ? { text: found.textContent ?? '', live: found.closest(selector) !== null } : null;
      },
      { ids, selector: LIVE },
    );
    expect(error, 'the field is described by its error').not.toBeNull();
    expect(error!.text).not.toBe('');
    expect(error!.live, `'${error!.text}' is in a live region`).toBe(true);
    return error!.text;
  }

  /**
   * Until the live app has drawn its first page, the sign-in page shows a build-time copy that is
   * inert (scripts/prerender-sign-in.ts): keys pressed meanwhile reach nothing. Answers once the
   * live page is there (at once where there is no copy).
   */
  const livePage = () => scope().locator('#portal-prerender').waitFor({ state: 'detached', timeout: 30_000 });

  /** From the sign-in page: the username, the password, and Enter. */
  async function signIn(username: string, password = DEMO_PASSWORD): Promise<void> {
    await page().goto(`${baseUrl}/`);
    await livePage();
    await typeInto(scope().getByLabel(/^Username/), username);
    await typeInto(scope().getByLabel(/^Password/), password);
    await keyboard().press('Enter');
  }

  /** The header's person menu (Profile, User guide, Sign out): Enter opens it, the arrow keys choose. */
  async function choosePersonMenuItem(name: 'Profile' | 'User guide' | 'Sign out'): Promise<void> {
    await tabTo(scope().getByRole('button', { name: /account menu$/ }));
    await keyboard().press('Enter');
    await arrowTo(scope().getByRole('menuitem', { name }));
    await keyboard().press('Enter');
  }

  return {
    livePage,
    choosePersonMenuItem,
    tabTo,
    arrowTo,
    typeInto,
    chooseRadio,
    chooseOption,
    expectFocusOn,
    expectFocusOnHeading,
    expectAnnounced,
    expectFieldErrorAnnounced,
    signIn,
  };
}
