/**
 * A worker for docs/your-sdk.md: the naive baseline, JSON.stringify with sorted keys, in
 * the native model (plain objects, as JSON.parse makes them); `difffuzz init ts` builds it to dist/worker.js.
 */
import { SpecError, serve, type NativeValue } from "@difffuzz/kit";

/** The value with each object's keys sorted (Object.fromEntries keeps a `__proto__` key as an own key). */
function sortKeys(value: NativeValue): unknown {
  if (value instanceof Uint8Array) throw new SpecError("unsupported_value", "bin data has no JSON text");
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key]!)]));
}

await serve((value) => JSON.stringify(sortKeys(value)), {
  name: "json-stringify-sorted",
  version: process.versions.node,
  model: "native",
});
