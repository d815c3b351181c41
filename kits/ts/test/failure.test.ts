/**
 * What a thrown value becomes (src/failure.ts): its error_type, and its
 * frames read from V8 stack traces written out here, so that each rule
 * (the kit's frames cut, Node's and V8's own collapsed to their entry, a
 * message that holds "at" lines, a stack overflow's recursion) is tested
 * on a trace that exercises it. test/serve.test.ts checks real traces.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SpecError, ERROR_CODES, MAX_FRAMES, type Frame } from "../src/failure.js";
import { errorType, framesOf, internalResult, specCode } from "../src/failure.js";

/** The kit's own modules, as a trace names them (dist/src/). */
const KIT = new URL("../src/", import.meta.url).href;
const SDK = "file:///app/node_modules/sdk/canon.js";

/** An error of this name and message whose stack trace is the header followed by these frame lines. */
function traced(name: string, message: string, ...at: string[]): Error {
  const e = new Error(message);
  e.name = name;
  e.stack = [`${name}: ${message}`, ...at.map((line) => `    at ${line}`)].join("\n");
  return e;
}

const kitFrames = [`Session.compute (${KIT}serve.js:301:20)`, `StreamedCases.item (${KIT}serve.js:150:25)`, `ContainerState.set position [as position] (${KIT}decode.js:111:30)`];
const f = (fn: string, line: number, file = SDK): Frame => ({ file, function: fn, line });
const entry = (fn: string): Frame => ({ file: "", function: fn, line: 0 });

describe("framesOf", () => {
  const tests: Array<[name: string, error: Error, want: Frame[]]> = [
    [
      "the implementation's frames, innermost first, up to the kit's",
      traced("TypeError", "boom", `escape (${SDK}:41:9)`, `canonicalize (${SDK}:88:3)`, ...kitFrames),
      [f("escape", 41), f("canonicalize", 88)],
    ],
    [
      "a V8 builtin entered from the implementation: one frame, no file or line",
      traced("SyntaxError", "Unexpected token", "JSON.parse (<anonymous>)", `parseArgs (${SDK}:10:17)`, ...kitFrames),
      [entry("JSON.parse"), f("parseArgs", 10)],
    ],
    [
      "a run of Node's own frames: its entry point, the outermost",
      traced("TypeError", "bad", "new NodeError (node:internal/errors:405:5)", "validateString (node:internal/validators:162:11)", "Buffer.from (node:buffer:318:5)", `encode (${SDK}:3:14)`, ...kitFrames),
      [entry("Buffer.from"), f("encode", 3)],
    ],
    [
      "a builtin calling back into the implementation is kept between its frames",
      traced("Error", "x", `walk (${SDK}:5:11)`, "Array.map (<anonymous>)", `walk (${SDK}:7:20)`, ...kitFrames),
      [f("walk", 5), entry("Array.map"), f("walk", 7)],
    ],
    [
      "the function is a builtin itself: its entry frame alone",
      traced("SyntaxError", "Unexpected token", "JSON.parse (<anonymous>)", ...kitFrames),
      [entry("JSON.parse")],
    ],
    [
      "anonymous functions, constructors, top-level code, an alias",
      traced("Error", "x", `${SDK}:1:1`, `new Canon (${SDK}:2:2)`, `Canon.run [as fn] (${SDK}:3:3)`, ...kitFrames),
      [f("", 1), f("new Canon", 2), f("Canon.run", 3)],
    ],
    [
      "at most 8, innermost first",
      traced("Error", "deep", ...Array.from({ length: 20 }, (_, i) => `walk (${SDK}:${i + 1}:1)`), ...kitFrames),
      Array.from({ length: MAX_FRAMES }, (_, i) => f("walk", i + 1)),
    ],
    [
      "no frame of the kit's: the trace as far as it goes",
      traced("Error", "x", `walk (${SDK}:1:1)`, "process.processTicksAndRejections (node:internal/process/task_queues:95:5)"),
      [f("walk", 1)],
    ],
    [
      "lines of the message that look like frames are not read as frames",
      traced("SyntaxError", 'Unexpected token \'x\', "\n    at evil (file:///x.js:1:1)" is not valid JSON', "JSON.parse (<anonymous>)", `parse (${SDK}:9:9)`, ...kitFrames),
      [entry("JSON.parse"), f("parse", 9)],
    ],
    ["no stack at all", Object.assign(new Error("x"), { stack: undefined }), []],
  ];
  for (const [name, error, want] of tests) test(name, () => assert.deepEqual(framesOf(error), want));

  test("the kit's function anonymous: the frame it called has no name, and is known by its file and line", () => {
    const worker = "file:///w/worker.js";
    const e = traced("Error", "x", `canonicalize (${SDK}:12:3)`, `serve.name (${worker}:3:20)`, ...kitFrames);
    assert.deepEqual(framesOf(e, true), [f("canonicalize", 12), f("", 3, worker)]);
    assert.deepEqual(framesOf(e), [f("canonicalize", 12), f("serve.name", 3, worker)]);
    const builtin = traced("SyntaxError", "x", "JSON.parse (<anonymous>)", ...kitFrames);
    assert.deepEqual(framesOf(builtin, true), [entry("JSON.parse")]);
  });

  test("a stack overflow: the recursion's frames, each once, the same wherever it ran out", () => {
    const cycle = [`pong (${SDK}:20:10)`, `ping (${SDK}:12:10)`];
    const overflow = (...at: string[]): Error => traced("RangeError", "Maximum call stack size exceeded", ...at);
    const want = [f("ping", 12), f("pong", 20)];
    const traces = [
      overflow(...Array<string[]>(30).fill(cycle).flat()),
      overflow(...Array<string[]>(30).fill([...cycle].reverse()).flat()),
      // ran out in a helper, or in a builtin, called from the cycle
      overflow(`escape (${SDK}:3:3)`, ...Array<string[]>(30).fill(cycle).flat()),
      overflow("Object.keys (<anonymous>)", ...Array<string[]>(30).fill([...cycle].reverse()).flat()),
    ];
    for (const trace of traces) assert.deepEqual(framesOf(trace), want);
    // A RangeError of another kind is read as any error.
    const other = traced("RangeError", "Invalid array length", ...Array<string[]>(30).fill(cycle).flat());
    assert.equal(framesOf(other).length, MAX_FRAMES);
  });
});

