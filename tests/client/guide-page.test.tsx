// The user guide page (section 2.1): structure, the '/' shortcut, result links and accessibility.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/client/app/App';
import { ANONYMOUS_USER, SessionStore } from '../../src/client/app/session';
import { guideTopics } from '../../src/client/guide/guide.content';
import { guideTexts as t } from '../../src/client/guide/guide.texts';
import UserGuidePage from '../../src/client/guide/UserGuidePage';
import {
  screenshotCatalogue,
  screenshotNames,
  SCREENSHOT_SIZE,
} from '../../src/client/guide/screenshot-catalogue';
import { messages } from '../../src/contract/fields';
import { forcedTexts } from '../../src/client/flows/forced/shared/forced.texts';
import { axeViolations } from '../model/harness/axe';

function mount() {
  const store = new SessionStore(async () => ({ currentUser: ANONYMOUS_USER, context: null }));
  render(
    <AppProviders session={store} env="test">
      <main>
        <UserGuidePage />
      </main>
    </AppProviders>,
  );
  return { user: userEvent.setup({ delay: null }) };
}

const searchBox = () => screen.getByRole('searchbox', { name: t.searchLabel });

describe('user guide page', () => {
  it('has one h1, an h2 per topic and its sections at h3 to h6', () => {
    mount();
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([t.heading]);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(
      guideTopics.map((topic) => topic.heading),
    );
    for (const section of guideTopics.flatMap((topic) => topic.sections))
      expect(screen.getByRole('heading', { level: section.level, name: section.heading })).toHaveAttribute(
        'id',
        section.id,
      );
  });

  it('covers every topic of section 1 in the product’s words', () => {
    mount();
    const text = document.body.textContent ?? '';
    for (const heading of [
      'What single sign-on is',
      'What multi-factor authentication is',
      'Trusted devices',
      'Registration from an invitation',
      'Sign in',
      'Password reset',
      'Merging duplicate accounts',
      'The email-change wizard',
      'Change name',
      'Change email',
      'Change mobile',
      'Change phone',
      'Change password',
      'Authenticator app factor',
      'SMS factor',
      'Change security questions',
      'Managing trusted devices',
      'Password policy',
    ])
      expect(screen.getAllByRole('heading', { name: heading }).length).toBeGreaterThan(0);
    expect(text).toContain(messages.passwordHint);
    expect(text).toContain('must be repeated');
    expect(text).toContain(`not arrived within a few minutes, select '${forcedTexts.resendCode}'`);
    expect(text).toContain('available only for a limited time');
    // Section 2.5's format, capital C and all.
    expect(text).toContain('A customer username must be in the form C99999.');
  });

  it("lists every topic and h3 section 'On this page' and follows scrolling (18 px offset)", async () => {
    // jsdom lays nothing out: headings report the tops a scrolled page would.
    const tops = new Map<string, number>();
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: HTMLElement,
    ) {
      return { top: tops.get(this.id) ?? 5000 } as DOMRect;
    });
    try {
      const outline = guideTopics.flatMap((topic) => [
        topic.id,
        ...topic.sections.filter((s) => s.level === 3).map((s) => s.id),
      ]);
      outline.forEach((id, i) => tops.set(id, 100 + i * 400));
      mount();
      const nav = screen.getByRole('navigation', { name: t.onThisPage });
      const links = within(nav).getAllByRole('link');
      expect(links.map((l) => l.getAttribute('href'))).toEqual(outline.map((id) => `#${id}`));
      const current = () => within(nav).getByRole('link', { current: 'location' });
      expect(current()).toHaveAttribute('href', `#${outline[0]}`);

      // Scrolled so that the third entry is 18 px from the top and the fourth 19 px.
      outline.forEach((id, i) => tops.set(id, 18 + (i - 2) * 400 + (i > 2 ? 1 : 0)));
      fireEvent.scroll(window);
      await waitFor(() => expect(current()).toHaveAttribute('href', `#${outline[2]}`));
    } finally {
      rect.mockRestore();
    }
  });

  it('shows each catalogue image once, with its alt text and size', () => {
    mount();
    for (const name of screenshotNames) {
      const image = screen.getByRole('img', { name: screenshotCatalogue[name].alt });
      expect(image.getAttribute('src')).toContain(screenshotCatalogue[name].file.replace('.png', ''));
      expect(image).toHaveAttribute('width', String(SCREENSHOT_SIZE.width));
      expect(image).toHaveAttribute('height', String(SCREENSHOT_SIZE.height));
    }
    expect(screen.getAllByRole('img').filter((i) => i.tagName === 'IMG')).toHaveLength(
      screenshotNames.length,
    );
  });

  it("focuses the search on '/', but not while typing in a field", async () => {
    const { user } = mount();
    expect(searchBox()).not.toHaveFocus();
    await user.keyboard('/');
    expect(searchBox()).toHaveFocus();
    expect(searchBox()).toHaveValue('');
    await user.keyboard('merge/');
    expect(searchBox()).toHaveValue('merge/');
  });

  it("finds 'Trusted devices' first and moves focus to a chosen result's heading", async () => {
    const { user } = mount();
    await user.type(searchBox(), 'trusted');
    const results = await screen.findByRole('list', { name: t.results });
    const first = within(results).getAllByRole('link')[0]!;
    expect(first).toHaveTextContent('Trusted devices');
    expect(first).toHaveTextContent('Trusted devices are browsers y…');
    await user.click(first);
    expect(screen.getByRole('heading', { level: 3, name: 'Trusted devices' })).toHaveFocus();
  });

  it("says 'No result found.' for a nonsense query", async () => {
    const { user } = mount();
    await user.type(searchBox(), 'qwxzvk');
    expect(await screen.findByText(t.noResult)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: t.results })).toBeNull();
  });

  it('has no axe violations, with results shown', async () => {
    const { user } = mount();
    expect(await axeViolations()).toEqual([]);
    await user.type(searchBox(), 'password');
    await screen.findByRole('list', { name: t.results });
    await waitFor(async () => expect(await axeViolations()).toEqual([]), { timeout: 10_000 });
  });
});
