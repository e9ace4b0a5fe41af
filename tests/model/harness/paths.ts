// Paths from the graph utilities that take every state and every transition of a machine: the
// shortest path to every state (value plus context), and, for a transition no shortest path takes,
// the shortest path to its source followed by that transition.
import type { AnyStateMachine, EventObject, Snapshot } from 'xstate';
import { getAdjacencyMap, type StatePath, type TestModel, type TestParam } from 'xstate/graph';

export interface ModelPath<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject> extends StatePath<
  TSnapshot,
  TEvent
> {
  description: string;
  test: (params: TestParam<TSnapshot, TEvent>) => Promise<unknown>;
}

export interface PathOptions<TSnapshot, TEvent, TInput> {
  input: TInput;
  events: (snapshot: TSnapshot) => TEvent[];
  serializeState: (snapshot: TSnapshot) => string;
  /** Only paths that end in a state this accepts, and no transition-covering extensions. */
  toState?: (snapshot: TSnapshot) => boolean;
  describeEvent?: (event: TEvent) => string;
}

type MachineSnapshotOf = Parameters<AnyStateMachine['getTransitionData']>[0];

const defaultDescribe = (event: EventObject): string => event.type;

/** Transition definitions an event takes from a snapshot, as stable keys. */
function definitionKeys(machine: AnyStateMachine, snapshot: unknown, event: EventObject): string[] {
  if (event.type === 'xstate.init') return [];
  return machine.getTransitionData(snapshot as MachineSnapshotOf, event).map((t) => {
    const list = t.source.transitions.get(t.eventType) ?? [];
    return `${t.source.id}|${t.eventType}|${list.indexOf(t)}`;
  });
}

/** Drops a path whose events are a prefix of another path's (it is tested on the way). */
function withoutPrefixes<P extends { steps: { event: EventObject }[] }>(paths: P[]): P[] {
  const keyed = paths.map((p) => ({ p, events: p.steps.map((s) => JSON.stringify(s.event)) }));
  keyed.sort((a, b) => b.events.length - a.events.length);
  const kept: typeof keyed = [];
  for (const candidate of keyed) {
    const isPrefix = kept.some((k) => candidate.events.every((e, i) => k.events[i] === e));
    if (!isPrefix) kept.push(candidate);
  }
  return kept.map((k) => k.p);
}

export function coveringPaths<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject, TInput>(
  model: TestModel<TSnapshot, TEvent, TInput>,
  machine: AnyStateMachine,
  options: PathOptions<TSnapshot, TEvent, TInput>,
): ModelPath<TSnapshot, TEvent>[] {
  const describeEvent = options.describeEvent ?? defaultDescribe;
  const traversal = {
    input: options.input,
    events: options.events,
    serializeState: options.serializeState,
    ...(options.toState ? { toState: options.toState } : {}),
  };
  const shortest = model.getShortestPaths({ ...traversal, allowDuplicatePaths: true });
  let paths: StatePath<TSnapshot, TEvent>[] = shortest;

  if (!options.toState) {
    const byState = new Map(shortest.map((p) => [options.serializeState(p.state), p]));
    const covered = new Set<string>();
    for (const path of shortest) {
      path.steps.forEach((step, i) => {
        const before = i === 0 ? undefined : path.steps[i - 1]?.state;
        if (before) for (const key of definitionKeys(machine, before, step.event)) covered.add(key);
      });
    }
    const adjacency = getAdjacencyMap(machine as never, traversal as never) as Record<
      string,
      { state: TSnapshot; transitions: Record<string, { event: TEvent; state: TSnapshot }> }
    >;
    const extensions: StatePath<TSnapshot, TEvent>[] = [];
    for (const [key, { state, transitions }] of Object.entries(adjacency)) {
      const head = byState.get(key);
      if (!head) continue;
      for (const { event, state: next } of Object.values(transitions)) {
        const keys = definitionKeys(machine, state, event);
        if (keys.every((k) => covered.has(k))) continue;
        keys.forEach((k) => covered.add(k));
        extensions.push({
          state: next,
          steps: [...head.steps, { state: next, event }],
          weight: head.weight + 1,
        });
      }
    }
    paths = [...shortest, ...extensions];
  }

  return withoutPrefixes(paths).map((path) => ({
    ...path,
    description: `${path.steps
      .filter((s) => s.event.type !== 'xstate.init')
      .map((s) => describeEvent(s.event))
      .join(' → ')} ⇒ ${JSON.stringify((path.state as { value?: unknown }).value)}`,
    test: (params: TestParam<TSnapshot, TEvent>) => model.testPath(path, params),
  }));
}
