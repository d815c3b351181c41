/** `@difffuzz/kit/testing`'s case decoders: a case as each model's function gets it. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Inexpressible, SpecError } from "../src/index.js";
import { exactCase, nativeCase } from "../src/testing.js";
import { mp, mpNest, obj } from "./support.js";

test("exactCase: the exact model, maps made by the object hook", () => {
  const bytes = mp.map([mp.str("a"), mp.int(1)], [mp.str("a"), mp.f64(1)]);
  assert.deepEqual(exactCase(bytes), obj(["a", 1n], ["a", 1]));
  assert.deepEqual(exactCase(bytes, { object: (members) => members.length }), 2);
  assert.throws(() => exactCase(Uint8Array.of(0xc1)));
});

test("nativeCase: what JSON.parse makes, or the Inexpressible the worker answers", () => {
  assert.deepEqual(nativeCase(mp.map([mp.str("b"), mp.arr(mp.int(1), mp.f64(1.5))])), { b: [1, 1.5] });
  const duplicate = nativeCase(mp.map([mp.str("a"), mp.nil], [mp.str("a"), mp.nil]));
  assert.ok(duplicate instanceof Inexpressible);
  assert.equal(duplicate.reason, "duplicate_key");
  const big = mp.int(2n ** 60n);
  assert.equal((nativeCase(big) as Inexpressible).reason, "big_int");
  assert.equal(nativeCase(big, { bigint: true }), 2n ** 60n);
  assert.throws(() => nativeCase(mpNest(1001)), (e: unknown) => e instanceof SpecError && e.code === "too_deep");
});
