// Handoff links (applications page cards, the header's grid): a left click hands off (through the
// handoff flow, or the handler of handoff-context.ts); a middle or ctrl/meta click opens the link in
// a new window, at the user's landing page with the target in the address: the applications page
// hands off to it itself, and the header's grid does on any other page (the access-requests page of
// a VIEW_ACCESS_REQUESTS holder, who is denied the applications page).
import type { MouseEvent } from 'react';
import type { HandoffTarget } from '../../contract/entities';
import type { HandoffHandler } from './handoff-context';
import { APPLICATIONS_ROUTE } from './routes';

export { HandoffContext, useHandoffOverride, type HandoffHandler } from './handoff-context';

/** Query parameters naming a handoff target on the applications page (opened in a new window). */
export const HANDOFF_APP_PARAM = 'handoff';
export const HANDOFF_FACILITY_PARAM = 'facility';

/** The address a link opens in a new window: `page` (a landing page) asked to hand off to the target. */
export function handoffHref(target: HandoffTarget, page: string = APPLICATIONS_ROUTE): string {
  const params = new URLSearchParams({ [HANDOFF_APP_PARAM]: target.appCode });
  if (target.facilityCode) params.set(HANDOFF_FACILITY_PARAM, target.facilityCode);
  return `${page}?${params.toString()}`;
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
export function handoffClickHandlers(target: HandoffTarget, onHandoff: HandoffHandler, page?: string) {
  const href = handoffHref(target, page);
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
