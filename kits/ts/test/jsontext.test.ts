/**
 * The text model's writer (src/jsontext.ts): every spelling reads back, under
 * the spec's reader (docs/canonical-json.md §6, written out below), as the
 * case it spells; the same value is spelled in many ways across cases; only
 * what JSON text cannot spell is inexpressible.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ExactObject, UnknownExt, type ExactMember } from "../src/model.js";
import { Inexpressible } from "../src/native.js";
import { toJsonText } from "../src/jsontext.js";

/** The spec's reader: integers as bigint, floats as number, ExactObjects with repeats, lone surrogates kept. */
function read(text: string): unknown {
  let i = 0;
  const ws = (): void => {
    while (" \t\n\r".includes(text[i] ?? "x")) i++;
  };
  const expect = (s: string): void => {
    assert.equal(text.slice(i, i + s.length), s, `at ${i} of ${JSON.stringify(text)}`);
    i += s.length;
  };
  const str = (): string => {
    expect('"');
    let out = "";
    for (;;) {
      const c = text[i++]!;
      if (c === '"') return out;
      if (c !== "\\") {
        assert.ok(c >= " ", "raw control character");
        out += c;
        continue;
      }
      const e = text[i++]!;
      if (e === "u") {
        out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
        i += 4;
      } else out += ({ '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as Record<string, string>)[e]!;
    }
  };
  const value = (): unknown => {
    ws();
    let v: unknown;
    const c = text[i]!;
    if (c === "{") {
      i++;
      const members: ExactMember[] = [];
      ws();
      if (text[i] === "}") i++;
      else
        for (;;) {
          ws();
          const k = str();
          ws();
          expect(":");
          members.push([k, value()]);
          if (text[i++] === "}") break;
          assert.equal(text[i - 1], ",");
        }
      v = new ExactObject(members);
    } else if (c === "[") {
      i++;
      const items: unknown[] = [];
      ws();
      if (text[i] === "]") i++;
      else
        for (;;) {
          items.push(value());
          if (text[i++] === "]") break;
          assert.equal(text[i - 1], ",");
        }
      v = items;
    } else if (c === '"') v = str();
    else {
      const m = /^(?:null|true|false|NaN|-?Infinity|-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?)/.exec(text.slice(i))!;
      assert.ok(m, `no value at ${i} of ${JSON.stringify(text)}`);
      i += m[0].length;
      const words: Record<string, unknown> = { null: null, true: true, false: false, NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };
      v = m[0] in words ? words[m[0]] : m[1] !== undefined || m[2] !== undefined ? Number(m[0]) : BigInt(m[0]);
    }
    ws();
    return v;
  };
  const v = value();
  assert.equal(i, text.length);
  return v;
}

const big = 2n ** 64n;
const edges: unknown[] = [
  null, true, false, 0n, -1n, -(2n ** 63n), big - 1n, big, 10n ** 400n,
  0, -0, 1, 100, 1e21, 1e-7, 1.5e-8, 123456.789, 5e-324, Number.MAX_VALUE, -2.5, NaN, Infinity, -Infinity,
  "", 'A/"\\\b\f\n\r\t\x00\x1f\x7f', "é€😀", "\ud800", "a\udc00\ud800😀",
  [], new ExactObject([]), new ExactObject([["a", 1n], ["a", 2]]),
];

/** A deterministic random value (xorshift), with the edges' ingredients. */
function randomValues(count: number): unknown[] {
  let s = 12345;
  const rand = (n: number): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
  const str = (): string => Array.from({ length: rand(8) }, () => ['"', "\\", "/", "\0", "\n", "\x1f", "a", "\x7f", "é", "\ufeff", "😀", "\ud800"][rand(12)]).join("");
  const val = (depth: number): unknown => {
    switch (rand(depth > 0 ? 9 : 5)) {
      case 0:
        return [null, true, false][rand(3)];
      case 1:
        return BigInt(rand(1 << 30)) ** BigInt(rand(4)) * (rand(2) ? 1n : -1n);
      case 2:
        return [0, 1, 0.1, 1e22, 1e-300, 123.456, 2 ** 60, NaN][rand(8)]! * (rand(2) ? 1 : -1);
      case 3:
        return (rand(1 << 30) / (1 + rand(1000))) * 10 ** (rand(600) - 300);
      case 4:
        return str();
      case 5:
      case 6:
        return Array.from({ length: rand(4) }, () => val(depth - 1));
      default:
        return new ExactObject(Array.from({ length: rand(4) }, (): ExactMember => [str(), val(depth - 1)]));
    }
  };
  return Array.from({ length: count }, () => val(4));
}

test("every spelling reads back as its case", () => {
  for (const v of [...edges, ...randomValues(2000)]) {
    const text = toJsonText(v);
    assert.equal(typeof text, "string");
    assert.deepEqual(read(text as string), v, JSON.stringify(text));
  }
});

test("the same value is spelled many ways across cases, one way per value", () => {
  for (const leaf of ['A/"é😀\n', 100, -0.00015, new ExactObject([["k", null]])]) {
    const seen = new Set<string>();
    for (let i = 0n; i < 200n; i++) {
      const text = toJsonText([i, leaf]) as string;
      assert.equal(toJsonText([i, leaf]), text);
      seen.add(text.slice(text.indexOf(",") + 1));
    }
    assert.ok(seen.size >= 20, `${String(leaf)}: ${seen.size} spellings`);
  }
});

test("the golden line, the same in every kit", () => {
  const value = new ExactObject([
    ["tool_name", 'a/"é😀\n'],
    ["args", new ExactObject([["n", [-12n, 1.5, 100, 0, 1e-9, big]], ["n", [null, true, false, "\ud800"]]])],
  ]);
  const want = "\n{\"tool_\\u006Eame\"\n  :\"a\\/\\u0022é😀\\n\",  \"args\":\t{\n\"n\"\n  :[  -12,1.5\r\n, 0.1e+3,\t0.0E0,0.1e-8,\r\n18446744073709551616],\"n\":\n  [null\n,\ntrue,\tfalse, \"\\uD800\"]}}\n  ";
  assert.equal(toJsonText(value), want);
});

test("only what JSON text cannot spell is inexpressible", () => {
  const cases: [unknown, string][] = [
    [[new Uint8Array([1])], "unsupported_value"],
    [new UnknownExt(9, new Uint8Array()), "unsupported_value"],
    [new ExactObject([[1n, null]]), "non_string_key"],
    [new ExactObject([["a", new ExactObject([["b", null], [[], null]])]]), "non_string_key"],
  ];
  for (const [v, reason] of cases) {
    const got = toJsonText(v);
    assert.ok(got instanceof Inexpressible && got.reason === reason, String(got));
  }
});
