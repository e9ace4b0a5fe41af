// A scripted fake API as the machine's actors: each call waits until the path being executed says
// how it ends (xstate.done.actor.<id> resolves it with the event's output, xstate.error.actor.<id>
// rejects it with the event's error), and every call is recorded with its input.
import { waitFor } from '@testing-library/react';
import { fromPromise, type AnyActorLogic } from 'xstate';

interface PendingCall {
  src: string;
  input: unknown;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

export interface RecordedCall {
  src: string;
  input: unknown;
}

export function scriptedApi<Src extends string>(sources: readonly Src[]) {
  const pending: PendingCall[] = [];
  const calls: RecordedCall[] = [];

  const actors = Object.fromEntries(
    sources.map((src) => [
      src,
      fromPromise<unknown, unknown>(
        ({ input, signal }) =>
          new Promise((resolve, reject) => {
            const call: PendingCall = { src, input, resolve, reject };
            pending.push(call);
            calls.push({ src, input });
            signal.addEventListener('abort', () => {
              const index = pending.indexOf(call);
              if (index >= 0) pending.splice(index, 1);
            });
          }),
      ),
    ]),
  ) as Record<Src, AnyActorLogic>;

  /** The call of `src` that is waiting for its answer (waits for the machine to make it). */
  async function waiting(src: Src): Promise<PendingCall> {
    let found: PendingCall | undefined;
    await waitFor(() => {
      found = pending.find((call) => call.src === src);
      if (!found) throw new Error(`No call of ${src} is waiting for an answer`);
    });
    return found as PendingCall;
  }

  /** Answers the waiting call of the event's actor as the event says. */
  async function answer(event: { type: string; output?: unknown; error?: unknown }): Promise<void> {
    const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    if (!match) throw new Error(`${event.type} is not an actor outcome`);
    const call = await waiting(match[2] as Src);
    pending.splice(pending.indexOf(call), 1);
    if (match[1] === 'done') call.resolve(event.output);
    else call.reject(event.error ?? new Error(`${match[2]} failed`));
  }

  const lastCall = (src: Src): RecordedCall | undefined => calls.filter((c) => c.src === src).at(-1);

  return { actors, answer, waiting, calls, lastCall };
}

export type ScriptedApi<Src extends string> = ReturnType<typeof scriptedApi<Src>>;