describe("errorType", () => {
  class CanonError extends Error {}
  class Named extends Error {
    override name = "Named";
  }
  const tests: Array<[thrown: unknown, want: string]> = [
    [new SyntaxError("x"), "SyntaxError"],
    [new RangeError("x"), "RangeError"],
    [new TypeError("x"), "TypeError"],
    [new CanonError("x"), "Error"],
    [new Named("x"), "Named"],
    [Object.assign(new Error("x"), { name: "" }), "Error"],
    [Object.assign(new CanonError("x"), { name: "" }), "CanonError"],
    [Object.assign(Object.create(Error.prototype) as Error, { name: "", constructor: undefined }), "Error"],
    [new SpecError("too_deep"), "SpecError"],
    ["oops", "string"],
    [7, "number"],
    [7n, "bigint"],
    [undefined, "undefined"],
    [null, "null"],
    [{ message: "not an Error" }, "object"],
    [Symbol("s"), "symbol"],
  ];
  for (const [thrown, want] of tests) test(`${want}`, () => assert.equal(errorType(thrown), want));
});

describe("internalResult", () => {
  const again = (e: unknown) => (): unknown => e;
  test("an Error: its first line, its type, the frames of the second run", () => {
    const second = traced("TypeError", "boom", `escape (${SDK}:41:9)`, ...kitFrames);
    assert.deepEqual(internalResult(new TypeError("boom"), again(second)), {
      error: "internal",
      message: "TypeError: boom",
      error_type: "TypeError",
      frames: [f("escape", 41)],
    });
  });
  test("no frames when the second run did not fail alike", () => {
    for (const second of [undefined, new RangeError("other"), new SpecError("too_deep"), "string"]) {
      assert.deepEqual(internalResult(new TypeError("boom"), again(second)), { error: "internal", message: "TypeError: boom", error_type: "TypeError" });
    }
  });
  test("a thrown non-Error: what it says, typeof's name, no second run", () => {
    const never = (): unknown => assert.fail("ran again");
    assert.deepEqual(internalResult("oops", never), { error: "internal", message: "oops", error_type: "string" });
    assert.deepEqual(internalResult(Object.create(null), never), { error: "internal", message: "a thrown object", error_type: "object" });
    assert.deepEqual(internalResult(undefined, never), { error: "internal", message: "undefined", error_type: "undefined" });
  });
  test("the second run captures a trace deep enough, and the limit is restored", () => {
    Error.stackTraceLimit = 0;
    let depth = -1;
    internalResult(new Error("x"), () => {
      depth = Error.stackTraceLimit;
      return undefined;
    });
    assert.ok(depth >= 32, `limit ${depth}`);
    assert.equal(Error.stackTraceLimit, 0);
    Error.stackTraceLimit = 10;
  });
});

describe("SpecError", () => {
  test("answers its code; its message defaults to the code", () => {
    for (const code of ERROR_CODES) {
      const e = new SpecError(code, "why");
      assert.ok(e instanceof Error);
      assert.deepEqual([e.name, e.code, e.message, specCode(e)], ["SpecError", code, "why", code]);
      assert.equal(new SpecError(code).message, code);
    }
  });
  test("a code that is not the spec's is refused, and no other value has one", () => {
    assert.throws(() => new SpecError("internal" as "too_deep"), TypeError);
    for (const thrown of [{ code: "internal" }, { code: "ENOENT" }, "too_deep", null]) assert.equal(specCode(thrown), undefined);
    assert.equal(specCode({ code: "bad_envelope" }), "bad_envelope");
  });
});
