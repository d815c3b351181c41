/**
 * Test helpers shared by the test files: value builders for the canonical
 * model. The msgpack fragment builders are the kit's (`@difffuzz/kit/testing`).
 * (node --test runs this file too; it declares no tests.)
 */
import { JsonObject, type Member } from "../src/canonical.js";

/** An ordered object, duplicates allowed. */
export function obj(...members: Member[]): JsonObject {
  return new JsonObject(members);
}

/** The signed envelope {"tool_name": name, "args": args}. */
export function call(args: unknown, name: unknown = "t"): JsonObject {
  return obj(["tool_name", name], ["args", args]);
}

/** `depth` arrays nested inside each other around `inner` (depth 0 = inner itself). */
export function nest(depth: number, inner: unknown = undefined): unknown {
  let value: unknown = inner === undefined ? [] : [inner];
  for (let i = 1; i < depth; i++) value = [value];
  return depth === 0 ? inner : value;
}

/** Text of `depth` nested empty arrays. */
export function nestText(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

/** The first byte offset where two texts differ, with a little context, for failure messages. */
export function firstDifference(actual: string, expected: string): string {
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 20), i + 20));
  return `first difference at byte ${i}: got ${around(actual)}, want ${around(expected)}`;
}
