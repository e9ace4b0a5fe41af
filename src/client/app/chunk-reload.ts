// Section 8: a lazily loaded chunk that fails to load (usually: a new release replaced it) triggers
// one page reload. Each failure is remembered for the tab, so a chunk that fails again after the
// reload shows the route's error page instead of reloading forever.
import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

const KEY = 'portal.chunkReloads';

export type ReloadPage = () => void;

const reloadWindow: ReloadPage = () => window.location.reload();

function reloadedFor(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** A failure's identity: its message names the chunk's URL (hashed file name). */
function failureKey(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * Reloads the page for this failure unless it already caused a reload in this tab (or storage is
 * unavailable, so a loop could not be prevented). Returns whether the page is reloading.
 */
export function reloadForChunkFailure(error: unknown, fallbackKey = 'chunk', reload = reloadWindow): boolean {
  const key = failureKey(error, fallbackKey);
  const seen = reloadedFor();
  if (seen.includes(key)) return false;
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify([...seen, key]));
  } catch {
    return false;
  }
  reload();
  return true;
}

export class ChunkLoadTimeoutError extends Error {
  override readonly name = 'ChunkLoadTimeoutError';
}

export interface LoadChunkOptions {
  /** Section 9: 120 s. */
  timeoutMs?: number;
  reload?: ReloadPage;
}

/**
 * Loads a lazy chunk within the time-out; on failure reloads the page once (the returned promise
 * then never settles: the page is going away) or rethrows for the route's error element.
 */
export function loadChunk<T>(
  load: () => Promise<T>,
  name: string,
  { timeoutMs = CHUNK_LOAD_TIMEOUT_MS, reload = reloadWindow }: LoadChunkOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadTimeoutError(`Loading ${name} took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }).catch((error: unknown) => {
    if (reloadForChunkFailure(error, name, reload)) return new Promise<T>(() => {});
    throw error;
  });
}

/** Vite's event for a failed preload of a dynamic import's dependencies. */
export function installPreloadErrorReload(target: Window = window, reload = reloadWindow): () => void {
  const onPreloadError = (event: Event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (reloadForChunkFailure(payload, 'preload', reload)) event.preventDefault();
  };
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
