/**
 * Canonical JSON for tool-call signatures, as specified in
 * docs/canonical-json.md. This module is the library an SDK imports: it knows
 * nothing about the difffuzz worker protocol.
 *
 * Value model (spec §2) in JavaScript terms:
 *
 * | spec type | JavaScript value                                              |
 * |-----------|---------------------------------------------------------------|
 * | null      | `null`                                                        |
 * | bool      | `true`, `false`                                               |
 * | integer   | `bigint` (any size)                                           |
 * | float     | `number` (every number, including NaN, ±Infinity and -0)      |
 * | string    | `string` (must be well-formed UTF-16: no lone surrogates)     |
 * | array     | an `Array`                                                    |
 * | object    | a {@link JsonObject}, or a plain object (see below)           |
 *
 * Integers are `bigint` and only `bigint`: a `number` is always a float. This
 * costs nothing for ordinary integers, because every integer-valued double
 * below 1e21 in magnitude prints exactly the digits of that integer (spec
 * §4.4 and §4.5), so `5` and `5n` both print `5`. It matters from 1e21 up,
 * where the float `1e21` prints `1e+21` and the integer `10n ** 21n` prints
 * `1000000000000000000000`: pass a `bigint` to sign an integer that large.
 *
 * Plain objects (prototype `Object.prototype` or `null`) are accepted for SDK
 * convenience, with the limits of JavaScript objects: they cannot hold
 * duplicate keys, an object literal cannot hold an own `__proto__` key, and
 * their members are visited in `Object.keys` order (integer-like keys first),
 * which only decides which error is reported when there are several. Own
 * enumerable symbol keys are rejected as `non_string_key`. Use
 * {@link JsonObject} when member order and duplicates must survive, as a
 * decoder of untrusted input must.
 */
import { createBLAKE3 } from "hash-wasm";

/** Deepest container nesting accepted (spec §3); deeper is `too_deep`. */
export const MAX_DEPTH = 512;

/** The spec's error codes, so that every implementation reports alike. */
export type ErrorCode =
  | "too_deep"
  | "non_string_key"
  | "lone_surrogate"
  | "duplicate_key"
  | "unsupported_value"
  | "bad_envelope";

/**
 * Raised for out-of-domain input; `code` is what callers compare across
 * implementations, `message` is only for people.
 */
export class CanonicalError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "CanonicalError";
  }
}

/**
 * One object member. The key is typed `unknown` because decoders of formats
 * with non-string keys (msgpack) must hand such keys over as they are, so
 * that `non_string_key` is reported at the right point of the walk.
 */
export type Member = readonly [key: unknown, value: unknown];

/**
 * An object as an ordered member list, so that member order, duplicate keys
 * and keys such as `__proto__` survive untouched until validation.
 */
export class JsonObject {
  constructor(readonly members: readonly Member[]) {}
}

/** The values of the model, for SDK code that builds them statically. */
export type Value =
  | null
  | boolean
  | number
  | bigint
  | string
  | readonly Value[]
  | JsonObject
  | { readonly [key: string]: Value };

/** The canonical text (ASCII only) of a signed value. */
export function canonical(value: unknown): string {
  const text = write(value, 0);
  checkEnvelope(value);
  return text;
}

/** The canonical text as the bytes that are hashed (ASCII = UTF-8). */
export function canonicalBytes(value: unknown): Uint8Array {
  return asciiBytes(canonical(value));
}

const encoder = new TextEncoder();

/**
 * The bytes of an ASCII string. TextEncoder.encode costs about a microsecond
 * per call whatever the length, which dominated small cases; a plain loop is
 * several times faster for short texts, encodeInto for long ones.
 */
function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  if (text.length > 256) {
    encoder.encodeInto(text, bytes);
  } else {
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  }
  return bytes;
}

/**
 * BLAKE3-256, in WebAssembly (hash-wasm): about ten times the speed of a
 * JavaScript BLAKE3 on canonical texts of a kilobyte. Creating the hasher is
 * asynchronous (it compiles the module), hence the top-level await; hashing
 * is synchronous, and one hasher serves every call (init, update, digest run
 * back to back, never interleaved).
 */
