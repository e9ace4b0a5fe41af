// Texts of the applications page (section 2.3).
import type { HandoffTarget } from '../../contract/entities';

export const applicationsTexts = {
  heading: 'Applications',
  /** Spec 2.3, word for word (with a full stop, unlike the header's dropdown). */
  none: 'You do not have access to any other applications.',
  newWindowHint: 'Middle click or Ctrl click a card to open it in a new window.',
} as const;

/** The facility line of a card: the facility name with its alias or code, or whichever exists. */
export function facilityLabel(target: HandoffTarget): string | null {
  const { facilityName: name, facilityAliasOrCode: alias } = target;
  if (name && alias && alias !== name) return `${name} (${alias})`;
  return name ?? alias ?? null;
}
