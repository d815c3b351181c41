/**
 * Test helpers: the kit's test builders (src/testing.ts, exported as
 * `@difffuzz/kit/testing`), an exact-model object builder, and the hook that
 * ends every worker a failed test left running.
 * (node --test runs this file too; it declares no tests.)
 */
import { after } from "node:test";
import { killWorkers } from "../src/testing.js";
import { ExactObject, type ExactMember } from "../src/exact.js";

export { Worker, cat, concat, header, mp, mpCall, mpNest, type Message } from "../src/testing.js";

after(killWorkers);

/** An exact-model object, duplicates allowed. */
export function obj(...members: ExactMember[]): ExactObject {
  return new ExactObject(members);
}
