/**
 * The text model (docs/your-sdk.md, "The text model"): a case as the JSON
 * text a tool call's arguments arrive in, for an SDK that parses them with
 * its own parser (JSON.parse) before canonicalizing.
 *
 * The text spells each value in one of many equivalent ways (characters raw
 * or escaped, floats in four notations, whitespace between tokens), all read
 * back as the same value by the spec's reader (docs/canonical-json.md §6).
 * The choices come from a small generator fed with the value's own content,
 * so the same value always gets the same text (a replay or a minimization
 * step sees what the run saw) while different cases spell alike things
 * differently. The rules, and so the text of every value, are the same in
 * all four kits.
 */
import { ExactObject } from "./model.js";
import { Inexpressible, type Reason } from "./native.js";

/** What JSON text cannot spell: the text model's hello `inexpressible`. */
export const textReasons: Reason[] = ["non_string_key", "unsupported_value"];

/** Thrown inside the writer to give up on a case; caught in {@link toJsonText}. */
class NoText extends Error {
  constructor(
    readonly reason: Reason,
    message: string,
  ) {
    super(message);
  }
}

/** The whitespace a pick of 10..15 (of 16) writes between tokens. */
const SPACES = [" ", "  ", "\n", "\t", "\r\n", "\n  "];

/** The two-character escapes of the control characters that have one. */
const SHORT: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };

/**
 * One case's text. `s` is the spelling generator's state: `mix` folds the
 * value's content in as it is written, `pick` draws a choice (a Weyl step
 * through murmur3's finalizer), in 32-bit arithmetic as in every kit.
 */
class Writer {
  out = "";
  private s = 0x811c9dc5;

  mix(x: number): void {
    this.s = Math.imul(this.s ^ x, 0x01000193) >>> 0;
  }

