// Calls made by flow actors. A call whose actor was stopped (the machine left the state, or React's
// StrictMode remounted the page) is aborted; its rejection must not reach the machine, because
// @xstate/react restores a remounted actor's children as active and would deliver it as an error.

/** Runs `call` with the actor's signal; once the signal is aborted the result never settles. */
export function unlessAborted<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return call(signal).catch((error: unknown) => {
    if (signal.aborted) return new Promise<T>(() => {});
    throw error;
  });
}
