/**
 * Table-driven tests of the canonical library against the spec
 * (docs/canonical-json.md) and the shared test vectors every language covers.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { blake3 } from "@noble/hashes/blake3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import {
  CanonicalError,
  JsonObject,
  MAX_DEPTH,
  canonical,
  canonicalBytes,
  canonicalDigest,
  compareCodePoints,
  signature,
  type ErrorCode,
  type Member,
} from "../src/canonical.js";
import { call, nest, nestText, obj } from "./support.js";

type Accepted = readonly [name: string, value: unknown, text: string];
type Rejected = readonly [name: string, value: unknown, code: ErrorCode];

/** `{"args":<args>,"tool_name":"t"}`: the text of call(args) given the args' text. */
const wrap = (argsText: string): string => `{"args":${argsText},"tool_name":"t"}`;
/** call({"v": value}) and its expected text, for scalar vectors. */
const scalar = (value: unknown): JsonObject => call(obj(["v", value]));
const scalarText = (text: string): string => wrap(`{"v":${text}}`);

function assertAccepted([name, value, text]: Accepted): void {
  assert.equal(canonical(value), text, name);
}

function assertRejected([name, value, code]: Rejected): void {
  assert.throws(
    () => canonical(value),
    (e: unknown) => e instanceof CanonicalError && e.code === code,
    `${name}: expected ${code}`,
  );
}

describe("worked examples (spec §5)", () => {
  const cases: Accepted[] = [
    ["ping", obj(["tool_name", "ping"], ["args", obj()]), '{"args":{},"tool_name":"ping"}'],
    [
      "sorting and float 1.0",
      call(obj(["b", 1n], ["a", [true, null, 1.0]])),
      '{"args":{"a":[true,null,1],"b":1},"tool_name":"t"}',
    ],
    [
      "NaN, -Infinity, -0.0",
      call(obj(["x", NaN], ["y", -Infinity], ["z", -0.0])),
      '{"args":{"x":NaN,"y":-Infinity,"z":0},"tool_name":"t"}',
    ],
    [
      "float 1e21 vs integer 10^21",
      call(obj(["f", 1e21], ["i", 10n ** 21n])),
      '{"args":{"f":1e+21,"i":1000000000000000000000},"tool_name":"t"}',
    ],
    [
      "small floats",
      call(obj(["a", 1e-7], ["b", 0.000001], ["c", 5e-324])),
      '{"args":{"a":1e-7,"b":0.000001,"c":5e-324},"tool_name":"t"}',
    ],
    [
      "escapes",
      obj(["tool_name", "é"], ["args", obj(["s", "\u2028\u007f\u{1F600}"])]),
      '{"args":{"s":"\\u2028\\u007f\\ud83d\\ude00"},"tool_name":"\\u00e9"}',
    ],
    [
      "code point key order",
      call(obj(["\uff61", 1n], ["\u{1F600}", 2n])),
      '{"args":{"\\uff61":1,"\\ud83d\\ude00":2},"tool_name":"t"}',
    ],
    [
      "special keys",
      call(obj(["__proto__", 1n], ["1", 2n], ["01", 3n], ["", 4n])),
      '{"args":{"":4,"01":3,"1":2,"__proto__":1},"tool_name":"t"}',
    ],
  ];
  for (const c of cases) test(c[0], () => assertAccepted(c));

  test("signature of ping is BLAKE3 of its 30 canonical bytes", () => {
    const ping = obj(["tool_name", "ping"], ["args", obj()]);
    const bytes = new TextEncoder().encode('{"args":{},"tool_name":"ping"}');
    assert.equal(bytes.length, 30);
    assert.deepEqual(canonicalBytes(ping), bytes);
    assert.equal(signature(ping), "9ffdd239950db62c7d96c3a26bb9f52073e3faf8dbe79afc0f4ad454da632f6f");
    assert.equal(signature(ping), bytesToHex(blake3(bytes)));
    assert.deepEqual(canonicalDigest(ping), { canonical: bytes, digest: blake3(bytes) });
  });

  test("canonicalBytes is the canonical text's ASCII, short or long", () => {
    const values = [call(obj()), scalar("x".repeat(100_000)), scalar("\u{1F600}".repeat(1000)), scalar(1e21)];
    for (const value of values) assert.deepEqual(canonicalBytes(value), new TextEncoder().encode(canonical(value)));
  });

  test("the digest is BLAKE3 of the canonical bytes at every length class (WebAssembly hasher vs the reference)", () => {
    // around BLAKE3's 64-byte blocks and 1 KiB chunks, and hash-wasm's 16 KiB transfer buffer
    const base = canonicalBytes(scalar("")).length;
    const lengths = [base, 63, 64, 65, 1023, 1024, 1025, 2048, 3073, 16383, 16384, 16385, 32768, 100_000];
    for (const length of lengths) {
      const value = scalar("x".repeat(Math.max(0, length - base)));
      const { canonical: bytes, digest } = canonicalDigest(value);
      assert.equal(bytes.length, Math.max(base, length));
      assert.deepEqual(digest, blake3(bytes), `length ${bytes.length}`);
    }
    // the hasher is reused: a long input does not leak into the next digest
    assert.equal(signature(obj(["tool_name", "ping"], ["args", obj()])), "9ffdd239950db62c7d96c3a26bb9f52073e3faf8dbe79afc0f4ad454da632f6f");
  });

  test("the reference BLAKE3 (the tests' oracle) matches the official test vectors", () => {
    const vectors: Array<[string, string]> = [
      ["", "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"],
      ["abc", "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"],
    ];
    for (const [input, hex] of vectors) assert.equal(bytesToHex(blake3(new TextEncoder().encode(input))), hex);
  });
});