  pick(n: number): number {
    const s = (this.s = (this.s + 0x9e3779b9) >>> 0);
    let z = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) % n;
  }

  space(): void {
    const r = this.pick(16);
    if (r >= 10) this.out += SPACES[r - 10];
  }

  value(v: unknown): void {
    if (v === null) return this.word(1, "null");
    switch (typeof v) {
      case "boolean":
        return v ? this.word(2, "true") : this.word(3, "false");
      case "bigint":
        return this.integer(v.toString());
      case "number":
        return this.float(v);
      case "string":
        return this.string(v);
    }
    if (Array.isArray(v)) return this.array(v);
    if (v instanceof ExactObject) return this.object(v);
    if (v instanceof Uint8Array) throw new NoText("unsupported_value", "bin data has no JSON text");
    throw new NoText("unsupported_value", `a ${v?.constructor?.name ?? typeof v} has no JSON text`);
  }

  private word(tag: number, text: string): void {
    this.mix(tag);
    this.out += text;
  }

  /** An integer's decimal digits, its only spelling: an exponent or a fraction would make it a float. */
  private integer(digits: string): void {
    for (let i = 0; i < digits.length; i++) this.mix(digits.charCodeAt(i));
    this.out += digits;
  }

  private array(a: unknown[]): void {
    this.mix(0x5b);
    this.mix(a.length);
    this.out += "[";
    if (a.length === 0) this.space();
    a.forEach((x, i) => {
      if (i > 0) this.out += ",";
      this.space();
      this.value(x);
      this.space();
    });
    this.out += "]";
  }

  private object(o: ExactObject): void {
    const members = o.members;
    this.mix(0x7b);
    this.mix(members.length);
    this.out += "{";
    if (members.length === 0) this.space();
    members.forEach(([key, v], i) => {
      if (typeof key !== "string") throw new NoText("non_string_key", `a ${typeof key} key has no JSON text`);
      if (i > 0) this.out += ",";
      this.space();
      this.string(key);
      this.space();
      this.out += ":";
      this.space();
      this.value(v);
      this.space();
    });
    this.out += "}";
  }

  /**
   * Each code point raw or escaped: raw only where the reader maps it to the
   * same code point, so never a quote, a backslash, a control character or a
   * (lone) surrogate.
   */
  string(s: string): void {
    this.mix(0x22);
    this.out += '"';
    for (const ch of s) {
      const c = ch.codePointAt(0)!;
      this.mix(c);
      this.out += this.char(c, ch);
    }
    this.out += '"';
  }

  private char(c: number, ch: string): string {
    if (c === 0x22 || c === 0x5c) {
      if (this.pick(2) === 0) return "\\" + ch;
    } else if (c === 0x2f) {
      const r = this.pick(3);
      if (r < 2) return r === 0 ? "/" : "\\/";
    } else if (c < 0x20) {
      const short = SHORT[c];
      if (short !== undefined && this.pick(2) === 0) return short;
    } else if (c < 0xd800 || c > 0xdfff) {
      if (this.pick(8) < 7) return ch;
    }
    return this.escape(c);
  }

  /** \uXXXX (a surrogate pair past the BMP), its hex all upper or all lower case. */
  private escape(c: number): string {
    const upper = this.pick(2) === 0;
    const unit = (u: number): string => {
      const hex = u.toString(16).padStart(4, "0");
      return "\\u" + (upper ? hex.toUpperCase() : hex);
    };
    if (c < 0x10000) return unit(c);
    c -= 0x10000;
    return unit(0xd800 + (c >> 10)) + unit(0xdc00 + (c & 0x3ff));
  }

  /**
   * Four notations of the shortest digits D and exponent X (x = d.ddd ×
   * 10^X), each with a fraction or an exponent so that the reader takes a
   * float: 0 scientific (1.5e2, 1.0E+2), 1 plain (150.0; only for X in
   * [-7, 20], else 2), 2 integer mantissa (15e1), 3 fraction mantissa
   * (0.15e3). NaN and the infinities are extended JSON's bare tokens, which
   * JSON.parse refuses: a finding about the SDK, not something to hide.
   */
  private float(x: number): void {
    if (Number.isNaN(x)) return this.word(0x4e, "NaN");
    if (x === Infinity) return this.word(0x49, "Infinity");
    if (x === -Infinity) return this.word(0x69, "-Infinity");
    const neg = x < 0 || Object.is(x, -0);
    const sci = Math.abs(x).toExponential(); // d.ddde±X, shortest
    const e = sci.indexOf("e");
    const digits = sci.slice(0, e).replace(".", "");
    const exp = Number(sci.slice(e + 1));
    for (const c of (neg ? "-" : "") + digits + "e" + String(exp)) this.mix(c.charCodeAt(0));
    if (neg) this.out += "-";
    let form = this.pick(4);
    if (form === 1 && (exp < -7 || exp > 20)) form = 2;
    if (form === 0) {
      this.out += digits[0];
      if (digits.length > 1) this.out += "." + digits.slice(1);
      else if (this.pick(2) === 1) this.out += ".0";
      this.exponent(exp);
    } else if (form === 1) {
      this.out += plain(digits, exp);
    } else if (form === 2) {
      this.out += digits;
      this.exponent(exp - digits.length + 1);
    } else {
      this.out += "0." + digits;
      this.exponent(exp + 1);
    }
  }

  private exponent(k: number): void {
    this.out += "eE"[this.pick(2)];
    if (k < 0) {
      this.out += "-";
      k = -k;
    } else if (this.pick(2) === 1) this.out += "+";
    if (this.pick(4) === 0) this.out += "0";
    this.out += String(k);
  }
}

/** D × 10^(X-len(D)+1) with a point and at least one digit after it. */
function plain(digits: string, exp: number): string {
  if (exp < 0) return "0." + "0".repeat(-exp - 1) + digits;
  if (digits.length <= exp + 1) return digits + "0".repeat(exp + 1 - digits.length) + ".0";
  return digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
}

/**
 * A case of the exact model (integers as `bigint`, floats as `number`,
 * objects as {@link ExactObject}) as JSON text in its spelling, or the
 * {@link Inexpressible} of the first thing in it JSON text cannot spell.
 */
export function toJsonText(value: unknown): string | Inexpressible {
  const w = new Writer();
  try {
    w.space();
    w.value(value);
    w.space();
  } catch (e) {
    if (e instanceof NoText) return new Inexpressible(e.reason, e.message);
    throw e;
  }
  return w.out;
}
