// Ranking and excerpts of the user guide's search (sections 2.1 and 9): the h3 to h6 sections are
// searched; a term found in a heading weighs 2, in the section's first paragraph 1; every term of
// the query must be found somewhere; ties keep the guide's order. Pure functions: the search
// machine's actor calls them and the unit tests pin them.
import type { GuideSearchResult } from '../../../machines/guide-search/guide-search.types';
import type { GuideSection, GuideTopic } from './guide.types';

/** Section 9. */
export const SEARCH_WEIGHTS = { heading: 2, firstParagraph: 1 } as const;
/** Section 9: the characters of the first paragraph a result shows. */
export const EXCERPT_LENGTH = 30;

/** The words of a text, lower case: letters and digits, with inner apostrophes kept. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? [];
}

/** A query's distinct terms. */
export const queryTerms = (query: string): string[] => [...new Set(words(query))];

/** A term is found where a word starts with it (so results follow the typing). */
const found = (textWords: readonly string[], term: string) => textWords.some((word) => word.startsWith(term));

/** The searchable sections (h3 to h6), in the guide's order. */
export const searchableSections = (topics: readonly GuideTopic[]): GuideSection[] =>
  topics.flatMap((topic) => topic.sections.filter((s) => s.level >= 3 && s.level <= 6));

/** A section's score for the terms; 0 when a term is found nowhere in it. */
export function scoreSection(section: GuideSection, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  const heading = words(section.heading);
  const paragraph = words(section.paragraphs[0] ?? '');
  let score = 0;
  for (const term of terms) {
    const termScore =
      (found(heading, term) ? SEARCH_WEIGHTS.heading : 0) +
      (found(paragraph, term) ? SEARCH_WEIGHTS.firstParagraph : 0);
    if (termScore === 0) return 0;
    score += termScore;
  }
  return score;
}

/** The first EXCERPT_LENGTH characters of a paragraph, with an ellipsis when it goes on. */
export function excerpt(paragraph: string, length: number = EXCERPT_LENGTH): string {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  return text.length <= length ? text : `${text.slice(0, length).trimEnd()}…`;
}

/** The sections that match the query, best first (ties in the guide's order). */
export function searchGuide(sections: readonly GuideSection[], query: string): GuideSearchResult[] {
  const terms = queryTerms(query);
  return sections
    .map((section, order) => ({ section, order, score: scoreSection(section, terms) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ section, score }) => ({
      id: section.id,
      heading: section.heading,
      excerpt: excerpt(section.paragraphs[0] ?? ''),
      score,
    }));
}
