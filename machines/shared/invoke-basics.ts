// The smallest pieces of the shared invoke config: what an action reads from an actor's answer or
// failure, and the onError that reports the failure. Apart from invoke-steps.ts so that the
// sign-in page's machine, which needs only these, does not carry the step builders in its scripts.

/** Params of an action or guard that reads what the invoked actor answered (onDone). */
export const outputOf = <TOutput>({ event }: { event: { output: TOutput } }): TOutput => event.output;

/** Params of reportFailure: the invoke's error event. */
export const errorOf = <TEvent extends { error: unknown }>({ event }: { event: TEvent }): TEvent => event;

/** onError of an invoke: the failure is reported and the flow goes to `target` (its failed state). */
export const failTo = <const TTarget extends string>(target: TTarget) =>
  ({ target, actions: { type: 'reportFailure', params: errorOf } }) as const;
