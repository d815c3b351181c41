/**
 * Test helpers shared by the test files: value builders for the canonical
 * model, and msgpack fragment builders for wire inputs the library's encoder
 * cannot produce (duplicate keys, ext types, chosen int/float widths).
 * (node --test runs this file too; it declares no tests.)
 */
import { Encoder, ExtData } from "@msgpack/msgpack";
import { JsonObject, type Member } from "../src/canonical.js";

/** An ordered object, duplicates allowed. */
export function obj(...members: Member[]): JsonObject {
  return new JsonObject(members);
}

/** The signed envelope {"tool_name": name, "args": args}. */
export function call(args: unknown, name: unknown = "t"): JsonObject {
  return obj(["tool_name", name], ["args", args]);
}

/** `depth` arrays nested inside each other around `inner` (depth 0 = inner itself). */
export function nest(depth: number, inner: unknown = undefined): unknown {
  let value: unknown = inner === undefined ? [] : [inner];
  for (let i = 1; i < depth; i++) value = [value];
  return depth === 0 ? inner : value;
}

/** Text of `depth` nested empty arrays. */
export function nestText(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

// ---------------------------------------------------------------------------
// msgpack fragments

const plain = new Encoder({ useBigInt64: true });
const asFloat64 = new Encoder({ forceIntegerToFloat: true });
const asFloat32 = new Encoder({ forceFloat32: true, forceIntegerToFloat: true });

/** Concatenation of byte fragments. */
export function cat(...parts: ArrayLike<number>[]): Uint8Array {
  return concat(parts);
}

/** Concatenation of any number of byte fragments (no argument-count limit). */
export function concat(parts: readonly ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** msgpack fragments, each a complete encoded value. */
export const mp = {
  nil: Uint8Array.of(0xc0),
  /** A str (valid UTF-8). */
  str: (s: string): Uint8Array => plain.encode(s),
  /** A str holding exactly these bytes (valid UTF-8 or not). */
  strBytes: (bytes: ArrayLike<number>): Uint8Array => cat(strHeader(bytes.length), bytes),
  /** An int in the smallest int-family width (numbers) or int64/uint64 (bigints). */
  int: (n: number | bigint): Uint8Array => plain.encode(n),
  /** A float 64, even for integral values. */
  f64: (x: number): Uint8Array => asFloat64.encode(x),
  /** A float 32. */
  f32: (x: number): Uint8Array => asFloat32.encode(x),
  bin: (bytes: ArrayLike<number>): Uint8Array => plain.encode(Uint8Array.from(bytes)),
  ext: (type: number, data: ArrayLike<number>): Uint8Array => plain.encode(new ExtData(type, Uint8Array.from(data))),
  /** Ext 1 with an ASCII payload. */
  big: (decimal: string): Uint8Array => mp.ext(1, Buffer.from(decimal, "ascii")),
  /** Ext 2 with the given UTF-16 code units, little-endian. */
  utf16: (...units: number[]): Uint8Array => mp.ext(2, units.flatMap((u) => [u & 0xff, u >> 8])),
  /** Ext 2 holding a JS string's code units. */
  utf16s: (s: string): Uint8Array => mp.utf16(...Array.from({ length: s.length }, (_, i) => s.charCodeAt(i))),
  arr: (...items: Uint8Array[]): Uint8Array => cat(arrayHeader(items.length), ...items),
  /** A map with these encoded (key, value) pairs, in order, duplicates kept. */
  map: (...pairs: Array<[Uint8Array, Uint8Array]>): Uint8Array => cat(mapHeader(pairs.length), ...pairs.flat()),
};

function strHeader(n: number): number[] {
  if (n < 32) return [0xa0 | n];
  return n < 256 ? [0xd9, n] : [0xda, n >> 8, n & 0xff];
}

function arrayHeader(n: number): number[] {
  return n < 16 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff];
}

function mapHeader(n: number): number[] {
  return n < 16 ? [0x80 | n] : [0xde, n >> 8, n & 0xff];
}

/** The envelope as msgpack, with `args` already encoded. */
export function mpCall(args: Uint8Array, name: Uint8Array = mp.str("t")): Uint8Array {
  return mp.map([mp.str("tool_name"), name], [mp.str("args"), args]);
}

/** `depth` msgpack arrays nested inside each other (the innermost empty). */
export function mpNest(depth: number): Uint8Array {
  const out = new Uint8Array(depth);
  out.fill(0x91, 0, depth - 1);
  out[depth - 1] = 0x90;
  return out;
}

/** The first byte offset where two texts differ, with a little context, for failure messages. */
export function firstDifference(actual: string, expected: string): string {
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 20), i + 20));
  return `first difference at byte ${i}: got ${around(actual)}, want ${around(expected)}`;
}
