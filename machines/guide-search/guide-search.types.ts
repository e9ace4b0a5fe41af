/** One hit of the user guide's search: a searchable section (an h3 to h6 heading). */
export interface GuideSearchResult {
  /** The section's anchor id on the guide page. */
  readonly id: string;
  readonly heading: string;
  /** The first characters of the section's first paragraph (section 9: 30). */
  readonly excerpt: string;
  readonly score: number;
}

export interface GuideSearchContext {
  /** The query as typed. */
  query: string;
  /** The ranked hits of the last completed search, best first. */
  results: readonly GuideSearchResult[];
}

export type GuideSearchEvent =
  /** The user changed the search box (empty or blank clears the search). */
  { type: 'query.changed'; query: string };

export interface GuideSearchActorInput {
  readonly query: string;
}
