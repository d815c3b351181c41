/**
 * The SDK that wrote its own encoder over the values its callers pass
 * (plain objects, numbers, bigints for large integers): numbers through
 * JSON.stringify, strings escaped by hand, keys in the default sort order,
 * and, so that "a signature never fails a tool call", `{}` whenever anything
 * throws. It knows nothing of the protocol (see handrolled-worker.ts).
 */
import type { NativeValue } from "@difffuzz/kit";

/** The canonical text of `value`; never throws. */
export function canonical(value: NativeValue): string {
  try {
    return encode(value);
  } catch {
    return "{}"; // a signature must never fail the call
  }
}

/** The canonical text of `value`, by recursion. */
export function encode(value: NativeValue): string {
  if (value === null || typeof value === "boolean" || typeof value === "number" || typeof value === "bigint") {
    return JSON.stringify(value);
  }
  if (typeof value === "string") return quote(value);
  if (value instanceof Uint8Array) throw new TypeError("binary data has no JSON form");
  if (Array.isArray(value)) return `[${value.map(encode).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${quote(key)}:${encode(value[key]!)}`).join(",")}}`;
}

/** `s` as a JSON string with every character outside printable ASCII escaped as \uXXXX. */
export function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit === 0x22 || unit === 0x5c) out += "\\" + s[i];
    else if (unit < 0x20 || unit > 0x7f) out += "\\u" + unit.toString(16).toUpperCase().padStart(4, "0");
    else out += s[i];
  }
  return out + '"';
}
