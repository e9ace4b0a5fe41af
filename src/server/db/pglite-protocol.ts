// The few PostgreSQL wire-protocol messages our PGlite dialect exchanges, encoded and decoded
// here rather than through PGlite's general-purpose reader: on the sign-in hot path PGlite's own
// message parsing was a quarter of the event loop's time. Frontend: Parse, Bind, Describe,
// Execute, Close, Sync. Backend: RowDescription, DataRow, CommandComplete, ErrorResponse (the
// rest is skipped). All values travel in text format.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Builds one buffer of frontend messages. */
export class MessageWriter {
  #buf = new Uint8Array(1024);
  #view = new DataView(this.#buf.buffer);
  #pos = 0;

  #ensure(n: number) {
    if (this.#pos + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.#pos));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }
  #byte(b: number) {
    this.#ensure(1);
    this.#buf[this.#pos++] = b;
  }
  #int16(n: number) {
    this.#ensure(2);
    this.#view.setInt16(this.#pos, n);
    this.#pos += 2;
  }
  #int32(n: number) {
    this.#ensure(4);
    this.#view.setInt32(this.#pos, n);
    this.#pos += 4;
  }
  #bytes(b: Uint8Array) {
    this.#ensure(b.length);
    this.#buf.set(b, this.#pos);
    this.#pos += b.length;
  }
  #cstring(s: string) {
    this.#bytes(encoder.encode(s));
    this.#byte(0);
  }
  /** Writes a message: type byte, then a length placeholder filled in once `body` has run. */
  #message(type: number, body: () => void) {
    this.#byte(type);
    const at = this.#pos;
    this.#int32(0);
    body();
    this.#view.setInt32(at, this.#pos - at);
  }

  parse(name: string, text: string): this {
    this.#message(0x50, () => {
      this.#cstring(name);
      this.#cstring(text);
      this.#int16(0); // the server infers every parameter's type
    });
    return this;
  }

  bind(statement: string, values: ReadonlyArray<string | null>): this {
    this.#message(0x42, () => {
      this.#cstring(''); // unnamed portal
      this.#cstring(statement);
      this.#int16(0); // all parameters in text format
      this.#int16(values.length);
      for (const value of values) {
        if (value === null) {
          this.#int32(-1);
        } else {
          const bytes = encoder.encode(value);
          this.#int32(bytes.length);
          this.#bytes(bytes);
        }
      }
      this.#int16(0); // all results in text format
    });
    return this;
  }

  describePortal(): this {
    this.#message(0x44, () => {
      this.#byte(0x50);
      this.#cstring('');
    });
    return this;
  }

  execute(): this {
    this.#message(0x45, () => {
      this.#cstring('');
      this.#int32(0);
    });
    return this;
  }

  closeStatement(name: string): this {
    this.#message(0x43, () => {
      this.#byte(0x53);
      this.#cstring(name);
    });
    return this;
  }

  sync(): this {
    this.#message(0x53, () => {});
    return this;
  }

  toBytes(): Uint8Array {
    return this.#buf.slice(0, this.#pos);
  }
}

/** An ErrorResponse, with the fields pg's DatabaseError has (Kysely and our code read `code`). */
export class PGliteDatabaseError extends Error {
  severity?: string;
  code?: string;
  detail?: string;
  hint?: string;
  position?: string;
  where?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  constraint?: string;
  /** Whether the backend confirmed a Parse before the error (the named statement exists). */
  statementCreated = false;
  constructor(message: string) {
    super(message);
    this.name = 'PGliteDatabaseError';
  }
}

const ERROR_FIELDS: Record<string, keyof PGliteDatabaseError> = {
  V: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
};

export interface StatementResult {
  fields: Array<{ name: string; typeOid: number }>;
  rows: Record<string, unknown>[];
  /** The command tag's verb (INSERT, UPDATE, SELECT...). */
  command: string | null;
  /** The command tag's row count, when it has one. */
  rowCount: number | null;
}

export type TypeParsers = Record<number, ((text: string, typeOid: number) => unknown) | undefined>;

/** Decodes the backend's answer to one statement; throws its ErrorResponse if it has one. */
export function readStatementResult(bytes: Uint8Array, parsers: TypeParsers): StatementResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const result: StatementResult = { fields: [], rows: [], command: null, rowCount: null };
  let error: PGliteDatabaseError | null = null;
  let parseComplete = false;
  let pos = 0;

  const cstring = (from: number): [string, number] => {
    let end = from;
    while (bytes[end] !== 0) end++;
    return [decoder.decode(bytes.subarray(from, end)), end + 1];
  };

  while (pos + 5 <= bytes.length) {
    const type = bytes[pos]!;
    const length = view.getInt32(pos + 1);
    const body = pos + 5;
    const next = pos + 1 + length;
    switch (type) {
      case 0x54: {
        // RowDescription
        const count = view.getInt16(body);
        let p = body + 2;
        result.fields = [];
        for (let i = 0; i < count; i++) {
          const [name, after] = cstring(p);
          const typeOid = view.getInt32(after + 6);
          result.fields.push({ name, typeOid });
          p = after + 18;
        }
        break;
      }
      case 0x44: {
        // DataRow
        const count = view.getInt16(body);
        let p = body + 2;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < count; i++) {
          const size = view.getInt32(p);
          p += 4;
          const field = result.fields[i];
          const name = field?.name ?? `?column?${i}`;
          if (size < 0) {
            row[name] = null;
            continue;
          }
          const text = decoder.decode(bytes.subarray(p, p + size));
          p += size;
          const parser = field ? parsers[field.typeOid] : undefined;
          row[name] = parser ? parser(text, field!.typeOid) : text;
        }
        result.rows.push(row);
        break;
      }
      case 0x43: {
        // CommandComplete: e.g. "INSERT 0 1", "UPDATE 2", "SELECT 3"
        const [tag] = cstring(body);
        const parts = tag.split(' ');
        result.command = parts[0] ?? null;
        const last = Number(parts.at(-1));
        result.rowCount = parts.length > 1 && Number.isFinite(last) ? last : null;
        break;
      }
      case 0x45: {
        // ErrorResponse: (field code, cstring)* then 0
        const fields: Record<string, string> = {};
        let p = body;
        while (bytes[p] !== 0 && p < next) {
          const code = String.fromCharCode(bytes[p]!);
          const [value, after] = cstring(p + 1);
          fields[code] = value;
          p = after;
        }
        error ??= new PGliteDatabaseError(fields.M ?? 'Database error');
        for (const [code, key] of Object.entries(ERROR_FIELDS)) {
          if (fields[code] !== undefined) (error as unknown as Record<string, string>)[key] = fields[code]!;
        }
        if (!error.severity && fields.S) error.severity = fields.S;
        break;
      }
      case 0x31:
        parseComplete = true;
        break;
      default:
        // BindComplete, CloseComplete, NoData, ReadyForQuery, notices...
        break;
    }
    pos = next;
  }
  if (error) {
    error.statementCreated = parseComplete;
    throw error;
  }
  return result;
}