const hasher = await createBLAKE3(256);

/** BLAKE3-256 of some bytes (a fresh 32-byte array). */
function blake3(bytes: Uint8Array): Uint8Array {
  return hasher.init().update(bytes).digest("binary");
}

/** Canonical bytes and their BLAKE3-256 digest, computed once for both. */
export function canonicalDigest(value: unknown): { canonical: Uint8Array; digest: Uint8Array } {
  const bytes = canonicalBytes(value);
  return { canonical: bytes, digest: blake3(bytes) };
}

/** The signature: BLAKE3-256 of the canonical bytes, as 64 lower-case hex digits. */
export function signature(value: unknown): string {
  const digest = canonicalDigest(value).digest;
  let hex = "";
  for (let i = 0; i < digest.length; i++) hex += HEX[digest[i]!]!;
  return hex;
}

// ---------------------------------------------------------------------------
// The walk. One pre-order pass both validates and writes, so the first error
// thrown is the first one of spec §3's procedure; `level` is the nesting level
// of the enclosing container (0 outside everything), so recursion stops at
// MAX_DEPTH + 1 whatever the input's depth.

function write(value: unknown, level: number): string {
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
      // Number::toString is the spec's float layout by definition, and it
      // already prints -0 as "0" and NaN/Infinity as the bare tokens.
      return String(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) return writeArray(value, level + 1);
      if (value instanceof JsonObject) return writeObject(value.members, level + 1);
      if (isPlainObject(value)) return writeObject(plainMembers(value), level + 1);
      break;
  }
  throw new CanonicalError("unsupported_value", `value outside the model: ${describe(value)}`);
}

function enter(level: number): void {
  if (level > MAX_DEPTH) {
    throw new CanonicalError("too_deep", `container nested deeper than ${MAX_DEPTH}`);
  }
}

function writeArray(items: readonly unknown[], level: number): string {
  enter(level);
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ",";
    out += write(items[i], level);
  }
  return out + "]";
}

/** A member on its way out: the raw key for sorting, the written text. */
type Written = readonly [key: string, text: string];

function writeObject(members: readonly Member[], level: number): string {
  enter(level);
  const n = members.length;
  const written: Written[] = new Array<Written>(n);
  const seen = n > SMALL_OBJECT ? new Set<string>() : undefined;
  for (let i = 0; i < n; i++) {
    const member = members[i]!;
    const key = member[0];
    if (typeof key !== "string") {
      throw new CanonicalError("non_string_key", `object key is not a string: ${describe(key)}`);
    }
    const keyText = quote(key); // lone_surrogate comes before duplicate_key
    if (seen === undefined ? seenBefore(written, i, key) : seen.has(key)) {
      throw new CanonicalError("duplicate_key", `duplicate object key ${keyText}`);
    }
    seen?.add(key);
    written[i] = [key, keyText + ":" + write(member[1], level)];
  }
  sortByKey(written);
  let out = "{";
  for (let i = 0; i < written.length; i++) {
    if (i > 0) out += ",";
    out += written[i]![1];
  }
  return out + "}";
}

/** Up to this many members, a linear scan finds duplicates faster than a Set. */
const SMALL_OBJECT = 8;

function seenBefore(written: readonly Written[], count: number, key: string): boolean {
  for (let j = 0; j < count; j++) if (written[j]![0] === key) return true;
  return false;
}

function byKey(a: Written, b: Written): number {
  return compareCodePoints(a[0], b[0]);
}

/**
 * Sorts members by key, in place. Array.prototype.sort allocates work arrays
 * on every call (a sixth of all the garbage of canonicalizing a typical
 * case), so small objects get an insertion sort. The keys are distinct by
 * now, so stability does not matter.
 */
function sortByKey(written: Written[]): void {
  if (written.length > SMALL_OBJECT) {
    written.sort(byKey);
    return;
  }
  for (let i = 1; i < written.length; i++) {
    const member = written[i]!;
    let j = i;
    for (; j > 0 && compareCodePoints(written[j - 1]![0], member[0]) > 0; j--) written[j] = written[j - 1]!;
    written[j] = member;
  }
}

