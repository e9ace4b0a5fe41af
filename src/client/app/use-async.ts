// Loads something for a view and cancels the call when the view goes away or `load` changes.
// Pass a stable `load` (useCallback); failures were handled by the api layer, the view only stops.
import { useEffect, useState } from 'react';

export type AsyncState<T> =
  { status: 'loading' } | { status: 'done'; value: T } | { status: 'failed'; error: unknown };

export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>): AsyncState<T> {
  const [state, setState] = useState<{ load: typeof load; state: AsyncState<T> }>({
    load,
    state: { status: 'loading' },
  });
  // A new `load` starts over from loading (state derived during render, not in the effect).
  let current = state;
  if (state.load !== load) {
    current = { load, state: { status: 'loading' } };
    setState(current);
  }

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setState({ load, state: { status: 'done', value } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ load, state: { status: 'failed', error } });
      },
    );
    return () => controller.abort();
  }, [load]);

  return current.state;
}
