// The guide page's own strings (section 2.1); the guide's content takes the product's texts from
// the flows' texts modules (guide.content.ts).
export const guideTexts = {
  heading: 'User guide',
  intro: 'How to sign in, register, reset your password, merge accounts and look after your profile.',
  onThisPage: 'On this page',
  searchLabel: 'Search the guide',
  searchPlaceholder: 'Search',
  searchHint: 'Press / to search from anywhere on the page.',
  searching: 'Searching…',
  /** Spec, section 2.1, word for word. */
  noResult: 'No result found.',
  resultCount: (n: number) => `${n} ${n === 1 ? 'result' : 'results'}`,
  results: 'Search results',
} as const;

/** Section 9: the sidebar follows scrolling at most every 100 ms, with an 18 px offset. */
export const SCROLL_THROTTLE_MS = 100;
export const SCROLL_OFFSET_PX = 18;
