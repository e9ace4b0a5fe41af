// The last step of every forced step and of registration: the authentication outcome their call
// answered is handed to the continue-sign-in machine (machines/forced/continue-sign-in), invoked as
// the machine's 'continueSignIn' actor. Plain config, checked by the machine's setup() like
// invoke-steps.ts.
import type { AuthenticationOutcome } from '../../src/contract/entities';
import { required, type LandingInput } from '../forced/continue-sign-in/forced-step';
import type { FlowStateMeta } from './flow.types';
import { failTo, outputOf } from './invoke-basics';

/** What the continuation reads from the step's context. */
export interface ContinuationContext extends LandingInput {
  /** The outcome the step's call answered; the step enters `continuing` only with it. */
  outcome: AuthenticationOutcome | null;
}

/**
 * `continuing`, a sibling of the machine's `failed` and `done`:
 *   --done[continuationFailed] / reportContinuationFailure--> failed
 *   --done / storeHandover--> done    --error / reportFailure--> failed
 */
export const continuingState = (meta: FlowStateMeta) =>
  ({
    meta,
    invoke: {
      id: 'continueSignIn',
      src: 'continueSignIn',
      input: ({ context }: { context: ContinuationContext }) => ({
        outcome: required(context.outcome, 'an authentication outcome'),
        targetPath: context.targetPath,
        adminTargetPath: context.adminTargetPath,
      }),
      onDone: [
        {
          guard: { type: 'continuationFailed', params: outputOf },
          target: 'failed',
          actions: { type: 'reportContinuationFailure', params: outputOf },
        },
        { target: 'done', actions: { type: 'storeHandover', params: outputOf } },
      ],
      onError: failTo('failed'),
    },
  }) as const;
