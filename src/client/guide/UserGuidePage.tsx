// /docs/user-guide (section 2.1): the guide's topics, an 'On this page' sidebar that follows
// scrolling, and a search over the h3 to h6 sections that '/' focuses. The search runs in the
// guide-search machine (none, searching, done); ranking and excerpts are guide-search.ts.
import '@mantine/core/styles/List.css';
import './guide.css';
import { Anchor, Box, List, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type MouseEvent } from 'react';
import { fromPromise } from 'xstate';
import { guideSearchMachine } from '../../../machines/guide-search/guide-search.machine';
import {
  selectNoResult,
  selectResults,
  selectSearching,
} from '../../../machines/guide-search/guide-search.select';
import type {
  GuideSearchActorInput,
  GuideSearchResult,
} from '../../../machines/guide-search/guide-search.types';
import { useFlowActor } from '../flows/shared/use-flow-actor';
import { guideTopics } from './guide.content';
import { guideTexts as t, SCROLL_OFFSET_PX, SCROLL_THROTTLE_MS } from './guide.texts';
import type { GuideSection } from './guide.types';
import { screenshotCatalogue, SCREENSHOT_SIZE, type ScreenshotName } from './screenshot-catalogue';
import { screenshotUrl } from './screenshot-urls';
import { searchableSections, searchGuide } from './guide-search';
import { activeHeadingId, isTypingTarget, throttle } from './scroll-spy';

const sections = searchableSections(guideTopics);

/** The sidebar's entries: each topic and its h3 sections. */
const outline = guideTopics.flatMap((topic) => [
  { id: topic.id, heading: topic.heading, depth: 0 },
  ...topic.sections.filter((s) => s.level === 3).map((s) => ({ id: s.id, heading: s.heading, depth: 1 })),
]);

/** Scrolls to a heading and moves focus there, so keyboard and screen-reader users land on it. */
function goTo(id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  target.focus({ preventScroll: true });
  window.history.replaceState(window.history.state, '', `#${id}`);
}

function onAnchorClick(id: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    goTo(id);
  };
}

/** A catalogue image at its natural aspect ratio, as wide as the text allows. */
function Screenshot({ name }: { name: ScreenshotName }) {
  return (
    <img
      src={screenshotUrl(name)}
      alt={screenshotCatalogue[name].alt}
      width={SCREENSHOT_SIZE.width}
      height={SCREENSHOT_SIZE.height}
      loading="lazy"
      className="guide-screenshot"
    />
  );
}

function Section({ section }: { section: GuideSection }) {
  return (
    <Stack component="section" gap="xs" aria-labelledby={section.id}>
      <Title order={section.level} id={section.id} tabIndex={-1}>
        {section.heading}
      </Title>
      {section.paragraphs.map((paragraph) => (
        <Text key={paragraph}>{paragraph}</Text>
      ))}
      {section.list && (
        <List spacing={4}>
          {section.list.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
      )}
      {section.screenshot && <Screenshot name={section.screenshot} />}
    </Stack>
  );
}

function SearchResults({ results }: { results: readonly GuideSearchResult[] }) {
  return (
    <Stack
      component="ol"
      gap="xs"
      aria-label={t.results}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {results.map((result) => (
        <li key={result.id}>
          <Anchor href={`#${result.id}`} onClick={onAnchorClick(result.id)} display="block">
            <Text component="span" fw={600} display="block">
              {result.heading}
            </Text>
            <Text component="span" size="sm" c="dimmed" display="block">
              {result.excerpt}
            </Text>
          </Anchor>
        </li>
      ))}
    </Stack>
  );
}

function GuideSearch() {
  const searchActor = useMemo(
    () =>
      fromPromise<readonly GuideSearchResult[], GuideSearchActorInput>(async ({ input }) =>
        searchGuide(sections, input.query),
      ),
    [],
  );
  const [snapshot, send] = useFlowActor(guideSearchMachine, {
    input: undefined,
    actors: { searchGuide: searchActor },
  });
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const results = selectResults(snapshot);
  return (
    <Stack gap="xs" role="search">
      <TextInput
        ref={input}
        type="search"
        label={t.searchLabel}
        placeholder={t.searchPlaceholder}
        value={snapshot.context.query}
        onChange={(event) => send({ type: 'query.changed', query: event.currentTarget.value })}
        aria-describedby={hintId}
        rightSection={
          <Text component="kbd" size="xs" c="dimmed" aria-hidden>
            /
          </Text>
        }
      />
      <Text id={hintId} size="xs" c="dimmed">
        {t.searchHint}
      </Text>
      <div aria-live="polite">
        {selectSearching(snapshot) && <Text size="sm">{t.searching}</Text>}
        {selectNoResult(snapshot) && <Text size="sm">{t.noResult}</Text>}
        {results.length > 0 && <VisuallyHidden>{t.resultCount(results.length)}</VisuallyHidden>}
      </div>
      {results.length > 0 && <SearchResults results={results} />}
    </Stack>
  );
}

function useActiveHeading(): string | null {
  const [active, setActive] = useState<string | null>(outline[0]?.id ?? null);
  const measure = useCallback(() => {
    const positions = outline.flatMap(({ id }) => {
      const element = document.getElementById(id);
      return element ? [{ id, top: element.getBoundingClientRect().top }] : [];
    });
    const root = document.documentElement;
    const atEnd = window.scrollY > 0 && window.innerHeight + window.scrollY >= root.scrollHeight - 2;
    setActive(activeHeadingId(positions, SCROLL_OFFSET_PX, atEnd));
  }, []);
  useEffect(() => {
    const throttled = throttle(measure, SCROLL_THROTTLE_MS);
    measure();
    window.addEventListener('scroll', throttled.run, { passive: true });
    return () => {
      window.removeEventListener('scroll', throttled.run);
      throttled.cancel();
    };
  }, [measure]);
  return active;
}

function OnThisPage() {
  const active = useActiveHeading();
  const labelId = useId();
  return (
    <Box component="nav" aria-labelledby={labelId}>
      <Text id={labelId} fw={700} mb="xs">
        {t.onThisPage}
      </Text>
      <Stack component="ul" gap={4} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {outline.map((entry) => (
          <li key={entry.id} style={{ paddingLeft: entry.depth * 12 }}>
            <Anchor
              href={`#${entry.id}`}
              onClick={onAnchorClick(entry.id)}
              size="sm"
              fw={entry.id === active ? 700 : 400}
              underline={entry.id === active ? 'always' : 'hover'}
              aria-current={entry.id === active ? 'location' : undefined}
            >
              {entry.heading}
            </Anchor>
          </li>
        ))}
      </Stack>
    </Box>
  );
}

export default function UserGuidePage() {
  return (
    <div className="guide-layout">
      <Stack gap="lg" className="guide-aside">
        <GuideSearch />
        <OnThisPage />
      </Stack>
      <Stack gap="xl" maw={760} className="guide-content">
        <Stack gap="xs">
          <Title order={1}>{t.heading}</Title>
          <Text>{t.intro}</Text>
        </Stack>
        {guideTopics.map((topic) => (
          <Stack component="section" gap="md" key={topic.id} aria-labelledby={topic.id}>
            <Title order={2} id={topic.id} tabIndex={-1}>
              {topic.heading}
            </Title>
            {topic.intro.map((paragraph) => (
              <Text key={paragraph}>{paragraph}</Text>
            ))}
            {topic.screenshot && <Screenshot name={topic.screenshot} />}
            {topic.sections.map((section) => (
              <Section key={section.id} section={section} />
            ))}
          </Stack>
        ))}
      </Stack>
    </div>
  );
}
