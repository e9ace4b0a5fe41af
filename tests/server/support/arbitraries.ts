// valibot -> fast-check: walks a contract schema (src/contract) and produces values for it, either
// VALID (built to satisfy every constraint the schema states: lengths, email, dates, digits, regex,
// numeric bounds, picklists, required and optional keys) or MUTATED (a valid value broken in one
// place: a wrong type, an oversized or hostile string, a missing or extra key, a null, a
// prototype-pollution key, a huge or non-finite number, a numeric-looking string). The fuzz suite
// (tests/server/fuzz.test.ts) sends both to every /rest/ui/ call.
//
// Only the parts of valibot the contract uses are understood; anything else falls back to
// arbitrary JSON, so a new schema kind weakens the valid half rather than breaking the suite.
import fc from 'fast-check';
import * as v from 'valibot';

/** The structural view of a valibot schema or pipe action this walker reads. */
interface Node {
  kind: 'schema' | 'validation' | 'transformation' | 'metadata';
  type: string;
  requirement?: unknown;
  pipe?: readonly Node[];
  entries?: Record<string, Node>;
  wrapped?: Node;
  item?: Node;
  options?: readonly unknown[];
  literal?: unknown;
  default?: unknown;
}

/**
 * Realistic values by object key (or path parameter) name: the demo's app codes, usernames,
 * questions, the demo password. Mixed in with generated values so that valid requests also reach
 * the branches behind "is this a known app / the right password", not only "unknown".
 */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** What a pipe says about the value, gathered from its actions (outer pipes apply to unions too). */
interface Constraints {
  minLength?: number;
  maxLength?: number;
  length?: number;
  nonEmpty?: boolean;
  trim?: boolean;
  email?: boolean;
  isoDate?: boolean;
  isoTimestamp?: boolean;
  digits?: boolean;
  url?: boolean;
  regex?: RegExp;
  check?: boolean;
  integer?: boolean;
  minValue?: number;
  maxValue?: number;
}

const asNode = (schema: unknown) => schema as Node;

/** The schema under its pipes, and every action of those pipes (nested pipes and piped schemas too). */
function unpipe(schema: Node): { root: Node; actions: Node[] } {
  if (!schema.pipe) return { root: schema, actions: [] };
  const [first, ...rest] = schema.pipe;
  const inner = unpipe(first!);
  const actions = [...inner.actions];
  for (const item of rest) {
    if (item.kind === 'schema') actions.push(...unpipe(item).actions);
    else actions.push(item);
  }
  return { root: inner.root, actions };
}

function constraintsOf(actions: readonly Node[], outer: Constraints = {}): Constraints {
  const c: Constraints = { ...outer };
  for (const action of actions) {
    const r = action.requirement;
    switch (action.type) {
      case 'min_length':
        c.minLength = Math.max(c.minLength ?? 0, r as number);
        break;
      case 'max_length':
        c.maxLength = Math.min(c.maxLength ?? Infinity, r as number);
        break;
      case 'length':
        c.length = r as number;
        break;
      case 'non_empty':
        c.nonEmpty = true;
        break;
      case 'trim':
        c.trim = true;
        break;
      case 'email':
        c.email = true;
        break;
      case 'iso_date':
        c.isoDate = true;
        break;
      case 'iso_timestamp':
        c.isoTimestamp = true;
        break;
      case 'digits':
        c.digits = true;
        break;
      case 'url':
        c.url = true;
        break;
      case 'regex':
        c.regex = r as RegExp;
        break;
      case 'check':
        c.check = true;
        break;
      case 'integer':
        c.integer = true;
        break;
      case 'min_value':
        c.minValue = Math.max(c.minValue ?? -Infinity, r as number);
        break;
      case 'max_value':
        c.maxValue = Math.min(c.maxValue ?? Infinity, r as number);
        break;
      default:
        break;
    }
  }
  return c;
}

// ---- building blocks -------------------------------------------------------------------------

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alnumChar = fc.constantFrom(...ALNUM.split(''));
const digitChar = fc.constantFrom(...'0123456789'.split(''));

/** Strings that break naive handling: control characters, lone surrogates, bidi, injections. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '   \t\n ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  '\uFFFF',
  '\uFEFF',
  '\u202Eevil',
  '\u200B',
  'e\u0301\u0301\u0301',
  '😀',
  '👩‍👩‍👧‍👦',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '１２３',
  'İıſK',
  "' OR '1'='1' --",
  '"; drop table identities; --',
  '../../etc/passwd',
  '..',
  '%00',
  '%2F',
  '%',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '\\',
  '\r\n',
];

/** Numeric-looking strings that are not (safely) numbers. */
export const NAN_ISH_STRINGS: readonly string[] = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e21',
  '9007199254740993',
  '99999999999999999999999',
  '0x10',
  '0b11',
  '0o7',
  '1_000',
  ' 1 ',
  '1.5',
  '-1',
  '-0',
  '+1',
  '1e2',
  '.5',
  '٣',
  '１',
];

