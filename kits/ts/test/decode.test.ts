/**
 * msgpack values into the exact model (src/decode.ts) without losing order,
 * duplicates, precision, the integer/float distinction or the place of a
 * value outside the model.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { WireDecoder, type ItemSink, type SinkChooser } from "../src/decode.js";
import { ExactObject, InvalidUtf8, UnknownExt, type ExactMember } from "../src/exact.js";
import { cat, concat, mp, mpCall, mpNest, obj } from "./support.js";

const decode = (bytes: Uint8Array): unknown => new WireDecoder().decodeValue(bytes);

/** The members of args in a decoded envelope. */
function decodedArgs(bytes: Uint8Array): ExactMember[] {
  const value = decode(bytes);
  assert.ok(value instanceof ExactObject);
  const args = value.members.find(([k]) => k === "args")?.[1];
  assert.ok(args instanceof ExactObject);
  return args.members;
}

/** The envelope with args {"v": value}, as msgpack. */
const mpScalar = (value: Uint8Array): Uint8Array => mpCall(mp.map([mp.str("v"), value]));

/** The decoded value of args' member "v". */
function decodedScalar(value: Uint8Array): unknown {
  const members = decodedArgs(mpScalar(value));
  assert.equal(members.length, 1);
  return members[0]![1];
}

