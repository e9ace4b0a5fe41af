// A read-through cache for the embedded database (PGlite), for the reads nearly every call makes:
// the session a cookie names and the signed-in identity with its roles.
//
// Why it is coherent: PGlite is one backend inside this process, reached only through our driver
// (pglite-dialect.ts), one statement at a time. The driver calls invalidate() before every
// statement that is not a plain SELECT (writes, transaction control, DDL), which empties the cache
// and moves its generation on. A value loaded is stored only if no such statement ran between the
// start of its load and its end, so the cache only ever holds what a read would return now: a hit
// is exactly the row a fresh SELECT would give. Time is never part of a cached read (the caller
// compares expiry times itself), and entries are copies (copyOf), so no caller can change what the
// next one sees.
//
// PostgreSQL gets no cache: other instances write to the same database (README, scaling out), and
// only the database knows what they changed.

/** Entries kept at most (least recently used go first); a session row is about 1 KB. */
export const READ_CACHE_MAX_ENTRIES = 5_000;

/**
 * A deep copy of a row: plain objects, arrays and dates copied by hand (a row is made of nothing
 * else, and this is several times faster than structuredClone), anything else by structuredClone.
 */
export function copyOf<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(copyOf) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    const copy = copyOf((value as Record<string, unknown>)[key]);
    // A JSON column may hold a "__proto__" key: it stays a key, never the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}

export class ReadCache {
  #generation = 0;
  readonly #entries = new Map<string, unknown>();

  constructor(private readonly maxEntries = READ_CACHE_MAX_ENTRIES) {}

  /** Moves on with every statement that may change data: everything cached is forgotten. */
  invalidate(): void {
    this.#generation++;
    if (this.#entries.size > 0) this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value cached under `key`, or what `load` reads (kept when nothing wrote meanwhile). */
  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.#entries.has(key)) {
      const value = this.#entries.get(key) as T;
      this.#entries.delete(key);
      this.#entries.set(key, value);
      return copyOf(value);
    }
    const generation = this.#generation;
    const value = await load();
    if (generation === this.#generation) {
      this.#entries.set(key, copyOf(value));
      if (this.#entries.size > this.maxEntries) {
        const oldest = this.#entries.keys().next().value as string;
        this.#entries.delete(oldest);
      }
    }
    return value;
  }
}

/** Through the cache when there is one (PGlite), straight to the database otherwise. */
export function readThrough<T>(cache: ReadCache | null, key: string, load: () => Promise<T>): Promise<T> {
  return cache ? cache.read(key, load) : load();
}
