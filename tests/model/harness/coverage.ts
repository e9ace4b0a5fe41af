// Path coverage of one machine, measured on the running actor: every state node entered and every
// transition taken (microsteps, so eventless transitions and transient states count) while the
// generated paths run against the mounted views.
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';

export interface CoverageFigures {
  covered: number;
  total: number;
  missing: string[];
}

export interface CoverageReport {
  machine: string;
  id: string;
  states: CoverageFigures;
  transitions: CoverageFigures;
}

const descendants = (node: AnyStateNode): AnyStateNode[] =>
  Object.values(node.states).flatMap((child) => [child, ...descendants(child)]);

const definitionsOf = (node: AnyStateNode): AnyTransitionDefinition[] =>
  [...node.transitions.values()].flat().concat(node.always ?? []);

/** A key that names one transition definition in any copy of the machine (provide() copies it). */
function transitionKey(t: AnyTransitionDefinition): string {
  const source = t.source;
  const inAlways = source.always?.indexOf(t) ?? -1;
  const index = inAlways >= 0 ? inAlways : (source.transitions.get(t.eventType)?.indexOf(t) ?? -1);
  const event = inAlways >= 0 ? 'always' : t.eventType;
  const guard =
    t.guard === undefined
      ? ''
      : typeof t.guard === 'string'
        ? ` [${t.guard}]`
        : typeof t.guard === 'object' && t.guard !== null && 'type' in t.guard
          ? ` [${String(t.guard.type)}]`
          : ' [inline]';
  const targets = (t.target ?? []).map((s) => s.id).join(', ') || '(stays)';
  return `${source.id}: ${event}${guard} -> ${targets} #${index}`;
}

export class MachineCoverage {
  readonly stateIds: readonly string[];
  readonly transitionKeys: readonly string[];
  private readonly seenStates = new Set<string>();
  private readonly seenTransitions = new Set<string>();

  constructor(
    readonly name: string,
    readonly machine: AnyStateMachine,
  ) {
    const nodes = descendants(machine.root);
    this.stateIds = nodes.map((n) => n.id);
    this.transitionKeys = [machine.root, ...nodes].flatMap(definitionsOf).map(transitionKey);
  }

  /** Pass as an actor's `inspect`: records what the actor of this machine does. */
  readonly inspect = (event: InspectionEvent): void => {
    if (event.type !== '@xstate.microstep' && event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as { machine?: AnyStateMachine; _nodes?: AnyStateNode[] };
    if (!snapshot._nodes || snapshot.machine?.id !== this.machine.id) return;
    for (const node of snapshot._nodes) if (node.parent) this.seenStates.add(node.id);
    if (event.type === '@xstate.microstep') {
      for (const t of event._transitions) {
        this.seenTransitions.add(transitionKey(t));
        // A transition was taken from its source, so the source was entered, even a transient
        // initial state that no snapshot shows (it is left in the actor's first macrostep).
        if (t.source.parent) this.seenStates.add(t.source.id);
      }
    }
  };

  report(): CoverageReport {
    const figures = (all: readonly string[], seen: Set<string>): CoverageFigures => ({
      covered: all.filter((key) => seen.has(key)).length,
      total: all.length,
      missing: all.filter((key) => !seen.has(key)),
    });
    return {
      machine: this.name,
      id: this.machine.id,
      states: figures(this.stateIds, this.seenStates),
      transitions: figures(this.transitionKeys, this.seenTransitions),
    };
  }
}
