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
    this.#connection = new PGliteConnection(this.#pglite);
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

class PGliteConnection implements DatabaseConnection {
  constructor(readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters], {
      rowMode: 'object',
    });
    const command = result.command?.toUpperCase();
    return {
      rows: result.rows ?? [],
      numAffectedRows:
        command && AFFECTING_COMMANDS.has(command)
          ? BigInt(result.rowCount ?? result.affectedRows ?? 0)
          : undefined,
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
