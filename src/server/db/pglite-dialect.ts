// Our own Kysely dialect for PGlite (PostgreSQL compiled to WebAssembly, one in-process backend).
// PGlite has a single connection, so a transaction is a property of the whole database: while one
// request runs BEGIN ... COMMIT, no statement of any other request may run, or it would land inside
// that transaction. The driver therefore hands its one connection out under a FIFO mutex: Kysely
// acquires it for a single query or for a whole transaction and releases it afterwards.
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { MessageWriter, PGliteDatabaseError, readStatementResult, type TypeParsers } from './pglite-protocol';

/** A FIFO mutex: `lock()` resolves with the function that releases it. */
export class Mutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  lock(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.#locked = true;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#release();
        });
      };
      if (this.#locked) this.#waiters.push(grant);
      else grant();
    });
  }

  get pending(): number {
    return this.#waiters.length;
  }

  #release() {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

export interface PGliteDialectConfig {
  /** The PGlite instance, or a factory called once at driver init. */
  pglite: PGlite | (() => Promise<PGlite>);
  /** Whether `destroy()` closes the PGlite instance (default true). */
  closeOnDestroy?: boolean;
  /**
   * Called before every statement that is not a plain SELECT (a write, transaction control, DDL):
   * the read cache's invalidation (read-cache.ts).
   */
  onWrite?: () => void;
}

export class PGliteDialect implements Dialect {
  constructor(readonly config: PGliteDialectConfig) {}
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.config);
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

class PGliteDriver implements Driver {
  readonly #config: PGliteDialectConfig;
  readonly #mutex = new Mutex();
  #pglite: PGlite | undefined;
  #connection: PGliteConnection | undefined;
  #release: (() => void) | undefined;

  constructor(config: PGliteDialectConfig) {
    this.#config = config;
  }

  async init(): Promise<void> {
    const { pglite } = this.#config;
    this.#pglite = typeof pglite === 'function' ? await pglite() : pglite;
    if (this.#pglite.closed) throw new Error('The PGlite instance is closed');
    await this.#pglite.waitReady;
    // Statements are kept prepared (see PGliteConnection): plan them once, not per execution.
    await this.#pglite.exec('set plan_cache_mode = force_generic_plan');
    this.#connection = new PGliteConnection(this.#pglite, this.#config.onWrite);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    if (!this.#connection) {
      release();
      throw new Error('The PGlite driver has been destroyed');
    }
    this.#release = release;
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = 'start transaction';
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(text));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdentifier(name)}`));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    // Wait for whoever holds the connection, then keep it forever.
    await this.#mutex.lock();
    const pglite = this.#pglite;
    this.#connection = undefined;
    this.#pglite = undefined;
    if (pglite && this.#config.closeOnDestroy !== false && !pglite.closed) await pglite.close();
  }
}

const AFFECTING_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** A parameter in PostgreSQL's text format, as node-postgres sends it (the server infers types). */
export function toParameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayLiteral(v);
    const text = toParameterText(v) ?? '';
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

/** Statements that change nothing: a SELECT (a WITH may hold a write). */
const READ_ONLY = /^\s*select\b/i;
/** Statements worth keeping prepared: data statements, not DDL or transaction control. */
const CACHEABLE = /^\s*(select|insert|update|delete|with)\b/i;
const STATEMENT_CACHE_SIZE = 256;
/** SQLSTATE of "cached plan must not change result type" (a table changed under a statement). */
const FEATURE_NOT_SUPPORTED = '0A000';
/** SQLSTATE of "prepared statement does not exist". */
const INVALID_STATEMENT_NAME = '26000';

class PGliteConnection implements DatabaseConnection {
  /** SQL text -> name of the prepared statement, least recently used first. */
  readonly #prepared = new Map<string, string>();
  #nextName = 0;

  constructor(
    readonly pglite: PGlite,
    private readonly onWrite: (() => void) | undefined,
  ) {}

  /**
   * One round trip into the WebAssembly backend per statement (Parse, Bind, Describe, Execute,
   * Sync in one message) instead of PGlite's query(), which asks for the parameter types first in
   * separate round trips; the answer is decoded by our own small reader (pglite-protocol.ts).
   * Data statements are kept prepared by SQL text, so a hot statement is parsed and planned once
   * per process rather than on every request.
   */
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (this.pglite.closed) throw new Error('The PGlite instance is closed');
    if (this.onWrite && !READ_ONLY.test(compiledQuery.sql)) this.onWrite();
    try {
      return await this.#run<R>(compiledQuery);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== FEATURE_NOT_SUPPORTED && code !== INVALID_STATEMENT_NAME) throw error;
      if (!this.#prepared.delete(compiledQuery.sql)) throw error;
      return this.#run<R>(compiledQuery);
    }
  }

  async #run<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql } = compiledQuery;
    const writer = new MessageWriter();
    let statement = '';
    let parsed = false;
    if (CACHEABLE.test(sql)) {
      const known = this.#prepared.get(sql);
      if (known) {
        statement = known;
        this.#prepared.delete(sql);
        this.#prepared.set(sql, known);
      } else {
        statement = `kysely_${this.#nextName++}`;
        writer.parse(statement, sql);
        parsed = true;
        this.#prepared.set(sql, statement);
        if (this.#prepared.size > STATEMENT_CACHE_SIZE) {
          const [oldestSql, oldestName] = this.#prepared.entries().next().value as [string, string];
          this.#prepared.delete(oldestSql);
          writer.closeStatement(oldestName);
        }
      }
    } else {
      // DDL may change what cached statements return: forget them all.
      for (const name of this.#prepared.values()) writer.closeStatement(name);
      this.#prepared.clear();
      writer.parse('', sql);
    }
    writer.bind(statement, compiledQuery.parameters.map(toParameterText)).describePortal().execute().sync();

    const chunks: Uint8Array[] = [];
    // syncToFs only matters for browser file systems (IndexedDB, OPFS); in Node the data
    // directory is written through, and the call alone costs more than a small statement.
    await this.pglite.execProtocolRawStream(writer.toBytes(), {
      syncToFs: false,
      // The chunk is a view of WebAssembly memory that the next write reuses: copy it.
      onRawData: (chunk) => chunks.push(chunk.slice()),
    });
    const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks);
    let result;
    try {
      result = readStatementResult(bytes, this.pglite.parsers as TypeParsers);
    } catch (error) {
      // A statement whose Parse failed was never created: do not name it again.
      if (parsed && error instanceof PGliteDatabaseError && !error.statementCreated)
        this.#prepared.delete(sql);
      throw error;
    }
    const command = result.command?.toUpperCase();
    return {
      rows: result.rows as R[],
      numAffectedRows: command && AFFECTING_COMMANDS.has(command) ? BigInt(result.rowCount ?? 0) : undefined,
    };
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize = 100,
  ): AsyncIterableIterator<QueryResult<R>> {
    // PGlite materialises results; stream them in chunks for API compatibility.
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}
