// Which heading the 'On this page' sidebar marks: the last one scrolled to within the offset of the
// top of the window (section 9: 18 px), or the first before any has been reached.
import { SCROLL_OFFSET_PX } from './guide.texts';

export interface HeadingPosition {
  readonly id: string;
  /** Distance of the heading's top from the top of the viewport, in px. */
  readonly top: number;
}

export function activeHeadingId(
  positions: readonly HeadingPosition[],
  offset: number = SCROLL_OFFSET_PX,
  /** Scrolled to the end: the last headings can never reach the top, so the last one is marked. */
  atEnd = false,
): string | null {
  if (atEnd && positions.length > 0) return positions[positions.length - 1]!.id;
  let active: string | null = positions[0]?.id ?? null;
  for (const position of positions) {
    if (position.top <= offset) active = position.id;
    else break;
  }
  return active;
}

/** Whether '/' should move focus to the search: not while the user types into a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const element = target as HTMLElement;
  const tag = element.tagName.toLowerCase();
  if (tag === 'input' || tag === 'textarea' || tag === 'select') return true;
  return (
    element.isContentEditable === true ||
    element.closest('[contenteditable]:not([contenteditable="false"])') !== null
  );
}

/**
 * Runs `fn` at most once per `wait` ms: at once, then once more at the end of the window if it was
 * asked for meanwhile, so the last scroll position is always measured. `cancel` drops a pending run.
 */
export function throttle(fn: () => void, wait: number): { run: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending = false;
  const release = () => {
    timer = null;
    if (!pending) return;
    pending = false;
    fn();
    timer = setTimeout(release, wait);
  };
  return {
    run: () => {
      if (timer) {
        pending = true;
        return;
      }
      fn();
      timer = setTimeout(release, wait);
    },
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = false;
    },
  };
}
