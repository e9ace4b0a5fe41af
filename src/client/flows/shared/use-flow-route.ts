// Keeps the address and the machine in step, both ways (DESIGN.md, 'Routing lives in state meta'):
// - the machine enters a state whose meta names another route: navigate there;
// - the address changes without the machine asking (back button, typed address, deep link, a link
//   to the page the user is on): send `route.changed { path }`; the machine's guards accept it (a
//   transition to the state of that path) or not, and the address then follows the machine's state
//   (a redirect, by replace).
// A finished machine hands over through its output instead (see useFlowActor's onDone).
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { resolveRoute } from '../../../../machines/routes';

/** The route of the deepest active state that names one; null when none does or the flow is done. */
export function routeOf(snapshot: AnyMachineSnapshot, basePath: string | null): string | null {
  if (snapshot.status !== 'active') return null;
  const meta = snapshot.getMeta() as Record<string, { route?: unknown } | undefined>;
  const nodes = [...snapshot._nodes].reverse();
  for (const node of nodes) {
    const route = meta[node.id]?.route;
    if (typeof route === 'string') return resolveRoute(basePath, route);
  }
  return null;
}

export function useFlowRoute(
  actorRef: AnyActorRef,
  { basePath = null }: { basePath?: string | null } = {},
): void {
  const navigate = useNavigate();
  const location = useLocation();
  const route = useSelector(actorRef, (s: AnyMachineSnapshot) => routeOf(s, basePath));
  /** The path the hook itself navigated to and has not yet seen arrive. */
  const ownNavigation = useRef<string | null>(null);
  const seenKey = useRef(location.key);
  /**
   * The page's first address and the machine's first route: a redirect of one to the other replaces.
   * A machine that starts without a route (loading first: password reset, merge) has its first route
   * when it names one, as long as the address is still the one the page was opened at.
   */
  const first = useRef({ key: location.key, route });

  // Machine -> address. A new step is a new history entry; but the page opened at an address its
  // machine does not start at (a reload on a wizard's later step, a deep link, a route that
  // redirects to its first step) is redirected by replace, so that Back leaves the page instead of
  // coming back to the address just left (and being redirected again).
  useEffect(() => {
    if (route === null) return;
    const onFirstEntry = location.key === first.current.key;
    if (onFirstEntry && first.current.route === null) first.current.route = route;
    if (route === location.pathname) return;
    ownNavigation.current = route;
    const redirect = onFirstEntry && route === first.current.route;
    void navigate(route, redirect ? { replace: true } : undefined);
    // Only a new route of the machine navigates; the address side is handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [route]);

  // Address -> machine.
  useEffect(() => {
    if (seenKey.current === location.key) return;
    seenKey.current = location.key;
    if (ownNavigation.current === location.pathname) {
      ownNavigation.current = null;
      return;
    }
    ownNavigation.current = null;
    actorRef.send({ type: 'route.changed', path: location.pathname });
    const next = routeOf(actorRef.getSnapshot() as AnyMachineSnapshot, basePath);
    if (next !== null && next !== location.pathname) {
      ownNavigation.current = next;
      void navigate(next, { replace: true });
    }
  }, [actorRef, basePath, location.key, location.pathname, navigate]);
}
