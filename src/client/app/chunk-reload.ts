// Section 8: a lazily loaded chunk that fails to load (usually: a new release replaced it) triggers
// one page reload. Each failure is remembered for the tab, so a chunk that fails again after the
// reload shows the route's error page instead of reloading forever.
import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

const KEY = 'portal.chunkReloads';

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
export function reloadForChunkFailure(error: unknown, fallbackKey = 'chunk'): boolean {
  const key = failureKey(error, fallbackKey);
  const seen = reloadedFor();
  if (seen.includes(key)) return false;
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify([...seen, key]));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

export class ChunkLoadTimeoutError extends Error {
  override readonly name = 'ChunkLoadTimeoutError';
}

/**
 * Loads a lazy chunk with section 9's 120 s time-out; on failure reloads the page once (the
 * returned promise then never settles, the page is going away) or rethrows for the error element.
 */
export function loadChunk<T>(
  load: () => Promise<T>,
  name: string,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
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
    if (reloadForChunkFailure(error, name)) return new Promise<T>(() => {});
    throw error;
  });
}

/** Vite's event for a failed preload of a dynamic import's dependencies. */
export function installPreloadErrorReload(target: Window = window): () => void {
  const onPreloadError = (event: Event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (reloadForChunkFailure(payload, 'preload')) event.preventDefault();
  };
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
