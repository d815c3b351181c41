/** The planted bugs are really there: the benchmark's cause lists (triagebench/impls/*.toml) count on each of them. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { canonical, quote } from "../src/handrolled.js";
import { canonicalText } from "../src/stringify.js";

test("stringify: JSON.parse throws a SyntaxError on NaN", () => {
  assert.throws(() => canonicalText('{"a":NaN}'), SyntaxError);
});

test("stringify: the planted bugs", () => {
  const cases: [string, string][] = [
    ['{"\\uff61":1,"\\ud83d\\ude00":2}', '{"😀":2,"｡":1}'], // UTF-16 key order, non-ASCII raw
    ['{"b":1,"10":2,"2":3}', '{"2":3,"10":2,"b":1}'], // integer-like keys first
    ['{"__proto__":1,"a":2}', '{"a":2}'], // __proto__ dropped
    ['{"a":1,"a":2}', '{"a":2}'], // the last repeated key wins
    ['{"a":9007199254740993}', '{"a":9007199254740992}'], // integers through a double
    ['{"a":"\\u007f"}', '{"a":"\u007f"}'], // DEL raw
  ];
  for (const [text, want] of cases) assert.equal(canonicalText(text), want, text);
});

test("handrolled: the planted bugs", () => {
  assert.equal(canonical({ a: Number.NaN }), '{"a":null}');
  assert.equal(canonical({ a: 2n ** 64n }), "{}");
  assert.equal(canonical({ a: new Uint8Array([1]) }), "{}");
  assert.equal(quote("é\n\u007f"), '"\\u00E9\\u000A\u007f"');
  assert.equal(canonical({ "\uff61": 1, "\ud83d\ude00": 2 }), '{"\\uD83D\\uDE00":2,"\\uFF61":1}');
});