export const HUGE_NUMBERS: readonly number[] = [
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
  -1e21,
  2 ** 31,
  2 ** 63,
  -1,
  -0,
  0.5,
  1e-7,
];

/** Keys that attack the object model of whatever reads the JSON. */
export const POISON_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
];

/** Sets `key` as an own, enumerable property (even `__proto__`), so JSON.stringify sends it. */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

const poisonValue = fc.constantFrom<unknown>(
  { isAdmin: true, polluted: 'yes' },
  { prototype: { isAdmin: true } },
  'polluted',
  null,
  [],
);

/** Any JSON value, small. */
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** A value of the wrong type for nearly any schema. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(...HUGE_NUMBERS),
  fc.constantFrom(...NAN_ISH_STRINGS),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constant([]),
  fc.constant({}),
  anyJson,
);

/**
 * fc.string arbitraries by unit and length. Building one over a large unit (binary, grapheme) maps
 * the whole unit's alphabet; the walker would otherwise do that once per schema node.
 */
const stringCache = new Map<string, fc.Arbitrary<string>>();
function cachedString(unit: 'binary' | 'grapheme' | 'grapheme-ascii', minLength: number, maxLength: number) {
  const key = `${unit}:${minLength}:${maxLength}`;
  let arbitrary = stringCache.get(key);
  if (!arbitrary) {
    arbitrary = fc.string({ unit, minLength, maxLength });
    stringCache.set(key, arbitrary);
  }
  return arbitrary;
}

const dateBetween = (min: Date, max: Date) =>
  fc.date({ min, max, noInvalidDate: true }).map((d) => d.toISOString());

function isoToday(): string {
  return new Date().toISOString().slice(0, 10);
}

// ---- valid values -------------------------------------------------------------------------------

function validString(c: Constraints): fc.Arbitrary<string> {
  const lo = Math.max(c.length ?? c.minLength ?? 0, c.nonEmpty ? 1 : 0);
  const hi = Math.min(c.length ?? c.maxLength ?? lo + 40, lo + 40);
  if (c.email) {
    const word = fc.string({ unit: alnumChar, minLength: 1, maxLength: 12 });
    return fc
      .oneof(
        {
          weight: 4,
          arbitrary: fc
            .tuple(word, word, fc.constantFrom('com', 'org', 'com.au', 'example'))
            .map(([l, d, t]) => `${l}@${d}.${t}`),
        },
        { weight: 1, arbitrary: fc.emailAddress() },
      )
      .filter((s) => s.length <= (c.maxLength ?? Infinity));
  }
  if (c.isoDate) {
    return dateBetween(new Date('1900-01-01T00:00:00Z'), new Date(`${isoToday()}T00:00:00Z`)).map((s) =>
      s.slice(0, 10),
    );
  }
  if (c.isoTimestamp) return dateBetween(new Date('2000-01-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z'));
  if (c.url) return fc.webUrl();
  if (c.regex) return fc.stringMatching(c.regex).filter((s) => s.length >= lo && s.length <= hi);
  if (c.digits) {
    // Digit strings stand for numbers (page numbers): keep them within the numeric bounds.
    const max = Math.min(c.maxValue ?? 999, 999);
    const min = Math.max(c.minValue ?? 0, 0);
    return fc.integer({ min, max }).map(String);
  }
  if (c.check) {
    // The contract's only string check is the password rule (letters and digits, 14 or more).
    const len = Math.max(lo, 14);
    return fc
      .tuple(
        fc.string({ unit: alnumChar, minLength: len, maxLength: Math.max(len, Math.min(hi, len + 20)) }),
        fc.constantFrom(...'abcxyzÄé'.split('')),
        digitChar,
      )
      .map(([body, letter, digit]) => `${letter}${body}${digit}`.slice(0, Math.max(len, hi)));
  }
  const fix = (s: string) => {
    // A trimmed schema measures the trimmed text: keep enough of it.
    let out = s;
    if ((c.trim ? out.trim() : out).length < lo) out = out + 'a'.repeat(lo);
    return out.slice(0, hi + (c.trim ? out.length - out.trimEnd().length : 0));
  };
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ unit: alnumChar, minLength: lo, maxLength: hi }) },
      { weight: 2, arbitrary: cachedString('grapheme-ascii', 0, 40) },
      { weight: 1, arbitrary: cachedString('grapheme', 0, 40) },
    )
    .map(fix);
}