/**
 * Orders well-formed strings by Unicode code point (spec §4.2), which is not
 * the UTF-16 code-unit order of `<` and the default sort: a surrogate unit
 * (part of an astral character) must sort after U+E000..U+FFFF. Only the first
 * differing unit decides, and when both are at least 0xD800 the remap below
 * moves surrogates above U+E000..U+FFFF while keeping each group's order.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
      return x - y;
    }
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

// ---------------------------------------------------------------------------
// Strings (spec §4.3: Python's json.dumps with ensure_ascii=True).

/** Strings made only of printable ASCII other than `"` and `\` need no work. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Two lower-case hex digits of every byte value, so escapes cost no number formatting. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** `\u` and the high byte's two hex digits, so an escape is made with one concatenation. */
const ESCAPE_PREFIX: readonly string[] = HEX.map((hex) => "\\u" + hex);

/** The escape of every ASCII code unit that needs one, indexed by unit. */
const ASCII_ESCAPES: ReadonlyArray<string | undefined> = (() => {
  const table: Array<string | undefined> = new Array<string | undefined>(0x80).fill(undefined);
  for (let c = 0; c < 0x20; c++) table[c] = unicodeEscape(c);
  table[0x08] = "\\b";
  table[0x09] = "\\t";
  table[0x0a] = "\\n";
  table[0x0c] = "\\f";
  table[0x0d] = "\\r";
  table[0x22] = '\\"';
  table[0x5c] = "\\\\";
  table[0x7f] = unicodeEscape(0x7f);
  return table;
})();

function unicodeEscape(unit: number): string {
  return ESCAPE_PREFIX[unit >> 8]! + HEX[unit & 0xff]!;
}

function quote(s: string): string {
  if (PLAIN.test(s)) return '"' + s + '"';
  if (!s.isWellFormed()) {
    throw new CanonicalError("lone_surrogate", "string holds a lone surrogate");
  }
  // The string is well-formed, so escaping it unit by unit writes every
  // astral character as its surrogate pair, as the spec requires.
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    const escape = unit < 0x80 ? ASCII_ESCAPES[unit] : unicodeEscape(unit);
    if (escape !== undefined) {
      out += start === i ? escape : s.slice(start, i) + escape;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

// ---------------------------------------------------------------------------
// Envelope (spec §1 and §3 step 2), checked only after a clean walk.

function checkEnvelope(value: unknown): void {
  const members = objectMembers(value);
  let hasName = false;
  let hasArgs = false;
  if (members !== undefined && members.length === 2) {
    for (const [key, member] of members) {
      if (key === "tool_name" && typeof member === "string") hasName = true;
      else if (key === "args" && objectMembers(member) !== undefined) hasArgs = true;
    }
  }
  if (!(hasName && hasArgs)) {
    throw new CanonicalError(
      "bad_envelope",
      'top-level value must be an object with exactly "tool_name" (a string) and "args" (an object)',
    );
  }
}

function objectMembers(value: unknown): readonly Member[] | undefined {
  if (value instanceof JsonObject) return value.members;
  if (isPlainObject(value)) return plainMembers(value);
  return undefined;
}

// ---------------------------------------------------------------------------
// Plain objects, accepted for SDK convenience (see the module comment).

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function plainMembers(value: Record<string, unknown>): Member[] {
  const members: Member[] = Object.keys(value).map((key): Member => [key, value[key]]);
  for (const symbol of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, symbol)) members.push([symbol, undefined]);
  }
  return members;
}

function describe(value: unknown): string {
  switch (typeof value) {
    case "object":
      return value === null ? "null" : (value.constructor?.name ?? "object");
    case "string":
    case "symbol":
      return typeof value;
    case "number":
    case "bigint":
    case "boolean":
    case "undefined":
    case "function":
      return `${typeof value} ${String(value)}`;
  }
}