describe("floats (spec §4.5)", () => {
  const floats: Array<[number, string]> = [
    [NaN, "NaN"],
    [Infinity, "Infinity"],
    [-Infinity, "-Infinity"],
    [-0.0, "0"],
    [0.0, "0"],
    [5e-324, "5e-324"],
    [-5e-324, "-5e-324"],
    [1e21, "1e+21"],
    [-1e21, "-1e+21"],
    [1e-7, "1e-7"],
    [1e-6, "0.000001"],
    [9.99e-7, "9.99e-7"],
    [Number("9007199254740993.0"), "9007199254740992"], // the decimal 2^53+1 rounds to the double 2^53
    [9007199254740991.0, "9007199254740991"],
    [-9007199254740991.0, "-9007199254740991"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [-1.7976931348623157e308, "-1.7976931348623157e+308"],
    [0.1, "0.1"],
    [1.5, "1.5"],
    [123.456, "123.456"],
    [1e20, "100000000000000000000"],
    [1.0, "1"],
    [123.0, "123"],
    [1.5e300, "1.5e+300"],
    [2.5e-5, "0.000025"],
    [123e-20, "1.23e-18"],
    [0.30000000000000004, "0.30000000000000004"],
  ];
  for (const [x, text] of floats) {
    test(`${text}`, () => assertAccepted([text, scalar(x), scalarText(text)]));
  }
});

describe("integers (spec §4.4)", () => {
  const integers: Array<[bigint, string]> = [
    [0n, "0"],
    [1n, "1"],
    [2n ** 53n - 1n, "9007199254740991"],
    [2n ** 53n, "9007199254740992"],
    [2n ** 53n + 1n, "9007199254740993"],
    [2n ** 63n, "9223372036854775808"],
    [2n ** 64n, "18446744073709551616"],
    [10n ** 30n, "1000000000000000000000000000000"],
    [10n ** 21n, "1000000000000000000000"],
  ];
  for (const [n, text] of integers) {
    test(text, () => assertAccepted([text, scalar(n), scalarText(text)]));
    if (n !== 0n) test(`-${text}`, () => assertAccepted([`-${text}`, scalar(-n), scalarText(`-${text}`)]));
  }
  test("integer-valued numbers below 1e21 print the integer's digits", () => {
    for (const n of [0, 7, -7, 2 ** 32, 2 ** 53 - 1, -(2 ** 53 - 1), 1e20]) {
      assert.equal(canonical(scalar(n)), canonical(scalar(BigInt(n))), String(n));
    }
  });
});

describe("strings (spec §4.3)", () => {
  const controls =
    "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f" +
    "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f";
  const strings: Array<[name: string, value: string, text: string]> = [
    ["empty", "", '""'],
    ["every control character", Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join(""), `"${controls}"`],
    ["quote and backslash", '"\\', '"\\"\\\\"'],
    ["slash and <>& stay", "a/b<>&", '"a/b<>&"'],
    ["printable ASCII", " !#$%&'()*+,-.0123456789:;=?@AZ[]^_`az{|}~", `" !#$%&'()*+,-.0123456789:;=?@AZ[]^_\`az{|}~"`],
    ["DEL", "\u007f", '"\\u007f"'],
    ["U+0080", "\u0080", '"\\u0080"'],
    ["e acute", "é", '"\\u00e9"'],
    ["U+2028", "\u2028", '"\\u2028"'],
    ["U+2029", "\u2029", '"\\u2029"'],
    ["BOM", "\ufeff", '"\\ufeff"'],
    ["U+FFFF", "\uffff", '"\\uffff"'],
    ["U+E000", "\ue000", '"\\ue000"'],
    ["U+10000", "\u{10000}", '"\\ud800\\udc00"'],
    ["U+1F600", "\u{1F600}", '"\\ud83d\\ude00"'],
    ["U+10FFFF", "\u{10FFFF}", '"\\udbff\\udfff"'],
    ["mixed", 'a\u00e9\n"\u{1F600}z', '"a\\u00e9\\n\\"\\ud83d\\ude00z"'],
    ["100,000 ASCII characters", "x".repeat(100_000), `"${"x".repeat(100_000)}"`],
    ["100,000 escaped characters", "\u00e9".repeat(100_000), `"${"\\u00e9".repeat(100_000)}"`],
  ];
  for (const [name, value, text] of strings) {
    test(`value: ${name}`, () => assertAccepted([name, scalar(value), scalarText(text)]));
    test(`key: ${name}`, () => assertAccepted([name, call(obj([value, null])), wrap(`{${text}:null}`)]));
  }
});

describe("key order (spec §4.2)", () => {
  const orders: Array<[name: string, keys: string[]]> = [
    ["prefix first", ["", "a", "ab", "b"]],
    ["digits are strings", ["0", "01", "1", "10", "2"]],
    ["special names", ["1", "__proto__", "constructor", "hasOwnProperty", "toString"]],
    ["BMP below surrogates, then U+E000..U+FFFF, then astral", ["\ud7ff", "\ue000", "\uff61", "\uffff", "\u{10000}", "\u{1F600}", "\u{10FFFF}"]],
    ["astral characters among themselves", ["a\u{10000}", "a\u{1F600}", "a\u{1F601}", "a\u{20000}"]],
  ];
  for (const [name, sorted] of orders) {
    test(name, () => {
      const reversed = [...sorted].reverse();
      const value = call(obj(...reversed.map((k, i): [string, bigint] => [k, BigInt(i)])));
      const expected = sorted.map((k) => `${JSON.stringify(k).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"))}:${reversed.indexOf(k)}`);
      assert.equal(canonical(value), wrap(`{${expected.join(",")}}`));
    });
  }

  test("compareCodePoints is code point order, not UTF-16 order", () => {
    const pairs: Array<[string, string, number]> = [
      ["\uff61", "\u{1F600}", -1],
      ["\uffff", "\u{10000}", -1],
      ["\ue000", "\ud7ff", 1],
      ["\u{1F600}", "\u{1F601}", -1],
      ["", "a", -1],
      ["ab", "a", 1],
      ["same", "same", 0],
    ];
    for (const [a, b, sign] of pairs) {
      assert.equal(Math.sign(compareCodePoints(a, b)), sign, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      assert.equal(Math.sign(compareCodePoints(b, a)), 0 - sign);
      assert.equal(Buffer.compare(Buffer.from(a), Buffer.from(b)), sign, "UTF-8 byte order agrees");
    }
  });

  // Small objects are sorted by insertion, larger ones by Array.prototype.sort:
  // every size on both sides of the switch, from several input orders, must
  // come out in code point order (checked here against code point arrays).
  test("objects of every size from 0 to 20 members, in any input order", () => {
    const pool = ["b", "", "\u{1F600}", "a", "\uffff", "ab", "\ue000", "1", "\ud7ff", "__proto__", "\u{10000}", "Z", "a\u{1F600}", "a\uff61", "~", "\u0000", "10", "\u00e9", "aa", "\u{10FFFF}"];
    const byCodePoints = (a: string, b: string): number => {
      const x = [...a].map((c) => c.codePointAt(0)!);
      const y = [...b].map((c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    };
    const escapeKey = (k: string): string => JSON.stringify(k).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
    for (let n = 0; n <= pool.length; n++) {
      const keys = pool.slice(0, n);
      const sorted = [...keys].sort(byCodePoints);
      const orders = [keys, [...keys].reverse(), sorted, [...sorted].reverse(), keys.map((_, i) => keys[(i * 7) % n]!)];
      for (const order of orders) {
        if (new Set(order).size !== n) continue; // (i * 7) % n is not a permutation for every n
        const value = call(obj(...order.map((k): [string, null] => [k, null])));
        assert.equal(canonical(value), wrap(`{${sorted.map((k) => `${escapeKey(k)}:null`).join(",")}}`), `${n} members`);
      }
    }
  });

  test("nested objects are sorted too", () => {
    const value = call(obj(["z", [obj(["b", 1n], ["a", obj(["y", 1n], ["x", 2n])])]], ["a", null]));
    assert.equal(canonical(value), wrap('{"a":null,"z":[{"a":{"x":2,"y":1},"b":1}]}'));
  });
});

describe("structure and depth (spec §3, §4.1)", () => {
  const accepted: Accepted[] = [
    ["empty args", call(obj()), wrap("{}")],
    ["empty containers", call(obj(["a", []], ["b", obj()], ["c", [[], obj()]])), wrap('{"a":[],"b":{},"c":[[],{}]}')],
    ["literals", call(obj(["a", [true, false, null]])), wrap('{"a":[true,false,null]}')],
    ["depth 50", call(obj(["a", nest(48)])), wrap(`{"a":${nestText(48)}}`)],
    ["depth exactly 512", call(obj(["a", nest(MAX_DEPTH - 2)])), wrap(`{"a":${nestText(510)}}`)],
    [
      "depth 512 through objects",
      call(obj(["a", nest(MAX_DEPTH - 3, obj())])),
      wrap(`{"a":${"[".repeat(509)}{}${"]".repeat(509)}}`),
    ],
  ];
  for (const c of accepted) test(c[0], () => assertAccepted(c));

  const rejected: Rejected[] = [
    ["depth 513 inside the envelope", call(obj(["a", nest(MAX_DEPTH - 1)])), "too_deep"],
    ["depth 513 via an object", call(obj(["a", nest(MAX_DEPTH - 2, obj())])), "too_deep"],
    ["top-level arrays 512 deep (walk passes, envelope fails)", nest(512), "bad_envelope"],
    ["top-level arrays 513 deep", nest(513), "too_deep"],
    ["top-level arrays 1000 deep", nest(1000), "too_deep"],
    ["arrays 1000 deep in args", call(obj(["a", nest(1000)])), "too_deep"],
    ["arrays 100,000 deep (no stack overflow)", nest(100_000), "too_deep"],
  ];
  for (const c of rejected) test(c[0], () => assertRejected(c));

  test("a cyclic plain value is too_deep, not a stack overflow", () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    assertRejected(["cycle", call(obj(["a", cycle])), "too_deep"]);
  });
});

describe("errors and their precedence (spec §3)", () => {
  const rejected: Rejected[] = [
    // the spec's examples
    ["duplicate key", call(obj(["a", 1n], ["a", 2n])), "duplicate_key"],
    ["lone surrogate tool_name", call(obj(), "\ud800"), "lone_surrogate"],
    ["duplicate key before its value's lone surrogate", call(obj(["a", 1n], ["a", "\udc00"])), "duplicate_key"],
    [
      "lone surrogate key before duplicate check",
      obj(["args", obj(["\udc00", 1n], ["\udc00", 2n])], ["tool_name", "t"]),
      "lone_surrogate",
    ],
    ["args an array", call([]), "bad_envelope"],
    ["tool_name an integer", call(obj(), 1n), "bad_envelope"],
    ["extra member", obj(["tool_name", "t"], ["args", obj()], ["x", null]), "bad_envelope"],
    ["walk before envelope", obj(["tool_name", "t"], ["args", obj(["a", 1n], ["a", 1n])], ["x", 0n]), "duplicate_key"],
    // every code, more shapes
    ["non-string key (integer)", call(obj([1n, "x"])), "non_string_key"],
    ["non-string key (number)", call(obj([1, "x"])), "non_string_key"],
    ["non-string key (null)", call(obj([null, "x"])), "non_string_key"],
    ["non-string key (array)", call(obj([["a"], "x"])), "non_string_key"],
    ["non-string key before a later lone surrogate", call(obj([1n, 1n], ["\ud800", 2n])), "non_string_key"],
    ["lone surrogate value before a later non-string key", call(obj(["a", "\ud800"], [1n, 2n])), "lone_surrogate"],
    ["high surrogate at the end", scalar("abc\ud83d"), "lone_surrogate"],
    ["low surrogate alone", scalar("\ude00abc"), "lone_surrogate"],
    ["reversed pair", scalar("\ude00\ud83d"), "lone_surrogate"],
    ["lone surrogate deep in an array", scalar([[["ok", "\udfff"]]]), "lone_surrogate"],
    ["lone surrogate in a nested key", scalar([obj(["\ud800x", 1n])]), "lone_surrogate"],
    ["duplicate keys deep inside", scalar([obj(["k", 1n], ["k", 1n])]), "duplicate_key"],
    ["duplicate __proto__ keys", call(obj(["__proto__", 1n], ["__proto__", 2n])), "duplicate_key"],
    ["duplicate among many keys", call(obj(...Array.from({ length: 12 }, (_, i): Member => [`k${i % 10}`, BigInt(i)]))), "duplicate_key"],
    ["duplicate as the 9th of 9 keys", call(obj(...Array.from({ length: 9 }, (_, i): Member => [`k${i % 8}`, null]))), "duplicate_key"],
    ["duplicate first and last of 20 keys", call(obj(...Array.from({ length: 20 }, (_, i): Member => [i === 19 ? "k0" : `k${i}`, null]))), "duplicate_key"],
    ["binary data", scalar(new Uint8Array([1])), "unsupported_value"],
    ["undefined", scalar(undefined), "unsupported_value"],
    ["a function", scalar(() => 1), "unsupported_value"],
    ["a symbol", scalar(Symbol("s")), "unsupported_value"],
    ["a Map", scalar(new Map()), "unsupported_value"],
    ["a Date", scalar(new Date(0)), "unsupported_value"],
    ["unsupported before a later duplicate", call(obj(["a", new Uint8Array()], ["b", 1n], ["b", 1n])), "unsupported_value"],
    ["too_deep before a later duplicate", call(obj(["a", nest(600)], ["b", 1n], ["b", 1n])), "too_deep"],
    ["duplicate before a later too_deep", call(obj(["b", 1n], ["b", 1n], ["a", nest(600)])), "duplicate_key"],
    ["too_deep in a top-level array before the envelope", [nest(600)], "too_deep"],
    ["top-level string", "t", "bad_envelope"],
    ["top-level null", null, "bad_envelope"],
    ["top-level empty object", obj(), "bad_envelope"],
    ["missing args", obj(["tool_name", "t"]), "bad_envelope"],
    ["missing tool_name", obj(["args", obj()]), "bad_envelope"],
    ["args null", call(null), "bad_envelope"],
    ["args a string", call("x"), "bad_envelope"],
    ["tool_name null", call(obj(), null), "bad_envelope"],
    ["two tool_names", obj(["tool_name", "t"], ["tool_name", "u"]), "duplicate_key"],
    ["misspelled key", obj(["tool_name", "t"], ["arg", obj()]), "bad_envelope"],
  ];
  for (const c of rejected) test(c[0], () => assertRejected(c));

  test("many distinct keys are not duplicates", () => {
    for (const n of [8, 9, 50]) {
      const members = Array.from({ length: n }, (_, i): Member => [`k${String(i).padStart(2, "0")}`, BigInt(i)]);
      const text = members.map(([k, v]) => `"${String(k)}":${String(v)}`).join(",");
      assert.equal(canonical(call(obj(...[...members].reverse()))), wrap(`{${text}}`));
    }
  });

  test("the envelope's member order does not matter", () => {
    assert.equal(canonical(obj(["args", obj()], ["tool_name", "t"])), wrap("{}"));
  });

  test("errors carry a message for people", () => {
    assert.throws(() => canonical(call(obj(["a", 1n], ["a", 2n]))), /duplicate object key "a"/);
  });
});

describe("plain objects (SDK convenience)", () => {
  const accepted: Accepted[] = [
    ["plain envelope", { tool_name: "t", args: { b: 1, a: [1.5, null] } }, wrap('{"a":[1.5,null],"b":1}')],
    ["null-prototype object", { tool_name: "t", args: Object.assign(Object.create(null) as object, { x: true }) }, wrap('{"x":true}')],
    ["own __proto__ key from JSON.parse", { tool_name: "t", args: JSON.parse('{"__proto__":1,"constructor":2}') as unknown }, wrap('{"__proto__":1,"constructor":2}')],
    ["integer-like keys", { tool_name: "t", args: { "10": 1, "2": 2, "01": 3 } }, wrap('{"01":3,"10":1,"2":2}')],
    ["mixed with JsonObject", { tool_name: "t", args: obj(["k", { z: 1, y: 2 }]) }, wrap('{"k":{"y":2,"z":1}}')],
  ];
  for (const c of accepted) test(c[0], () => assertAccepted(c));

  const rejected: Rejected[] = [
    ["symbol key", { tool_name: "t", args: { [Symbol("s")]: 1 } }, "non_string_key"],
    ["class instance as args (outside the model, found by the walk)", { tool_name: "t", args: new (class Args {})() }, "unsupported_value"],
    ["class instance inside", { tool_name: "t", args: { a: new (class Thing {})() } }, "unsupported_value"],
    ["undefined member", { tool_name: "t", args: { a: undefined } }, "unsupported_value"],
  ];
  for (const c of rejected) test(c[0], () => assertRejected(c));
});
