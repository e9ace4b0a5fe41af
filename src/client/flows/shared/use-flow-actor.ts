// useFlowActor(machine, { input, actors, actions, onDone }): runs one flow machine for a page.
// Machines declare, the app provides: the page passes the real actors and actions; anything a
// FlowImplementationsProvider gives for this machine id wins (tests' scripted fakes).
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type {
  Actor,
  AnyStateMachine,
  EventFromLogic,
  InputFrom,
  InspectionEvent,
  OutputFrom,
  SnapshotFrom,
} from 'xstate';
import { useFlowImplementations } from './flow-implementations';
import { flowInspector } from './inspect';

type Provided<M extends AnyStateMachine> = NonNullable<Parameters<M['provide']>[0]>;

export interface FlowActorOptions<M extends AnyStateMachine> {
  input: InputFrom<M>;
  actors?: Provided<M>['actors'];
  actions?: Provided<M>['actions'];
  /** Called once with the machine's output when it reaches a final state. */
  onDone?: (output: OutputFrom<M>) => void;
}

export type FlowActor<M extends AnyStateMachine> = readonly [
  snapshot: SnapshotFrom<M>,
  send: (event: EventFromLogic<M>) => void,
  actorRef: Actor<M>,
];

function combine(
  ...observers: ((event: InspectionEvent) => void)[]
): ((event: InspectionEvent) => void) | undefined {
  if (observers.length === 0) return undefined;
  return (event) => {
    for (const observer of observers) observer(event);
  };
}

export function useFlowActor<M extends AnyStateMachine>(
  machine: M,
  options: FlowActorOptions<M>,
): FlowActor<M> {
  const overrides = useFlowImplementations(machine.id);
  const logic = machine.provide({
    actors: { ...options.actors, ...overrides?.actors },
    actions: { ...options.actions, ...overrides?.actions },
    guards: { ...overrides?.guards },
  } as Provided<M>) as M;
  // Created once per mount: input and inspection are read on the first render only.
  const inspect = useRef(
    combine(...[flowInspector(), overrides?.inspect].filter((o): o is (e: InspectionEvent) => void => !!o)),
  ).current;
  const actorRef = useActorRef(logic, { input: options.input, inspect }) as Actor<M>;
  const snapshot = useSelector(actorRef, (s) => s) as SnapshotFrom<M>;

  const onDone = useRef(options.onDone);
  useEffect(() => {
    onDone.current = options.onDone;
  });
  useEffect(() => {
    let reported = false;
    const report = () => {
      const current = actorRef.getSnapshot() as { status: string; output?: unknown };
      if (current.status !== 'done' || reported) return;
      reported = true;
      onDone.current?.(current.output as OutputFrom<M>);
    };
    const subscription = actorRef.subscribe({ next: report, error: () => {} });
    report();
    return () => subscription.unsubscribe();
  }, [actorRef]);

  return [snapshot, actorRef.send as (event: EventFromLogic<M>) => void, actorRef] as const;
}
