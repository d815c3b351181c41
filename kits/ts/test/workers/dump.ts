/**
 * A worker for the tests: its "canonical text" is a dump of the value it was
 * handed, so that tests see the model itself, and some cases act on cue:
 * the string "throw" throws a TypeError, "code:X" throws an error with
 * code X, "undefined" returns undefined. argv[2] is the model: "exact",
 * "native" or "native-bigint".
 */
import { serve, type NativeValue } from "../../src/index.js";
import { ExactObject, InvalidUtf8, UnknownExt } from "../../src/model.js";

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

function run(value: unknown): string {
  if (value === "throw") throw new TypeError("boom");
  if (typeof value === "string" && value.startsWith("code:")) throw Object.assign(new Error(`rejected as ${value.slice(5)}`), { code: value.slice(5) });
  if (value === "undefined") return undefined as unknown as string;
  return dump(value);
}

const model = process.argv[2] ?? "exact";
const info = { name: "dump", version: "1.0.0" };
if (model === "exact") await serve(run, { ...info, model: "exact" });
else await serve((value: NativeValue) => run(value), { ...info, model: "native", bigint: model === "native-bigint" });