function validNumber(c: Constraints): fc.Arbitrary<number> {
  const min = Number.isFinite(c.minValue) ? (c.minValue as number) : -1_000_000;
  const max = Number.isFinite(c.maxValue) ? (c.maxValue as number) : 1_000_000;
  if (c.integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values the schema accepts (up to custom checks across fields, which the walker cannot read). */
export function validOf(
  schema: unknown,
  hints: Hints = {},
  key?: string,
  outer?: Constraints,
): fc.Arbitrary<unknown> {
  const node = asNode(schema);
  const { root, actions } = unpipe(node);
  const c = constraintsOf(actions, outer);
  const hint = key !== undefined ? hints[key] : undefined;
  const generated = validRoot(root, c, hints, key);
  return hint ? fc.oneof({ weight: 2, arbitrary: hint }, { weight: 3, arbitrary: generated }) : generated;
}

function validRoot(root: Node, c: Constraints, hints: Hints, key: string | undefined): fc.Arbitrary<unknown> {
  switch (root.type) {
    case 'string':
      return validString(c);
    case 'number':
      return validNumber(c);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
      return fc.constant(undefined);
    case 'literal':
      return fc.constant(root.literal);
    case 'picklist':
    case 'enum':
      return fc.constantFrom(...(root.options as unknown[]));
    case 'optional':
    case 'exact_optional':
      return fc.option(validOf(root.wrapped, hints, key, c), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(validOf(root.wrapped, hints, key, c), { nil: null, freq: 4 });
    case 'nullish':
      return fc.oneof(fc.constant(null), fc.constant(undefined), validOf(root.wrapped, hints, key, c));
    case 'union':
    case 'variant':
      return fc.oneof(...(root.options as Node[]).map((option) => validOf(option, hints, key, c)));
    case 'array':
      return fc.array(validOf(root.item, hints, key), {
        minLength: c.minLength ?? (c.nonEmpty ? 1 : 0),
        maxLength: Math.min(c.maxLength ?? 4, 4),
      });
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      const entries = root.entries ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [name, entry] of Object.entries(entries)) {
        const optional = ['optional', 'exact_optional', 'nullish'].includes(unpipe(entry).root.type);
        model[name] = optional
          ? validOf(unpipe(entry).root.wrapped, hints, name)
          : validOf(entry, hints, name);
        if (!optional) requiredKeys.push(name);
      }
      const record = fc.record(model, { requiredKeys });
      const optionalKeys = Object.keys(model).filter((name) => !requiredKeys.includes(name));
      if (!c.check || optionalKeys.length < 2) return record;
      // A check across fields (the contract's are "one of these" and "exactly one of these"):
      // half the values carry exactly one of the optional keys.
      const single = fc
        .tuple(fc.record(model, { requiredKeys: Object.keys(model) }), fc.constantFrom(...optionalKeys))
        .map(([full, keep]) =>
          Object.fromEntries(Object.entries(full).filter(([k]) => requiredKeys.includes(k) || k === keep)),
        );
      return fc.oneof(record, single);
    }
    default:
      return anyJson;
  }
}

// ---- mutated values -----------------------------------------------------------------------------

function oversized(c: Constraints): fc.Arbitrary<string> {
  const max = Number.isFinite(c.maxLength) ? (c.maxLength as number) : 1000;
  return fc.oneof(
    fc.constantFrom(max + 1, max * 4, 10_000).map((n) => 'x'.repeat(n)),
    // One code point more than fits, counted in UTF-16 units: the limit is by `length`.
    fc.constant(`${'é'.repeat(Math.max(max - 1, 0))}😀`),
    // Beyond the server's 64 KiB body limit.
    fc.constant('y'.repeat(70_000)),
  );
}

function mutatedString(c: Constraints, valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    oversized(c),
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.constantFrom(...NAN_ISH_STRINGS),
    // A valid value spoiled at the edges.
    fc
      .tuple(valid, fc.constantFrom(...HOSTILE_STRINGS), fc.boolean())
      .map(([s, bad, before]) => (typeof s === 'string' ? (before ? bad + s : s + bad) : bad)),
    cachedString('binary', 0, 40),
    cachedString('grapheme', 1, 40),
  );
}

function mutatedNumber(c: Constraints): fc.Arbitrary<unknown> {
  const edges: number[] = [];
  if (Number.isFinite(c.minValue)) edges.push((c.minValue as number) - 1, (c.minValue as number) - 0.5);
  if (Number.isFinite(c.maxValue)) edges.push((c.maxValue as number) + 1, (c.maxValue as number) + 0.5);
  return fc.oneof(
    fc.constantFrom(...HUGE_NUMBERS, ...(edges.length ? edges : [-1])),
    fc.constantFrom(...NAN_ISH_STRINGS),
    fc.double(),
    fc.integer().map(String),
  );
}

