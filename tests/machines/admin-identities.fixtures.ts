// Fakes shared by the hand-written tests of the admin identity machines (the identity page, the
// identity search, the roles lists) and the apps screen: an actor that answers from a script and
// records what it was asked, and an answer held back until the test lets it through.
import { fromPromise, type NonReducibleUnknown } from 'xstate';

/** One scripted answer: a value, an Error the actor rejects with, or a promise still to settle. */
export type Answer<T> = T | Error | Promise<T>;

/** An answer the test settles when it wants, to look at the machine while the call is under way. */
export function held<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * A fake promise actor: each call pushes its input to `calls` and takes the next scripted answer.
 * A call beyond the script rejects, naming `what`, so an unexpected call fails the test visibly.
 */
export function scripted<Output, Input = NonReducibleUnknown>(
  what: string,
  answers: Array<Answer<Output>>,
  calls: Input[] = [],
) {
  const queue = [...answers];
  return fromPromise<Output, Input>(async ({ input }) => {
    calls.push(input);
    const next = queue.shift();
    if (next === undefined) throw new Error(`No ${what} answer scripted`);
    if (next instanceof Error) throw next;
    return next;
  });
}
