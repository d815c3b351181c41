/**
 * A worker for the tests: its "canonical text" is a dump of the value it was
 * handed, so that tests see the model itself, and some cases act on cue:
 * the string "throw" throws a TypeError, "code:X" throws an error with
 * code X ("spec:X" a SpecError), "undefined" returns undefined, "lone"
 * returns a text holding a lone surrogate at index 7, "signed:N" returns
 * its dump with a digest of its own, N bytes of 7, "json" throws JSON.parse's
 * SyntaxError from parseArgs, "overflow" overflows the stack in a cycle
 * of ping and pong, "throw-string" throws a string, "node-error" gets a
 * TypeError from inside Node's own code. argv[2] is the model:
 * "exact", "native", "native-bigint" or "text" (the case's text is a
 * string, dumped as such, and the cues are texts); argv[3] "chatty" makes it print, as an SDK's debug
 * logging would, a line to stdout at start and a line to stdout and one to
 * stderr on every case.
 */
import { SpecError, serve, type ErrorCode, type NativeValue, type Outcome } from "../../src/index.js";
import { ExactObject, InvalidUtf8, UnknownExt } from "../../src/exact.js";

function dump(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "string" || typeof value === "boolean" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(dump).join(",")}]`;
  if (value instanceof ExactObject) return `{${value.members.map(([k, v]) => `${dump(k)}:${dump(v)}`).join(",")}}`;
  if (value instanceof Uint8Array) return `bin(${[...value].join(" ")})`;
  if (value instanceof UnknownExt) return `ext(${value.type})`;
  if (value instanceof InvalidUtf8) return "invalid";
  const object = value as Record<string, unknown>;
  return `plain{${Object.keys(object).map((k) => `${JSON.stringify(k)}:${dump(object[k])}`).join(",")}}`;
}

/** What "throw-string" throws: a string, as an SDK may throw anything (typed unknown, as a caught value is). */
const NOT_AN_ERROR: unknown = "oops";

const chatty = process.argv[3] === "chatty";

/** Reads a tool call's arguments, as an SDK would: JSON.parse throws a SyntaxError on this text. */
function parseArgs(text: string): unknown {
  return JSON.parse(text);
}

/** A recursion with no end through two functions: a RangeError wherever the stack runs out. */
function ping(n: number): number {
  return pong(n + 1) + 1;
}

function pong(n: number): number {
  return ping(n + 1) + 1;
}

function run(value: unknown): Outcome {
  if (chatty) {
    console.log(`debug: canonicalizing ${dump(value)}`);
    console.error("debug: canonicalized");
  }
  if (value === "throw") throw new TypeError("boom");
  if (value === "json") return String(parseArgs('{"a":'));
  if (value === "overflow") return String(ping(0));
  if (value === "node-error") return Buffer.from(7 as unknown as string).toString(); // a TypeError raised in node:buffer
  if (value === "throw-string") throw NOT_AN_ERROR;
  if (typeof value === "string" && value.startsWith("spec:")) throw new SpecError(value.slice(5) as ErrorCode, `rejected as ${value.slice(5)}`);
  if (value === "lone") return '"abcdef\uD800"';
  if (typeof value === "string" && value.startsWith("code:")) throw Object.assign(new Error(`rejected as ${value.slice(5)}`), { code: value.slice(5) });
  if (typeof value === "string" && value.startsWith("signed:")) return { canonical: dump(value), digest: new Uint8Array(Number(value.slice(7))).fill(7) };
  if (value === "undefined") return undefined as unknown as string;
  return dump(value);
}

const model = process.argv[2] ?? "exact";
const info = { name: "dump", version: "1.0.0" };
if (chatty) console.log("debug: starting");
if (model === "exact") await serve(run, { ...info, model: "exact" });
else if (model === "text") await serve(run, { ...info, model: "text" });
else await serve((value: NativeValue) => run(value), { ...info, model: "native", bigint: model === "native-bigint" });
