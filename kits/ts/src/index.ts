/**
 * The difffuzz worker kit for TypeScript: `serve(fn, options)` runs the
 * whole adapter protocol (docs/adapter-protocol.md) around a function from a
 * case to its canonical bytes. See README.md.
 *
 * What a team calls, and only that (docs/your-sdk.md, "The kits'
 * vocabulary", which test/vocabulary.test.ts holds this list to): the
 * protocol's insides (frames, the channel, the msgpack reader) are private
 * to the kit, and package.json's `exports` resolves only this entry and
 * `@difffuzz/kit/testing`.
 */
export { serve, type Outcome, type Signed, type ServeOptions, type ExactWorker, type NativeWorker, type TextWorker, type WorkerInfo } from "./serve.js";
export type { ModelName } from "./models.js";
export { SpecError, type ErrorCode } from "./failure.js";
export { ExactObject, type ExactMember } from "./exact.js";
export { Inexpressible, type NativeValue, type Reason } from "./native.js";
