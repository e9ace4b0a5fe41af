// Live view of the charts: in development, `?inspect` in the address attaches Stately's inspector
// to every flow actor, so a product owner can watch a real session move through the statecharts.
// The inspector is imported on demand and only in development: production builds drop this code.
import type { InspectionEvent, Observer } from 'xstate';

type InspectObserver = (event: InspectionEvent) => void;

let shared: InspectObserver | null | undefined;

/** Whether the address asks for the inspector. */
export const wantsInspector = (search: string): boolean => new URLSearchParams(search).has('inspect');

/**
 * The inspect observer to create flow actors with, or undefined outside development or without
 * `?inspect`. Events that arrive before the inspector has loaded are buffered and replayed.
 */
export function flowInspector(): InspectObserver | undefined {
  if (!import.meta.env.DEV) return undefined;
  if (typeof window === 'undefined' || !wantsInspector(window.location.search)) return undefined;
  if (shared !== undefined) return shared ?? undefined;

  const buffer: InspectionEvent[] = [];
  let target: Observer<InspectionEvent> | null = null;
  shared = (event) => {
    if (target) target.next?.(event);
    else buffer.push(event);
  };
  import('@statelyai/inspect')
    .then(({ createBrowserInspector }) => {
      const inspector = createBrowserInspector();
      target = inspector.inspect;
      for (const event of buffer.splice(0)) target.next?.(event);
    })
    .catch((error: unknown) => {
      console.warn('The Stately inspector could not be loaded.', error);
      shared = null;
    });
  return shared;
}
