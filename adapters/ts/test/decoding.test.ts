/**
 * The library on cases as the worker decodes them (the kit's exact model,
 * maps as JsonObjects): what canonical() makes of every kind of wire value.
 * How the values themselves decode, framing and streaming are the kit's
 * tests (kits/ts/test).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CanonicalError, JsonObject, canonical, type ErrorCode } from "../src/canonical.js";
import { cat, concat, exactCase, mp, mpCall, mpNest } from "@difffuzz/kit/testing";

/** A case as the worker (src/worker.ts) gets it: the exact model, maps made JsonObjects. */
const decoded = (bytes: Uint8Array): unknown => exactCase(bytes, { object: (members) => new JsonObject(members) });

const wrap = (argsText: string): string => `{"args":${argsText},"tool_name":"t"}`;
/** The envelope with args {"v": value}, as msgpack. */
const mpScalar = (value: Uint8Array): Uint8Array => mpCall(mp.map([mp.str("v"), value]));
const scalarText = (text: string): string => wrap(`{"v":${text}}`);

type Outcome = { text: string } | { code: ErrorCode };

/** What canonical() makes of a case: its text or its error code. */
function outcomeOf(value: unknown): Outcome {
  try {
    return { text: canonical(value) };
  } catch (e) {
    if (e instanceof CanonicalError) return { code: e.code };
    throw e;
  }
}

/** The name of a value's class. */
function classOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? value.constructor.name : undefined;
}

/** What canonical() makes of a decoded case. */
function outcome(bytes: Uint8Array): Outcome {
  return outcomeOf(decoded(bytes));
}

/** The members of args in a decoded envelope. */
function decodedArgs(bytes: Uint8Array): ReadonlyArray<readonly [unknown, unknown]> {
  const value = decoded(bytes);
  assert.ok(value instanceof JsonObject);
  const args = value.members.find(([k]) => k === "args")?.[1];
  assert.ok(args instanceof JsonObject);
  return args.members;
}

/** The decoded value of args' member "v". */
function decodedScalar(value: Uint8Array): unknown {
  const members = decodedArgs(mpScalar(value));
  assert.equal(members.length, 1);
  return members[0]![1];
}

