// The user the generated paths drive. No delay between events, and no pointer-events check: jsdom
// has no layout and the portal's stylesheets are not loaded in these suites, so the check cannot
// fail, yet it costs a computed style for every ancestor on every click. Paths enter a field's text
// as one input (clear, then paste): what a path asserts is the value entered, not each keystroke.
// Key-by-key typing (Caps Lock, digit filters, length limits while typing) is the view tests' part.
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';

export type PathUser = ReturnType<typeof userEvent.setup>;

export function pathUser(): PathUser {
  return userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
}

/** Replaces a field's text as a user selecting all and pasting would. */
export async function enter(user: PathUser, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  if (text !== '') await user.paste(text);
}
