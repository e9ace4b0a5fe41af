// Ranking, excerpts and the scroll spy of the user guide (sections 2.1 and 9), on the real guide.
import { describe, expect, it, vi } from 'vitest';
import { guideTopics } from '../../src/client/guide/guide.content';
import { guideTexts, SCROLL_OFFSET_PX, SCROLL_THROTTLE_MS } from '../../src/client/guide/guide.texts';
import type { GuideSection } from '../../src/client/guide/guide.types';
import {
  EXCERPT_LENGTH,
  excerpt,
  queryTerms,
  scoreSection,
  searchableSections,
  searchGuide,
  SEARCH_WEIGHTS,
} from '../../src/client/guide/guide-search';
import { activeHeadingId, isTypingTarget, throttle } from '../../src/client/guide/scroll-spy';

const sections = searchableSections(guideTopics);

const section = (heading: string, paragraph: string, id = heading): GuideSection => ({
  id,
  heading,
  level: 3,
  paragraphs: [paragraph, 'A second paragraph about everything: trusted, password, merge.'],
});

describe('guide search constants (section 9)', () => {
  it('weighs a heading 2 and the first paragraph 1, quotes 30 characters', () => {
    expect(SEARCH_WEIGHTS).toEqual({ heading: 2, firstParagraph: 1 });
    expect(EXCERPT_LENGTH).toBe(30);
    expect(SCROLL_THROTTLE_MS).toBe(100);
    expect(SCROLL_OFFSET_PX).toBe(18);
    expect(guideTexts.noResult).toBe('No result found.');
  });
});

describe('scoreSection', () => {
  it('adds 2 for a term in the heading and 1 for one in the first paragraph', () => {
    expect(scoreSection(section('Trusted devices', 'Browsers you trusted.'), ['trusted'])).toBe(3);
    expect(scoreSection(section('Trusted devices', 'Browsers you chose.'), ['trusted'])).toBe(2);
    expect(scoreSection(section('Devices', 'Browsers you trusted.'), ['trusted'])).toBe(1);
  });

  it('ignores paragraphs after the first', () => {
    expect(scoreSection(section('Devices', 'Browsers.'), ['merge'])).toBe(0);
  });

  it('needs every term somewhere, and sums their weights', () => {
    const s = section('Trusted devices', 'Remove a device from your profile.');
    expect(scoreSection(s, ['trusted', 'profile'])).toBe(3);
    expect(scoreSection(s, ['trusted', 'nonsense'])).toBe(0);
    expect(scoreSection(s, [])).toBe(0);
  });

  it('matches the start of words, case-insensitively', () => {
    expect(scoreSection(section('Trusted devices', 'x'), ['tru'])).toBe(2);
    expect(scoreSection(section('Trusted devices', 'x'), ['usted'])).toBe(0);
    expect(queryTerms('  TRUSTED   Devices trusted ')).toEqual(['trusted', 'devices']);
  });
});

describe('excerpt', () => {
  it('keeps a paragraph of 30 characters or fewer whole', () => {
    expect(excerpt('Short paragraph.')).toBe('Short paragraph.');
    expect(excerpt('x'.repeat(30))).toBe('x'.repeat(30));
  });

  it('cuts a longer one to its first 30 characters with an ellipsis', () => {
    const text = 'Trusted devices are browsers you chose to trust.';
    expect(excerpt(text)).toBe(`${text.slice(0, 30)}…`);
    expect(excerpt('  spaced\n\n   out   words that go on and on and on')).toBe(
      'spaced out words that go on an…',
    );
  });
});

describe('searchGuide on the guide', () => {
  it("finds 'Trusted devices' first for 'trusted'", () => {
    const results = searchGuide(sections, 'trusted');
    expect(results[0]).toMatchObject({ heading: 'Trusted devices', id: 'trusted-devices' });
    expect(results.length).toBeGreaterThan(1);
  });

  it('ranks best first, ties in the guide order, with the heading and a 30-character excerpt', () => {
    const results = searchGuide(sections, 'password');
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const result of results) {
      const found = sections.find((s) => s.id === result.id)!;
      expect(result.heading).toBe(found.heading);
      expect(result.excerpt).toBe(excerpt(found.paragraphs[0]!));
      expect(result.excerpt.replace(/…$/, '').length).toBeLessThanOrEqual(30);
    }
    const order = (id: string) => sections.findIndex((s) => s.id === id);
    for (let i = 1; i < results.length; i += 1) {
      if (results[i]!.score === results[i - 1]!.score)
        expect(order(results[i]!.id)).toBeGreaterThan(order(results[i - 1]!.id));
    }
  });

  it('finds nothing for a nonsense query or a blank one', () => {
    expect(searchGuide(sections, 'qwxzvk')).toEqual([]);
    expect(searchGuide(sections, '   ')).toEqual([]);
  });

  it('searches only h3 to h6 sections, each with a unique id', () => {
    expect(sections.every((s) => s.level >= 3 && s.level <= 6)).toBe(true);
    const ids = [...guideTopics.map((t) => t.id), ...sections.map((s) => s.id)];
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('activeHeadingId', () => {
  const positions = [
    { id: 'a', top: -400 },
    { id: 'b', top: 10 },
    { id: 'c', top: 19 },
    { id: 'd', top: 600 },
  ];

  it('marks the last heading within 18 px of the top', () => {
    expect(activeHeadingId(positions)).toBe('b');
    expect(activeHeadingId(positions.map((p) => (p.id === 'c' ? { ...p, top: 18 } : p)))).toBe('c');
  });

  it('marks the first heading before any is reached, and none without headings', () => {
    expect(
      activeHeadingId([
        { id: 'a', top: 200 },
        { id: 'b', top: 900 },
      ]),
    ).toBe('a');
    expect(activeHeadingId([])).toBeNull();
  });

  it('marks the last heading once the page is scrolled to its end', () => {
    expect(activeHeadingId(positions, SCROLL_OFFSET_PX, true)).toBe('d');
    expect(activeHeadingId([], SCROLL_OFFSET_PX, true)).toBeNull();
  });
});

describe('isTypingTarget', () => {
  it('is true for fields and editable content, false elsewhere', () => {
    expect(isTypingTarget(document.createElement('input'))).toBe(true);
    expect(isTypingTarget(document.createElement('textarea'))).toBe(true);
    expect(isTypingTarget(document.createElement('select'))).toBe(true);
    expect(isTypingTarget(document.createElement('div'))).toBe(false);
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const inside = document.createElement('span');
    editable.append(inside);
    expect(isTypingTarget(inside)).toBe(true);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('throttle (the sidebar measures at most every 100 ms)', () => {
  it('runs at once, then once at the end of the window for the calls made within it', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      const throttled = throttle(fn, SCROLL_THROTTLE_MS);
      throttled.run();
      expect(fn).toHaveBeenCalledTimes(1);
      throttled.run();
      throttled.run();
      vi.advanceTimersByTime(99);
      expect(fn).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(100);
      expect(fn).toHaveBeenCalledTimes(2);
      throttled.run();
      expect(fn).toHaveBeenCalledTimes(3);
      throttled.run();
      throttled.cancel();
      vi.advanceTimersByTime(500);
      expect(fn).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
