/**
 * The native value model: what a JavaScript SDK receives in production, a
 * value as JSON.parse builds it. An exact-model case (exact.ts) is turned
 * into it, or found inexpressible, in one pre-order walk, so the reason
 * given is the first one met in the case's own order.
 *
 * - A map is a plain object whose members are own data properties, set as
 *   JSON.parse sets them (CreateDataProperty): a `__proto__` key is an own
 *   property, not the prototype. Its key order is JavaScript's (integer-like
 *   keys first), as an SDK sees it.
 * - Integers and floats are `number`s; an integer outside the safe range
 *   (|n| > 2^53-1) is a `bigint` when the worker says its SDK takes them
 *   (`bigint: true`), else `big_int`: its nearest double would be another
 *   number, or print as a float.
 * - Strings are JavaScript strings, lone surrogates included.
 * - bin is a `Uint8Array`.
 *
 * Inexpressible: a repeated key (`duplicate_key`, compared as decoded
 * strings, so a str and an ext 2 spelling one key repeat it), a key that is
 * not a string (`non_string_key`: an object would turn it into a string),
 * an unknown or malformed ext or a str that is not UTF-8
 * (`unsupported_value`), and `big_int` as above.
 */
import { ExactObject, InvalidUtf8, UnknownExt } from "./exact.js";

/** A value of the native model. */
export type NativeValue = null | boolean | number | bigint | string | Uint8Array | NativeValue[] | { [key: string]: NativeValue };

/** The reasons a case may be inexpressible in some model (docs/adapter-protocol.md). */
export type Reason = "duplicate_key" | "lone_surrogate" | "big_int" | "non_finite" | "non_string_key" | "unsupported_value";

/** A case the native model cannot hold, and why. */
export class Inexpressible {
  constructor(
    readonly reason: Reason,
    readonly message: string,
  ) {}
}

/**
 * Past this nesting the walk stops: the driver never sends more (the
 * protocol's limit), and a deeper value would overflow the stack of the walk
 * (and of most SDKs).
 */
export const MAX_WIRE_DEPTH = 1000;

/** Thrown by the walk to give up on a case; caught in {@link toNative}. */
class TooDeep extends Error {}

/** The reasons the native model can give: the hello's `inexpressible`. */
export function nativeReasons(bigint: boolean): Reason[] {
  return bigint
    ? ["duplicate_key", "non_string_key", "unsupported_value"]
    : ["duplicate_key", "big_int", "non_string_key", "unsupported_value"];
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * An exact-model value (decoded with `smallInts: "number"` and the default
 * ExactObject) in the native model, or why it cannot be; "too_deep" past
 * {@link MAX_WIRE_DEPTH} levels.
 */
export function toNative(value: unknown, bigint: boolean): { value: NativeValue } | Inexpressible | "too_deep" {
  const walk = new Walk(bigint);
  try {
    const native = walk.value(value, 0);
    return walk.found ?? { value: native };
  } catch (e) {
    if (e instanceof TooDeep) return "too_deep";
    throw e;
  }
}

class Walk {
  /** The first reason met: the walk stops there. */
  found: Inexpressible | undefined = undefined;

  constructor(private readonly bigint: boolean) {}

  value(value: unknown, level: number): NativeValue {
    switch (typeof value) {
      case "number":
      case "string":
      case "boolean":
        return value;
      case "bigint":
        if (value >= MIN_SAFE && value <= MAX_SAFE) return Number(value);
        if (this.bigint) return value;
        return this.fail("big_int", `integer ${value} is outside the safe range of a number (the worker takes no bigint)`);
      case "object":
        if (value === null || value instanceof Uint8Array) return value;
        if (Array.isArray(value)) return this.array(value, level + 1);
        if (value instanceof ExactObject) return this.object(value, level + 1);
        if (value instanceof UnknownExt) return this.fail("unsupported_value", `ext type ${value.type} (${value.data.length} bytes) is not a value`);
        if (value instanceof InvalidUtf8) return this.fail("unsupported_value", "str value is not UTF-8");
    }
    throw new Error(`native: not an exact-model value: ${String(value)}`);
  }

  private array(items: unknown[], level: number): NativeValue[] | null {
    if (level > MAX_WIRE_DEPTH) throw new TooDeep();
    const out = new Array<NativeValue>(items.length);
    for (let i = 0; i < items.length; i++) {
      out[i] = this.value(items[i], level);
      if (this.found !== undefined) return null;
    }
    return out;
  }

  private object(object: ExactObject, level: number): { [key: string]: NativeValue } | null {
    if (level > MAX_WIRE_DEPTH) throw new TooDeep();
    const out: { [key: string]: NativeValue } = {};
    for (const [key, member] of object.members) {
      if (typeof key !== "string") return this.fail("non_string_key", `map key is not a string: ${describe(key)}`);
      if (Object.hasOwn(out, key)) return this.fail("duplicate_key", `map key ${JSON.stringify(key)} is repeated`);
      const value = this.value(member, level);
      if (this.found !== undefined) return null;
      if (key === "__proto__") {
        // CreateDataProperty, as JSON.parse: an own property, not the prototype.
        Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        out[key] = value;
      }
    }
    return out;
  }

  private fail(reason: Reason, message: string): null {
    this.found ??= new Inexpressible(reason, message);
    return null;
  }
}

function describe(value: unknown): string {
  if (value === null) return "nil";
  if (typeof value === "object") return value.constructor?.name ?? "object";
  if (typeof value === "boolean" || typeof value === "number" || typeof value === "bigint" || typeof value === "string") {
    return `${typeof value} ${String(value)}`;
  }
  return typeof value;
}