describe("integers and floats", () => {
  const values: Array<[name: string, bytes: Uint8Array, decoded: number | bigint]> = [
    ["positive fixint", mp.int(5), 5n],
    ["negative fixint", mp.int(-5), -5n],
    ["uint8", Uint8Array.of(0xcc, 0xff), 255n],
    ["int16", Uint8Array.of(0xd1, 0x80, 0x00), -32768n],
    ["uint32 max", Uint8Array.of(0xce, 0xff, 0xff, 0xff, 0xff), 4294967295n],
    ["int64 2^53-1", mp.int(2n ** 53n - 1n), 2n ** 53n - 1n],
    ["int64 2^53+1 keeps precision", mp.int(2n ** 53n + 1n), 2n ** 53n + 1n],
    ["int64 -(2^53+1)", mp.int(-(2n ** 53n) - 1n), -(2n ** 53n) - 1n],
    ["uint64 2^63", Uint8Array.of(0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0), 2n ** 63n],
    ["int64 -2^63", Uint8Array.of(0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0), -(2n ** 63n)],
    ["uint64 2^64-1", Uint8Array.of(0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 2n ** 64n - 1n],
    ["uint64 holding 5", Uint8Array.of(0xcf, 0, 0, 0, 0, 0, 0, 0, 5), 5n],
    ["ext 1 2^64", mp.big("18446744073709551616"), 2n ** 64n],
    ["ext 1 -2^64", mp.big("-18446744073709551616"), -(2n ** 64n)],
    ["ext 1 10^30", mp.big("1000000000000000000000000000000"), 10n ** 30n],
    ["ext 1 small integer", mp.big("7"), 7n],
    ["ext 1 -0", mp.big("-0"), 0n],
    ["float 64 5.0", mp.f64(5), 5],
    ["float 64 1e21", mp.f64(1e21), 1e21],
    ["float 64 -0.0", mp.f64(-0), -0],
    ["float 64 NaN", mp.f64(NaN), NaN],
    ["float 64 -Infinity", mp.f64(-Infinity), -Infinity],
    ["float 64 5e-324", mp.f64(5e-324), 5e-324],
    ["float 32 1.5", mp.f32(1.5), 1.5],
    ["float 32 0.1 widens exactly", mp.f32(0.1), Math.fround(0.1)],
  ];
  for (const [name, bytes, decoded] of values) {
    test(name, () => {
      assert.equal(decodedScalar(bytes), decoded);
      assert.equal(decode(bytes), decoded, "as a top-level value");
      assert.deepEqual(decode(mp.arr(bytes, bytes)), [decoded, decoded], "as array items");
    });
  }

  test("the test encoders write the widths they claim", () => {
    assert.equal(mp.f64(5)[0], 0xcb);
    assert.equal(mp.f32(1.5)[0], 0xca);
    assert.equal(mp.int(2n ** 53n + 1n)[0], 0xcf);
    assert.equal(mp.int(-(2n ** 53n) - 1n)[0], 0xd3);
    assert.equal(mp.big("1")[0], 0xd4);
  });

  test("an integer and a float of one value stay apart, wherever they are", () => {
    const both = mp.arr(mp.int(1), mp.f64(1), mp.map([mp.int(2), mp.f64(2)], [mp.f64(3), mp.int(3)]), mp.f32(4), mp.int(4));
    assert.deepEqual(decode(both), [1n, 1, obj([2n, 2], [3, 3n]), 4, 4n]);
  });

  test('smallInts "number": safe integers are numbers, the others bigints', () => {
    const decoder = new WireDecoder({ smallInts: "number" });
    const bytes = mp.arr(mp.int(5), mp.int(2n ** 53n - 1n), mp.int(2n ** 53n), mp.big("-9007199254740991"), mp.big("-9007199254740992"), mp.f64(1));
    assert.deepEqual(decoder.decodeValue(bytes), [5, 2 ** 53 - 1, 2n ** 53n, -(2 ** 53 - 1), -(2n ** 53n), 1]);
  });
});

describe("strings", () => {
  test("str decodes as UTF-8", () => {
    assert.equal(decodedScalar(mp.str("h\u00e9\u{1F600}")), "h\u00e9\u{1F600}");
  });

  test("ext 2 keeps lone surrogates as UTF-16 code units", () => {
    assert.equal(decodedScalar(mp.utf16(0xd800, 0x41, 0xdc00)), "\ud800A\udc00");
  });

  test("ext 2 holding a valid string is that string", () => {
    assert.equal(decodedScalar(mp.utf16s("a\u{1F600}")), "a\u{1F600}");
  });

  test("ext 2 as a key, __proto__ too", () => {
    const members = decodedArgs(mpCall(mp.map([mp.utf16(0xdbff), mp.nil], [mp.utf16s("__proto__"), mp.nil])));
    assert.deepEqual(members, [["\udbff", null], ["__proto__", null]]);
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

  const invalid: Array<[name: string, bytes: number[]]> = [
    ["stray continuation byte", [0x61, 0x80]],
    ["0xff", [0xff]],
    ["overlong NUL", [0xc0, 0x80]],
    ["surrogate in UTF-8 form (WTF-8)", [0xed, 0xa0, 0x80]],
    ["above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
    ["cut inside a character", [0xe2, 0x82]],
    ["long, invalid at the start", [0xff, ...Buffer.from("\u00e9".repeat(600))]],
    ["long, invalid in the middle of ASCII", [...Buffer.from("a".repeat(700)), 0x80, ...Buffer.from("a".repeat(700))]],
    ["long, cut at the end of non-ASCII", [...Buffer.from("\u00e9".repeat(600)), 0xe2, 0x82]],
  ];
  for (const [name, bytes] of invalid) {
    test(`str that is not UTF-8 (${name}) is an InvalidUtf8 holding its bytes, value or key`, () => {
      const value = decodedScalar(mp.strBytes(bytes));
      assert.ok(value instanceof InvalidUtf8);
      assert.deepEqual([...value.bytes], bytes);
      const key = decodedArgs(mpCall(mp.map([mp.strBytes(bytes), mp.nil])))[0]![0];
      assert.ok(key instanceof InvalidUtf8);
    });
  }
});

describe("maps keep order, duplicates and special keys", () => {
  test("member order is input order, whatever the keys look like", () => {
    const keys = ["b", "1", "__proto__", "constructor", "a", "0", "toString", "", "10", "hasOwnProperty"];
    const members = decodedArgs(mpCall(mp.map(...keys.map((k, i): [Uint8Array, Uint8Array] => [mp.str(k), mp.int(i)]))));
    assert.deepEqual(members, keys.map((k, i) => [k, BigInt(i)]));
  });

  test("duplicate keys are kept, in order; str and ext 2 spellings of a key are both strings", () => {
    const members = decodedArgs(mpCall(mp.map([mp.str("a"), mp.int(1)], [mp.str("b"), mp.int(2)], [mp.utf16s("a"), mp.int(3)])));
    assert.deepEqual(members, [["a", 1n], ["b", 2n], ["a", 3n]]);
  });

  test("nested maps get their own members", () => {
    const inner = mp.map([mp.str("y"), mp.int(1)], [mp.str("x"), mp.map([mp.str("q"), mp.nil])]);
    const members = decodedArgs(mpCall(mp.map([mp.str("b"), inner], [mp.str("a"), mp.arr(inner, mp.map())])));
    const innerValue = obj(["y", 1n], ["x", obj(["q", null])]);
    assert.deepEqual(members, [["b", innerValue], ["a", [innerValue, obj()]]]);
  });

  test("strs inside a map key are values, keys inside it are keys", () => {
    const key = mp.map([mp.str("__proto__"), mp.arr(mp.str("__proto__"), mp.utf16s("__proto__"))]);
    const members = decodedArgs(mpCall(mp.map([key, mp.str("v")], [mp.str("k"), mp.utf16s("w")])));
    assert.deepEqual(members, [[obj(["__proto__", ["__proto__", "__proto__"]]), "v"], ["k", "w"]]);
  });

  test("a map of 70,000 members (map 32)", () => {
    const n = 70_000;
    const pairs: Uint8Array[] = [];
    for (let i = 0; i < n; i++) pairs.push(mp.str(`k${i}`), mp.int(i));
    const members = decodedArgs(mpCall(concat([[0xdf, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff], ...pairs])));
    assert.equal(members.length, n);
    assert.deepEqual(members[n - 1], [`k${n - 1}`, BigInt(n - 1)]);
  });

  test("the object hook makes every map, the empty ones too, from its complete member list", () => {
    const seen: number[] = [];
    const decoder = new WireDecoder({
      object: (members) => {
        seen.push(members.length);
        return { hooked: members.map(([k, v]) => [k, v]) };
      },
    });
    const bytes = mp.map([mp.str("e"), mp.map()], [mp.map(), mp.arr(mp.map(), mp.map([mp.str("x"), mp.int(1)]))]);
    assert.deepEqual(decoder.decodeValue(bytes), {
      hooked: [
        ["e", { hooked: [] }],
        [{ hooked: [] }, [{ hooked: [] }, { hooked: [["x", 1n]] }]],
      ],
    });
    assert.deepEqual(seen, [0, 0, 0, 1, 2]);
    assert.deepEqual(decoder.decodeValue(mp.map()), { hooked: [] }, "a top-level empty map");
  });

  test("a request's own map is an ExactObject and its fields as sent, whatever the hook", () => {
    const decoder = new WireDecoder({ object: () => "hooked" });
    const request = decoder.decodeRequest(
      mp.map([mp.str("id"), mp.int(7)], [mp.str("big"), mp.int(2n ** 40n)], [mp.str("cases"), mp.arr(mp.map(), mp.int(7))]),
    );
    assert.deepEqual(request, obj(["id", 7], ["big", 2n ** 40n], ["cases", ["hooked", 7n]]));
    assert.deepEqual(decoder.decodeValue(mp.map([mp.str("id"), mp.int(7)])), "hooked", "a value is hooked at the top too");
  });
});

describe("values outside the model are kept for the implementation to reject in its walk", () => {
  test("bin is a Uint8Array", () => {
    assert.deepEqual(decodedScalar(mp.bin([1, 2])), Uint8Array.of(1, 2));
    assert.deepEqual(decodedScalar(mp.bin([])), new Uint8Array(0));
  });

  const exts: Array<[name: string, bytes: Uint8Array, type: number]> = [
    ["unknown ext type", mp.ext(5, [1]), 5],
    ["ext -1 (timestamp) is not decoded", mp.ext(-1, [0, 0, 0, 0]), -1],
    ["malformed ext -1 does not fail the frame", mp.ext(-1, [0, 0, 0]), -1],
    ["ext 1 with a leading zero", mp.big("01"), 1],
    ["ext 1 with a plus sign", mp.big("+5"), 1],
    ["ext 1 empty", mp.big(""), 1],
    ["ext 1 with an exponent", mp.big("1e5"), 1],
    ["ext 1 with spaces", mp.big(" 5"), 1],
    ["ext 1 with a byte over 0x7f", mp.ext(1, [0x31, 0xb9]), 1],
    ["ext 2 of odd length", mp.ext(2, [0x41, 0x00, 0x42]), 2],
  ];
  for (const [name, bytes, type] of exts) {
    test(`${name}: an UnknownExt, as a value and as a key`, () => {
      const value = decodedScalar(bytes);
      assert.ok(value instanceof UnknownExt);
      assert.equal(value.type, type);
      assert.ok(decodedArgs(mpCall(mp.map([bytes, mp.nil])))[0]![0] instanceof UnknownExt);
    });
  }

  test("keys that are not strings are handed over as the values they are, in place", () => {
    const members = decodedArgs(
      mpCall(
        mp.map(
          [mp.int(1), mp.nil],
          [mp.nil, mp.nil],
          [mp.f64(1.5), mp.nil],
          [Uint8Array.of(0xc3), mp.nil],
          [mp.bin([0x61]), mp.nil],
          [mp.big("1"), mp.nil],
          [mp.arr(mp.str("a")), mp.nil],
          [mp.map([mp.str("a"), mp.nil]), mp.nil],
          [mp.str("b"), mp.bin([])],
        ),
      ),
    );
    assert.deepEqual(
      members.map(([k]) => k),
      [1n, null, 1.5, true, Uint8Array.of(0x61), 1n, ["a"], obj(["a", null]), "b"],
    );
  });
});

describe("depth", () => {
  test("1000 levels of arrays and of maps decode", () => {
    let value = decode(mpNest(1000));
    for (let i = 1; i < 1000; i++) value = (value as unknown[])[0];
    assert.deepEqual(value, []);
    let map = decode(cat(...Array.from({ length: 999 }, () => cat([0x81], mp.str("k"))), [0x80]));
    for (let i = 1; i < 1000; i++) map = (map as ExactObject).members[0]![1];
    assert.deepEqual(map, obj());
  });

  test("100,000 levels decode without a stack overflow", () => {
    assert.ok(Array.isArray(decode(mpNest(100_000))));
  });
});

describe("streamed arrays (ItemSink)", () => {
  /** A sink that records what it is given and keeps each item in its place. */
  class Recorder implements ItemSink {
    readonly indexes: number[] = [];
    ended: unknown[] | undefined;
    item(value: unknown, index: number): unknown {
      this.indexes.push(index);
      return { item: value };
    }
    end(items: unknown[]): unknown {
      this.ended = items;
      return this;
    }
  }

  /** A chooser that streams the arrays of members named `key`, recording each question. */
  function streaming(key = "cases"): { choose: SinkChooser; asked: Array<[unknown, ExactMember[]]>; sinks: Recorder[] } {
    const asked: Array<[unknown, ExactMember[]]> = [];
    const sinks: Recorder[] = [];
    const choose: SinkChooser = (k, before) => {
      asked.push([k, [...before]]);
      if (k !== key) return undefined;
      const sink = new Recorder();
      sinks.push(sink);
      return sink;
    };
    return { choose, asked, sinks };
  }

  const request = (cases: Uint8Array[]): Uint8Array => mp.map([mp.str("type"), mp.str("batch")], [mp.str("cases"), mp.arr(...cases)]);

  // Every kind of wire value, decoded as an item of a streamed array, must
  // give what it gives decoded alone.
  const items: Array<[name: string, bytes: Uint8Array]> = [
    ["a plain case", mpCall(mp.map([mp.str("k"), mp.arr(mp.int(1), mp.f64(1.5), mp.nil)]))],
    ["an integer", mp.int(1)],
    ["a float", mp.f64(1)],
    ["ext 1 big integer", mpScalar(mp.big("-1000000000000000000000000000000"))],
    ["malformed ext 1", mpScalar(mp.big("01"))],
    ["ext 2 value with a lone surrogate", mpScalar(mp.utf16(0xd800))],
    ["ext 2 key __proto__", mpCall(mp.map([mp.utf16s("__proto__"), mp.int(1)]))],
    ["bin value", mpScalar(mp.bin([1, 2]))],
    ["non-string key", mpCall(mp.map([mp.int(1), mp.nil]))],
    ["invalid UTF-8 value", mpScalar(mp.strBytes([0xed, 0xa0, 0x80]))],
    ["invalid UTF-8 key", mpCall(mp.map([mp.strBytes([0xff]), mp.nil]))],
    ["leading U+FEFF, long", mpScalar(mp.str("\ufeff" + "\u00e9".repeat(1000)))],
    ["__proto__ and \"1\" keys", mpCall(mp.map([mp.str("__proto__"), mp.int(1)], [mp.str("1"), mp.int(2)]))],
    ["duplicate keys", mpCall(mp.map([mp.str("a"), mp.int(1)], [mp.str("a"), mp.int(2)]))],
    ["1000 levels of arrays", mpNest(1000)],
    ["300 levels of maps", cat(...Array.from({ length: 299 }, () => cat([0x81], mp.str("k"))), [0x80])],
    ["an empty map", mp.map()],
    ["an empty array", mp.arr()],
    ["nil", mp.nil],
  ];
  test("every kind of item decodes as it does alone", () => {
    const { choose, sinks } = streaming();
    const decoded = new WireDecoder().decodeRequest(request(items.map(([, bytes]) => bytes)), choose);
    assert.equal(sinks.length, 1);
    const sink = sinks[0]!;
    assert.ok(decoded instanceof ExactObject);
    assert.equal(decoded.members[1]![1], sink, "the member's value is what end() returned");
    assert.deepEqual(sink.indexes, items.map((_, i) => i));
    for (const [i, [name, bytes]] of items.entries()) assert.deepEqual(sink.ended![i], { item: decode(bytes) }, name);
  });

  test("the chooser is asked with the member's key and the members before it", () => {
    const { choose, asked } = streaming();
    const bytes = mp.map([mp.str("type"), mp.str("batch")], [mp.str("a"), mp.arr(mp.int(1))], [mp.str("id"), mp.int(7)], [mp.str("cases"), mp.arr(mp.nil)]);
    new WireDecoder().decodeRequest(bytes, choose);
    assert.deepEqual(asked, [
      ["a", [["type", "batch"]]],
      ["cases", [["type", "batch"], ["a", [1n]], ["id", 7]]],
    ]);
  });

  const notAsked: Array<[name: string, bytes: Uint8Array]> = [
    ["an empty array", mp.map([mp.str("cases"), mp.arr()])],
    ["an array nested deeper", mp.map([mp.str("x"), mp.map([mp.str("cases"), mp.arr(mp.nil)])])],
    ["an array inside a top-level array", mp.arr(mp.arr(mp.nil))],
    ["an array as a map key", mp.map([mp.arr(mp.nil), mp.nil])],
    ["a top-level array", mp.arr(mp.nil)],
    ["a scalar member", mp.map([mp.str("cases"), mp.int(1)])],
  ];
  for (const [name, bytes] of notAsked) {
    test(`not asked about ${name}, which decodes as usual`, () => {
      const { choose, asked } = streaming();
      assert.deepEqual(new WireDecoder().decodeRequest(bytes, choose), new WireDecoder().decodeRequest(bytes));
      assert.deepEqual(asked, []);
    });
  }

  test("an array the chooser declines decodes as usual", () => {
    const { choose, sinks } = streaming("other");
    const bytes = request([mpCall(mp.map()), mp.nil]);
    assert.deepEqual(new WireDecoder().decodeRequest(bytes, choose), new WireDecoder().decodeRequest(bytes));
    assert.equal(sinks.length, 0);
  });

  test("two streamed arrays in one map each get their own sink", () => {
    const { choose, sinks } = streaming();
    new WireDecoder().decodeRequest(mp.map([mp.str("cases"), mp.arr(mp.nil)], [mp.str("cases"), mp.arr(mp.nil, mp.nil)]), choose);
    assert.deepEqual(sinks.map((sink) => sink.indexes), [[0], [0, 1]]);
  });

  test("a frame that fails after some items: the sink saw them, the decoder throws and is usable again", () => {
    const { choose, sinks } = streaming();
    const whole = request([mpCall(mp.map()), mpCall(mp.map()), mpCall(mp.map())]);
    const decoder = new WireDecoder();
    assert.throws(() => decoder.decodeRequest(whole.subarray(0, whole.length - 3), choose));
    assert.deepEqual(sinks[0]!.indexes, [0, 1]);
    assert.equal(sinks[0]!.ended, undefined);
    assert.deepEqual(decoder.decodeValue(mp.arr(mp.int(1), mp.f64(1))), [1n, 1]);
    const again = streaming();
    decoder.decodeRequest(whole, again.choose);
    assert.deepEqual(again.sinks[0]!.indexes, [0, 1, 2]);
  });

  test("without a chooser the next decode streams nothing", () => {
    const decoder = new WireDecoder();
    decoder.decodeRequest(request([mp.nil]), streaming().choose);
    const plain = decoder.decodeRequest(request([mp.nil]));
    assert.ok(plain instanceof ExactObject);
    assert.deepEqual(plain.members[1], ["cases", [null]]);
  });
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
  for (const [name, bytes] of cases) test(name, () => assert.throws(() => decode(bytes)));

  test("the decoder is usable again after a failure, its float flag cleared", () => {
    const decoder = new WireDecoder();
    assert.throws(() => decoder.decodeValue(Uint8Array.of(0x92, 0xcb, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f)));
    assert.deepEqual(decoder.decodeValue(mp.arr(mp.int(1))), [1n]);
  });
});
