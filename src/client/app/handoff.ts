// Handoff links (applications page cards, the header's grid): a left click hands off (through the
// handoff flow, or the handler of handoff-context.ts); a middle or ctrl/meta click opens the link in
// a new window, where the applications page hands off to the target the address names.
import type { MouseEvent } from 'react';
import type { HandoffTarget } from '../../contract/entities';
import type { HandoffHandler } from './handoff-context';
import { APPLICATIONS_ROUTE } from './routes';

export { HandoffContext, useHandoffOverride, type HandoffHandler } from './handoff-context';

/** Query parameters naming a handoff target on the applications page (opened in a new window). */
export const HANDOFF_APP_PARAM = 'handoff';
export const HANDOFF_FACILITY_PARAM = 'facility';

/** The address a card opens in a new window: the applications page asked to hand off to the target. */
export function handoffHref(target: HandoffTarget): string {
  const params = new URLSearchParams({ [HANDOFF_APP_PARAM]: target.appCode });
  if (target.facilityCode) params.set(HANDOFF_FACILITY_PARAM, target.facilityCode);
  return `${APPLICATIONS_ROUTE}?${params.toString()}`;
}

/** The target a handoff address names, among the accessible ones. */
export function targetFromSearch(search: URLSearchParams, targets: HandoffTarget[]): HandoffTarget | null {
  const appCode = search.get(HANDOFF_APP_PARAM);
  if (!appCode) return null;
  const facilityCode = search.get(HANDOFF_FACILITY_PARAM);
  return targets.find((t) => t.appCode === appCode && (t.facilityCode ?? null) === facilityCode) ?? null;
}

/**
 * Click handlers for a handoff link: a plain left click hands off in place; a middle click or a
 * ctrl/meta click opens the link in a new window. Shift click is left to the browser.
 */
export function handoffClickHandlers(target: HandoffTarget, onHandoff: HandoffHandler) {
  const href = handoffHref(target);
  const openInNewWindow = (event: MouseEvent) => {
    event.preventDefault();
    window.open(href, '_blank', 'noopener');
  };
  return {
    href,
    onClick: (event: MouseEvent) => {
      if (event.button !== 0 || event.shiftKey || event.altKey) return;
      if (event.ctrlKey || event.metaKey) {
        openInNewWindow(event);
        return;
      }
      event.preventDefault();
      onHandoff(target);
    },
    onAuxClick: (event: MouseEvent) => {
      if (event.button === 1) openInNewWindow(event);
    },
  };
}
