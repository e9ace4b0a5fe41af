// Section 8: a failed lazy chunk triggers one page reload; the same failure again does not loop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ChunkLoadTimeoutError,
  installPreloadErrorReload,
  loadChunk,
  reloadForChunkFailure,
} from '../../src/client/app/chunk-reload';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../src/client/app/constants';

const failed = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

afterEach(() => {
  vi.useRealTimers();
});

describe('loadChunk', () => {
  it('resolves with the module when it loads', async () => {
    const reload = vi.fn();
    await expect(loadChunk(() => Promise.resolve({ default: 1 }), 'Page', { reload })).resolves.toEqual({
      default: 1,
    });
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page once when a chunk fails, and leaves the promise pending', async () => {
    const reload = vi.fn();
    const settled = vi.fn();
    void loadChunk(() => Promise.reject(failed('/assets/Page-abc.js')), 'Page', { reload }).then(
      settled,
      settled,
    );
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(settled).not.toHaveBeenCalled();
  });

  it('does not reload again for the same failure after the reload: the error reaches the route', async () => {
    const reload = vi.fn();
    void loadChunk(() => Promise.reject(failed('/assets/Page-abc.js')), 'Page', { reload });
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    // The reloaded page meets the same broken chunk.
    await expect(
      loadChunk(() => Promise.reject(failed('/assets/Page-abc.js')), 'Page', { reload }),
    ).rejects.toThrow('Page-abc.js');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a different chunk failing later may reload once more', () => {
    const reload = vi.fn();
    expect(reloadForChunkFailure(failed('/assets/A-1.js'), 'A', reload)).toBe(true);
    expect(reloadForChunkFailure(failed('/assets/B-1.js'), 'B', reload)).toBe(true);
    expect(reloadForChunkFailure(failed('/assets/A-1.js'), 'A', reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('a chunk that takes longer than 120 s counts as failed', async () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    void loadChunk(() => new Promise(() => {}), 'Slow', { reload });
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(new ChunkLoadTimeoutError('x').name).toBe('ChunkLoadTimeoutError');
  });
});

describe('vite:preloadError', () => {
  it('reloads once and prevents the default error, then lets the error through', () => {
    const reload = vi.fn();
    const uninstall = installPreloadErrorReload(window, reload);
    const fire = () => {
      const event = new Event('vite:preloadError', { cancelable: true }) as Event & { payload?: unknown };
      event.payload = new Error('Unable to preload CSS for /assets/Page-abc.css');
      window.dispatchEvent(event);
      return event;
    };
    expect(fire().defaultPrevented).toBe(true);
    expect(fire().defaultPrevented).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    uninstall();
  });
});