describe("integers and floats", () => {
  const values: Array<[name: string, bytes: Uint8Array, decoded: unknown, text: string]> = [
    ["positive fixint", mp.int(5), 5n, "5"],
    ["negative fixint", mp.int(-5), -5n, "-5"],
    ["uint32 max", Uint8Array.of(0xce, 0xff, 0xff, 0xff, 0xff), 4294967295n, "4294967295"],
    ["int64 2^53-1", mp.int(2n ** 53n - 1n), 2n ** 53n - 1n, "9007199254740991"],
    ["int64 2^53+1 keeps precision", mp.int(2n ** 53n + 1n), 2n ** 53n + 1n, "9007199254740993"],
    ["int64 -(2^53+1)", mp.int(-(2n ** 53n) - 1n), -(2n ** 53n) - 1n, "-9007199254740993"],
    ["uint64 2^63", Uint8Array.of(0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0), 2n ** 63n, "9223372036854775808"],
    ["int64 -2^63", Uint8Array.of(0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0), -(2n ** 63n), "-9223372036854775808"],
    ["uint64 2^64-1", Uint8Array.of(0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 2n ** 64n - 1n, "18446744073709551615"],
    ["uint64 holding 5", Uint8Array.of(0xcf, 0, 0, 0, 0, 0, 0, 0, 5), 5n, "5"],
    ["ext 1 2^64", mp.big("18446744073709551616"), 2n ** 64n, "18446744073709551616"],
    ["ext 1 -2^64", mp.big("-18446744073709551616"), -(2n ** 64n), "-18446744073709551616"],
    ["ext 1 10^30", mp.big("1000000000000000000000000000000"), 10n ** 30n, "1000000000000000000000000000000"],
    ["ext 1 -10^30", mp.big("-1000000000000000000000000000000"), -(10n ** 30n), "-1000000000000000000000000000000"],
    ["ext 1 10^21 is an integer", mp.big("1000000000000000000000"), 10n ** 21n, "1000000000000000000000"],
    ["ext 1 small integer", mp.big("7"), 7n, "7"],
    ["ext 1 -0", mp.big("-0"), 0n, "0"],
    ["float 64 5.0", mp.f64(5), 5, "5"],
    ["float 64 1e21 is a float", mp.f64(1e21), 1e21, "1e+21"],
    ["float 64 -0.0", mp.f64(-0), -0, "0"],
    ["float 64 NaN", mp.f64(NaN), NaN, "NaN"],
    ["float 64 -Infinity", mp.f64(-Infinity), -Infinity, "-Infinity"],
    ["float 64 5e-324", mp.f64(5e-324), 5e-324, "5e-324"],
    ["float 64 9007199254740993.0", mp.f64(Number("9007199254740993.0")), 9007199254740992, "9007199254740992"],
    ["float 32 1.5", mp.f32(1.5), 1.5, "1.5"],
    ["float 32 0.1 widens exactly", mp.f32(0.1), Math.fround(0.1), "0.10000000149011612"],
    ["float 32 1e21 is a float", mp.f32(1e21), Math.fround(1e21), "1.0000000200408773e+21"],
  ];
  for (const [name, bytes, decoded, text] of values) {
    test(name, () => {
      assert.equal(decodedScalar(bytes), decoded);
      assert.deepEqual(outcome(mpScalar(bytes)), { text: scalarText(text) });
    });
  }

  test("the test encoders write the widths they claim", () => {
    assert.equal(mp.f64(5)[0], 0xcb);
    assert.equal(mp.f32(1.5)[0], 0xca);
    assert.equal(mp.int(2n ** 53n + 1n)[0], 0xcf);
    assert.equal(mp.int(-(2n ** 53n) - 1n)[0], 0xd3);
    assert.equal(mp.big("1")[0], 0xd4);
  });

  test("integers always decode to bigint, floats always to number", () => {
    assert.equal(typeof decodedScalar(mp.int(2n ** 63n - 1n)), "bigint");
    assert.equal(typeof decodedScalar(mp.int(1)), "bigint");
    assert.equal(typeof decodedScalar(mp.f64(2 ** 63)), "number");
    assert.equal(typeof decodedScalar(mp.f64(1)), "number");
  });
});

describe("strings", () => {
  test("str decodes as UTF-8", () => {
    assert.equal(decodedScalar(mp.str("h\u00e9\u{1F600}")), "h\u00e9\u{1F600}");
  });

  test("ext 2 keeps lone surrogates as UTF-16 code units", () => {
    assert.equal(decodedScalar(mp.utf16(0xd800, 0x41, 0xdc00)), "\ud800A\udc00");
    assert.deepEqual(outcome(mpScalar(mp.utf16(0xd800))), { code: "lone_surrogate" });
  });

  test("ext 2 holding a valid string is that string", () => {
    assert.equal(decodedScalar(mp.utf16s("a\u{1F600}")), "a\u{1F600}");
    assert.deepEqual(outcome(mpScalar(mp.utf16s("\u{1F600}"))), { text: scalarText('"\\ud83d\\ude00"') });
  });

  test("ext 2 as a key", () => {
    const members = decodedArgs(mpCall(mp.map([mp.utf16(0xdbff), mp.nil], [mp.utf16s("__proto__"), mp.nil])));
    assert.deepEqual(members, [["\udbff", null], ["__proto__", null]]);
    assert.deepEqual(outcome(mpCall(mp.map([mp.utf16s("k"), mp.int(1)]))), { text: wrap('{"k":1}') });
    assert.deepEqual(outcome(mpCall(mp.map([mp.utf16(0xdbff), mp.int(1)]))), { code: "lone_surrogate" });
  });

  test("str and ext 2 keys spelling the same string are duplicates", () => {
    assert.deepEqual(outcome(mpCall(mp.map([mp.str("k"), mp.nil], [mp.utf16s("k"), mp.nil]))), { code: "duplicate_key" });
  });

  const bom: Array<[name: string, text: string]> = [
    ["short str starting with U+FEFF", "\ufeffa"],
    ["long str starting with U+FEFF (the library's TextDecoder path drops it)", "\ufeff" + "a".repeat(300)],
    ["long non-ASCII str starting with U+FEFF", "\ufeff" + "\u00e9".repeat(150)],
    ["only U+FEFF", "\ufeff"],
    ["two U+FEFF", "\ufeff\ufeff"],
  ];
  for (const [name, text] of bom) {
    test(`value: ${name}`, () => assert.equal(decodedScalar(mp.str(text)), text));
    test(`key: ${name}`, () => assert.deepEqual(decodedArgs(mpCall(mp.map([mp.str(text), mp.nil]))), [[text, null]]));
  }

  test("keys and values of every length class decode alike (short ASCII fast path and TextDecoder)", () => {
    for (const n of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 23, 24, 25, 31, 32, 255, 256, 300, 1023, 1024]) {
      for (const text of ["a".repeat(n), "a".repeat(n) + "\u00e9", "\u{1F600}" + "b".repeat(n), "\u007f".repeat(n)]) {
        assert.equal(decodedScalar(mp.str(text)), text, `value of ${n}`);
        assert.deepEqual(decodedArgs(mpCall(mp.map([mp.str(text), mp.nil]))), [[text, null]], `key of ${n}`);
      }
    }
  });

  test("a long str key (no key cache limits)", () => {
    const key = "\u00e9".repeat(5000);
    assert.deepEqual(decodedArgs(mpCall(mp.map([mp.str(key), mp.nil]))), [[key, null]]);
  });

  // From 1024 bytes on, strs take another path (vectorised check, then a
  // Latin-1 copy or ICU's conversion): every kind of text must come out the same.
  const long: Array<[name: string, text: string]> = [
    ["ASCII", "a".repeat(1024)],
    ["ASCII with controls and DEL", "\u0000\u001f\u007f".repeat(400)],
    ["Latin-1", "\u00e9".repeat(600)],
    ["BOM then ASCII", "\ufeff" + "a".repeat(2000)],
    ["BOM then non-ASCII", "\ufeff" + "\u00e9".repeat(2000)],
    ["astral characters", "\u{1F600}\u{10FFFF}\u{10000}".repeat(200)],
    ["noncharacters and format characters", "\ufffe\uffff\ufdd0\u2028\u200b\ufeff".repeat(100)],
    ["mixed, 1023 bytes then more", "a".repeat(1022) + "\u00e9" + "\u4e2d".repeat(10)],
    ["one byte under the long path", "\u00e9".repeat(511) + "a"],
  ];
  for (const [name, text] of long) {
    test(`long str: ${name}`, () => {
      assert.equal(decodedScalar(mp.str(text)), text);
      assert.deepEqual(decodedArgs(mpCall(mp.map([mp.str(text), mp.nil]))), [[text, null]]);
    });
  }

  const longInvalid: Array<[name: string, bytes: number[]]> = [
    ["stray continuation byte", [0x80]],
    ["0xff", [0xff]],
    ["overlong NUL", [0xc0, 0x80]],
    ["surrogate in UTF-8 form (WTF-8)", [0xed, 0xa0, 0x80]],
    ["above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
  ];
  for (const [name, bad] of longInvalid) {
    for (const [where, bytes] of [
      ["at the start", [...bad, ...Buffer.from("\u00e9".repeat(600))]],
      ["in the middle of ASCII", [...Buffer.from("a".repeat(700)), ...bad, ...Buffer.from("a".repeat(700))]],
      ["at the end of non-ASCII", [...Buffer.from("\u00e9".repeat(600)), ...bad]],
    ] as Array<[string, number[]]>) {
      test(`long str with invalid UTF-8: ${name} ${where}`, () => {
        assert.deepEqual(outcome(mpScalar(mp.strBytes(bytes))), { code: "unsupported_value" });
        assert.deepEqual(outcome(mpCall(mp.map([mp.strBytes(bytes), mp.nil]))), { code: "non_string_key" });
      });
    }
  }

  test("long str cut inside a character", () => {
    const bytes = [...Buffer.from("\u00e9".repeat(600)), 0xe2, 0x82];
    assert.deepEqual(outcome(mpScalar(mp.strBytes(bytes))), { code: "unsupported_value" });
  });
});

describe("maps keep order, duplicates and special keys", () => {
  test("member order is input order, whatever the keys look like", () => {
    const keys = ["b", "1", "__proto__", "constructor", "a", "0", "toString", "", "10", "hasOwnProperty"];
    const members = decodedArgs(mpCall(mp.map(...keys.map((k, i): [Uint8Array, Uint8Array] => [mp.str(k), mp.int(i)]))));
    assert.deepEqual(members, keys.map((k, i) => [k, BigInt(i)]));
  });

  test("duplicate keys are kept, in order", () => {
    const members = decodedArgs(mpCall(mp.map([mp.str("a"), mp.int(1)], [mp.str("b"), mp.int(2)], [mp.str("a"), mp.int(3)])));
    assert.deepEqual(members, [["a", 1n], ["b", 2n], ["a", 3n]]);
  });

  test("duplicate __proto__ keys are kept and reported", () => {
    const bytes = mpCall(mp.map([mp.str("__proto__"), mp.int(1)], [mp.str("__proto__"), mp.int(2)]));
    assert.deepEqual(decodedArgs(bytes), [["__proto__", 1n], ["__proto__", 2n]]);
    assert.deepEqual(outcome(bytes), { code: "duplicate_key" });
  });

  test("a single __proto__ key is an ordinary key", () => {
    const bytes = mpCall(mp.map([mp.str("__proto__"), mp.map([mp.str("x"), mp.int(1)])], [mp.str("1"), mp.int(2)]));
    assert.deepEqual(outcome(bytes), { text: wrap('{"1":2,"__proto__":{"x":1}}') });
  });

  test("nested maps get their own keys (key ids interleave with nesting)", () => {
    const inner = mp.map([mp.str("y"), mp.int(1)], [mp.str("x"), mp.map([mp.str("q"), mp.nil])]);
    const bytes = mpCall(mp.map([mp.str("b"), inner], [mp.str("a"), mp.arr(inner, mp.map())]));
    assert.deepEqual(outcome(bytes), {
      text: wrap('{"a":[{"x":{"q":null},"y":1},{}],"b":{"x":{"q":null},"y":1}}'),
    });
  });

  test("empty maps are empty objects wherever they are (value, key, array item, envelope)", () => {
    assert.deepEqual(outcome(mpCall(mp.map([mp.str("e"), mp.map()], [mp.str("l"), mp.arr(mp.map(), mp.map())]))), {
      text: wrap('{"e":{},"l":[{},{}]}'),
    });
    assert.deepEqual(outcome(mpCall(mp.map([mp.map(), mp.nil]))), { code: "non_string_key" });
    assert.deepEqual(outcome(mp.map()), { code: "bad_envelope" });
  });

  test("strs inside a map key are values, keys inside it are keys", () => {
    const key = mp.map([mp.str("__proto__"), mp.arr(mp.str("__proto__"), mp.utf16s("__proto__"))]);
    const members = decodedArgs(mpCall(mp.map([key, mp.str("v")], [mp.str("k"), mp.utf16s("w")])));
    assert.equal(members.length, 2);
    const inner = members[0]![0];
    assert.ok(inner instanceof JsonObject);
    assert.deepEqual(inner.members, [["__proto__", ["__proto__", "__proto__"]]]);
    assert.deepEqual(members.map(([, v]) => v), ["v", "w"]);
  });

  test("an envelope written args-first decodes the same", () => {
    const bytes = mp.map([mp.str("args"), mp.map()], [mp.str("tool_name"), mp.str("t")]);
    assert.deepEqual(outcome(bytes), { text: wrap("{}") });
  });

  test("a map of 70,000 members (map 16 width is not enough: map 32)", () => {
    const n = 70_000;
    const pairs: Uint8Array[] = [];
    for (let i = 0; i < n; i++) pairs.push(mp.str(`k${i}`), mp.int(i));
    const map = concat([[0xdf, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff], ...pairs]);
    const members = decodedArgs(mpCall(map));
    assert.equal(members.length, n);
    assert.deepEqual(members[n - 1], [`k${n - 1}`, BigInt(n - 1)]);
  });
});

describe("values outside the model are per-case errors", () => {
  const cases: Array<[name: string, bytes: Uint8Array, code: ErrorCode]> = [
    ["bin value", mpScalar(mp.bin([1, 2])), "unsupported_value"],
    ["empty bin value", mpScalar(mp.bin([])), "unsupported_value"],
    ["unknown ext type", mpScalar(mp.ext(5, [1])), "unsupported_value"],
    ["ext -1 (timestamp) is not decoded", mpScalar(mp.ext(-1, [0, 0, 0, 0])), "unsupported_value"],
    ["malformed ext -1 does not fail the frame", mpScalar(mp.ext(-1, [0, 0, 0])), "unsupported_value"],
    ["ext 1 with a leading zero", mpScalar(mp.big("01")), "unsupported_value"],
    ["ext 1 with a plus sign", mpScalar(mp.big("+5")), "unsupported_value"],
    ["ext 1 empty", mpScalar(mp.big("")), "unsupported_value"],
    ["ext 1 with an exponent", mpScalar(mp.big("1e5")), "unsupported_value"],
    ["ext 1 with spaces", mpScalar(mp.big(" 5")), "unsupported_value"],
    ["ext 1 with a byte over 0x7f", mpScalar(mp.ext(1, [0x31, 0xb9])), "unsupported_value"],
    ["ext 2 of odd length", mpScalar(mp.ext(2, [0x41, 0x00, 0x42])), "unsupported_value"],
    ["int key", mpCall(mp.map([mp.int(1), mp.nil])), "non_string_key"],
    ["nil key", mpCall(mp.map([mp.nil, mp.nil])), "non_string_key"],
    ["float key", mpCall(mp.map([mp.f64(1.5), mp.nil])), "non_string_key"],
    ["bool key", mpCall(mp.map([Uint8Array.of(0xc3), mp.nil])), "non_string_key"],
    ["bin key", mpCall(mp.map([mp.bin([0x61]), mp.nil])), "non_string_key"],
    ["ext 1 key", mpCall(mp.map([mp.big("1"), mp.nil])), "non_string_key"],
    ["unknown ext key", mpCall(mp.map([mp.ext(7, []), mp.nil])), "non_string_key"],
    ["malformed ext 2 key", mpCall(mp.map([mp.ext(2, [0x41]), mp.nil])), "non_string_key"],
    ["array key", mpCall(mp.map([mp.arr(mp.str("a")), mp.nil])), "non_string_key"],
    ["map key", mpCall(mp.map([mp.map([mp.str("a"), mp.nil]), mp.nil])), "non_string_key"],
    ["non-string key before a later bin", mpCall(mp.map([mp.int(1), mp.nil], [mp.str("b"), mp.bin([])])), "non_string_key"],
    ["bin before a later non-string key", mpCall(mp.map([mp.str("b"), mp.bin([])], [mp.int(1), mp.nil])), "unsupported_value"],
    ["tool_name as ext 2 with a lone surrogate", mpCall(mp.map(), mp.utf16(0xd800)), "lone_surrogate"],
    ["tool_name as bin", mpCall(mp.map(), mp.bin([0x74])), "unsupported_value"],
    ["str with a stray continuation byte", mpScalar(mp.strBytes([0x61, 0x80])), "unsupported_value"],
    ["str with 0xff", mpScalar(mp.strBytes([0xff])), "unsupported_value"],
    ["str with an overlong NUL", mpScalar(mp.strBytes([0xc0, 0x80])), "unsupported_value"],
    ["str with a surrogate in UTF-8 form (WTF-8)", mpScalar(mp.strBytes([0xed, 0xa0, 0x80])), "unsupported_value"],
    ["str cut inside a character", mpScalar(mp.strBytes([0xe2, 0x82])), "unsupported_value"],
    ["long str with invalid UTF-8", mpScalar(mp.strBytes([...Buffer.from("a".repeat(300)), 0xff])), "unsupported_value"],
    ["key with invalid UTF-8", mpCall(mp.map([mp.strBytes([0xff]), mp.nil])), "non_string_key"],
    ["invalid UTF-8 value after a duplicate key", mpCall(mp.map([mp.str("a"), mp.nil], [mp.str("a"), mp.strBytes([0xff])])), "duplicate_key"],
  ];
  for (const [name, bytes, code] of cases) test(name, () => assert.deepEqual(outcome(bytes), { code }));

  test("bin and unknown ext stay recognisable after decoding", () => {
    assert.ok(decodedScalar(mp.bin([1])) instanceof Uint8Array);
    // The kit's stand-ins for values outside the model are not its API: they are told apart by class name here.
    assert.equal(classOf(decodedScalar(mp.strBytes([0xff]))), "InvalidUtf8");
    assert.equal(decodedScalar(mp.strBytes([0x61])), "a");
    const ext = decodedScalar(mp.ext(9, [1, 2]));
    assert.equal(classOf(ext), "UnknownExt");
    assert.equal((ext as { type?: unknown }).type, 9);
  });
});

describe("depth on the wire", () => {
  const cases: Array<[name: string, bytes: Uint8Array, expected: Outcome]> = [
    ["512 levels in all", mpCall(mp.map([mp.str("a"), mpNest(510)])), { text: wrap(`{"a":${"[".repeat(510)}${"]".repeat(510)}}`) }],
    ["513 levels in all", mpCall(mp.map([mp.str("a"), mpNest(511)])), { code: "too_deep" }],
    ["1000 levels", mpNest(1000), { code: "too_deep" }],
    ["1000 levels of maps", cat(...Array.from({ length: 999 }, () => cat([0x81], mp.str("k"))), [0x80]), { code: "too_deep" }],
    ["100,000 levels (no stack overflow)", mpNest(100_000), { code: "too_deep" }],
    ["too deep before a later duplicate", mpCall(mp.map([mp.str("a"), mpNest(600)], [mp.str("b"), mp.nil], [mp.str("b"), mp.nil])), { code: "too_deep" }],
    ["duplicate before a later too deep", mpCall(mp.map([mp.str("b"), mp.nil], [mp.str("b"), mp.nil], [mp.str("a"), mpNest(600)])), { code: "duplicate_key" }],
    ["bin before a later too deep", mpCall(mp.map([mp.str("b"), mp.bin([])], [mp.str("a"), mpNest(600)])), { code: "unsupported_value" }],
  ];
  for (const [name, bytes, expected] of cases) test(name, () => assert.deepEqual(outcome(bytes), expected));
});

describe("undecodable bytes throw (the worker answers with an error message)", () => {
  const cases: Array<[string, Uint8Array]> = [
    ["reserved type byte 0xc1", Uint8Array.of(0xc1)],
    ["truncated map", Uint8Array.of(0x82, 0xa1, 0x61)],
    ["trailing bytes", Uint8Array.of(0xc0, 0xc0)],
    ["truncated str", Uint8Array.of(0xa5, 0x61)],
    ["map 32 header claiming 2^32-1 members", Uint8Array.of(0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 0x61, 0xc0)],
    ["array 32 header claiming 2^32-1 items", Uint8Array.of(0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0)],
    ["map cut between a key and its value", Uint8Array.of(0x81, 0xa1, 0x61)],
  ];
  for (const [name, bytes] of cases) test(name, () => assert.throws(() => decoded(bytes)));
});
