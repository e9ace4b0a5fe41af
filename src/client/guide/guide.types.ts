// The user guide as data: the page renders it and the search ranks its sections, so what is found
// is exactly what is shown.
import type { ScreenshotName } from './screenshot-catalogue';

/** A searchable section of a topic: an h3 to h6 heading with its paragraphs. */
export interface GuideSection {
  /** Anchor id on the page. */
  readonly id: string;
  readonly heading: string;
  readonly level: 3 | 4 | 5 | 6;
  /** The first paragraph is what the search weighs and quotes. */
  readonly paragraphs: readonly string[];
  /** Steps or facts to list after the paragraphs. */
  readonly list?: readonly string[];
  /** An image of the catalogue shown after the text. */
  readonly screenshot?: ScreenshotName;
}

/** A topic of the guide: an h2 heading, its introduction and its sections. */
export interface GuideTopic {
  readonly id: string;
  readonly heading: string;
  readonly intro: readonly string[];
  /** An image of the catalogue shown after the introduction. */
  readonly screenshot?: ScreenshotName;
  readonly sections: readonly GuideSection[];
}
