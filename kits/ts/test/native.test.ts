/** The native model (src/native.ts): JSON.parse's values, or the reason a case has none. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Inexpressible, nativeReasons, toNative } from "../src/native.js";
import { WireDecoder } from "../src/decode.js";
import { cat, mp, mpNest } from "./support.js";

/** A case as the kit hands it to a native worker's function. */
function native(bytes: Uint8Array, bigint = false): unknown {
  return toNative(new WireDecoder({ smallInts: "number" }).decodeValue(bytes), bigint);
}

const value = (bytes: Uint8Array, bigint = false): unknown => {
  const result = native(bytes, bigint);
  if (typeof result === "object" && result !== null && "value" in result) return result.value;
  return assert.fail(`not expressible: ${result instanceof Inexpressible ? result.reason : String(result)}`);
};

const reason = (bytes: Uint8Array, bigint = false): string => {
  const result = native(bytes, bigint);
  assert.ok(result instanceof Inexpressible, "expressible");
  assert.ok(result.message.length > 0);
  return result.reason;
};

describe("native values", () => {
  test("maps are plain objects as JSON.parse makes them, __proto__ an own key", () => {
    const keys = ["b", "__proto__", "constructor", "1", "toString"];
    const got = value(mp.map(...keys.map((k, i): [Uint8Array, Uint8Array] => [mp.str(k), mp.int(i)]))) as Record<string, unknown>;
    const parsed = JSON.parse('{"b":0,"__proto__":1,"constructor":2,"1":3,"toString":4}') as Record<string, unknown>;
    assert.deepEqual(got, parsed);
    assert.equal(Object.getPrototypeOf(got), Object.prototype);
    assert.deepEqual(Object.keys(got), Object.keys(parsed), "JavaScript's own key order");
    assert.ok(Object.hasOwn(got, "__proto__"));
    assert.equal(got["__proto__"], 1);
    assert.deepEqual(value(mp.map()), {});
  });

  test("numbers: integers and floats are numbers; unsafe integers are bigints only with bigint", () => {
    assert.deepEqual(value(mp.arr(mp.int(5), mp.f64(5), mp.int(2n ** 53n - 1n), mp.big("-9007199254740991"), mp.f64(2 ** 60), mp.big("-0"))), [
      5,
      5,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
      2 ** 60,
      0,
    ]);
    assert.deepEqual(value(mp.arr(mp.int(2n ** 53n), mp.big("-100000000000000000000000")), true), [2n ** 53n, -(10n ** 23n)]);
    for (const big of [mp.int(2n ** 53n), mp.int(-(2n ** 53n)), mp.int(2n ** 64n - 1n), mp.big("100000000000000000000000")]) {
      assert.equal(reason(mp.arr(big)), "big_int");
    }
  });

  test("strings keep lone surrogates; bin is a Uint8Array; NaN and -0.0 are numbers", () => {
    assert.deepEqual(value(mp.map([mp.utf16(0xd800), mp.utf16(0xdc00, 0x41)])), { "\ud800": "\udc00A" });
    assert.deepEqual(value(mp.arr(mp.bin([1, 2]))), [Uint8Array.of(1, 2)]);
    assert.deepEqual(value(mp.arr(mp.f64(NaN), mp.f64(-0))), [NaN, -0]);
  });

  test("1000 levels are a value; 1001 are too deep for the walk", () => {
    assert.ok(Array.isArray(value(mpNest(1000))));
    assert.equal(native(mpNest(1001)), "too_deep");
    assert.equal(native(mpNest(100_000)), "too_deep");
  });
});

describe("inexpressible cases", () => {
  const cases: Array<[name: string, bytes: Uint8Array, reason: string]> = [
    ["a repeated key", mp.map([mp.str("a"), mp.nil], [mp.str("a"), mp.nil]), "duplicate_key"],
    ["a repeated __proto__ key", mp.map([mp.str("__proto__"), mp.nil], [mp.str("__proto__"), mp.nil]), "duplicate_key"],
    ["a key as str and as ext 2", mp.map([mp.str("k"), mp.nil], [mp.utf16s("k"), mp.nil]), "duplicate_key"],
    ["an int key", mp.map([mp.int(1), mp.nil]), "non_string_key"],
    ["a key that is not UTF-8", mp.map([mp.strBytes([0xff]), mp.nil]), "non_string_key"],
    ["a malformed ext 2 key", mp.map([mp.ext(2, [0x41]), mp.nil]), "non_string_key"],
    ["a map key", mp.map([mp.map(), mp.nil]), "non_string_key"],
    ["an unknown ext", mp.arr(mp.ext(5, [1])), "unsupported_value"],
    ["a malformed ext 1", mp.arr(mp.big("01")), "unsupported_value"],
    ["a str that is not UTF-8", mp.arr(mp.strBytes([0xed, 0xa0, 0x80])), "unsupported_value"],
    ["a repeated key before a later big int", mp.map([mp.str("a"), mp.nil], [mp.str("a"), mp.int(2n ** 60n)]), "duplicate_key"],
    ["a big int before a later repeated key", mp.map([mp.str("a"), mp.int(2n ** 60n)], [mp.str("a"), mp.nil]), "big_int"],
    ["a bad ext before a later non-string key", mp.map([mp.str("a"), mp.ext(9, [])], [mp.int(1), mp.nil]), "unsupported_value"],
    ["deep inside arrays", cat(mpNest(50).subarray(0, 49), mp.arr(mp.big("1e5"))), "unsupported_value"],
  ];
  for (const [name, bytes, expected] of cases) test(name, () => assert.equal(reason(bytes), expected));

  test("the hello's reasons: big_int only without bigint", () => {
    assert.deepEqual(nativeReasons(false), ["duplicate_key", "big_int", "non_string_key", "unsupported_value"]);
    assert.deepEqual(nativeReasons(true), ["duplicate_key", "non_string_key", "unsupported_value"]);
  });
});