/** Values the schema should refuse: one place of a valid value broken. */
export function mutatedOf(
  schema: unknown,
  hints: Hints = {},
  key?: string,
  outer?: Constraints,
): fc.Arbitrary<unknown> {
  const node = asNode(schema);
  const { root, actions } = unpipe(node);
  const c = constraintsOf(actions, outer);
  return fc.oneof(
    { weight: 1, arbitrary: wrongType },
    { weight: 3, arbitrary: mutatedRoot(root, c, hints, key) },
  );
}

function mutatedRoot(
  root: Node,
  c: Constraints,
  hints: Hints,
  key: string | undefined,
): fc.Arbitrary<unknown> {
  switch (root.type) {
    case 'string':
      return mutatedString(c, validString(c));
    case 'number':
      return mutatedNumber(c);
    case 'boolean':
      return fc.constantFrom('true', 'false', 0, 1, 'yes', 'on', null, [true]);
    case 'picklist':
    case 'enum': {
      const options = (root.options as unknown[]).map(String);
      return fc.oneof(
        fc.constantFrom(...options).map((o) => o.toLowerCase()),
        fc.constantFrom(...options).map((o) => ` ${o} `),
        fc.constantFrom(...options).map((o) => [o]),
        fc.constantFrom(...HOSTILE_STRINGS),
      );
    }
    case 'literal':
      return fc.constantFrom(String(root.literal), null, [root.literal]);
    case 'optional':
    case 'exact_optional':
    case 'nullable':
    case 'nullish':
      return mutatedOf(root.wrapped, hints, key, c);
    case 'union':
    case 'variant':
      return fc.oneof(...(root.options as Node[]).map((option) => mutatedOf(option, hints, key, c)));
    case 'array': {
      const item = validOf(root.item, hints, key);
      return fc.oneof(
        fc.array(mutatedOf(root.item, hints, key), { minLength: 1, maxLength: 3 }),
        // Far more items than any form sends.
        item.map((one) => Array.from({ length: 2_000 }, () => one)),
        item.map((one) => ({ 0: one, length: 1 })),
        item,
      );
    }
    case 'object':
    case 'strict_object':
    case 'loose_object':
      return mutatedObject(root, hints);
    default:
      return wrongType;
  }
}

function mutatedObject(root: Node, hints: Hints): fc.Arbitrary<unknown> {
  const entries = root.entries ?? {};
  const names = Object.keys(entries);
  const valid = validRoot(root, {}, hints, undefined) as fc.Arbitrary<Record<string, unknown>>;
  const copy = (o: Record<string, unknown>) => ({ ...o });
  const variants: fc.Arbitrary<unknown>[] = [
    // An extra key: unknown, or one that attacks the object model.
    fc
      .tuple(valid, fc.oneof(fc.constantFrom(...POISON_KEYS), fc.string({ maxLength: 12 })), poisonValue)
      .map(([o, k, val]) => withOwnKey(copy(o), k, val)),
    // Nested pollution: {"constructor": {"prototype": {...}}}.
    valid.map((o) => withOwnKey(copy(o), 'constructor', { prototype: { isAdmin: true } })),
    // Not an object at all.
    valid.map((o) => Object.values(o)),
  ];
  if (names.length > 0) {
    const name = fc.constantFrom(...names);
    variants.push(
      // A key missing.
      fc.tuple(valid, name).map(([o, k]) => {
        const out = copy(o);
        delete out[k];
        return out;
      }),
      // A key null.
      fc.tuple(valid, name).map(([o, k]) => ({ ...o, [k]: null })),
      // One entry mutated (recursively); built once per key, not per value.
      fc
        .tuple(
          valid,
          fc.oneof(...names.map((k) => fc.tuple(fc.constant(k), mutatedOf(entries[k], hints, k)))),
        )
        .map(([o, [k, bad]]) => ({ ...o, [k]: bad })),
      // Every key with the wrong type.
      fc
        .tuple(...names.map(() => wrongType))
        .map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]]))),
    );
  }
  return fc.oneof(...variants);
}

/** Valid and mutated values, about half each. */
export function fuzzOf(schema: unknown, hints: Hints = {}): fc.Arbitrary<unknown> {
  return fc.oneof(validOf(schema, hints), mutatedOf(schema, hints));
}

/** Whether `value` passes `schema` (the suite reports how many cases did, so it knows it got past validation). */
export function passes(schema: unknown, value: unknown): boolean {
  return v.safeParse(schema as v.GenericSchema, value).success;
}
