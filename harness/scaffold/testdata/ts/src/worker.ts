/**
 * A worker for docs/your-sdk.md: the naive baseline, JSON.stringify with the
 * keys of every object sorted, in the native model (plain objects, as
 * JSON.parse makes them). difffuzz init ts runs it as `node dist/worker.js`.
 */
import { serve, type NativeValue } from "@difffuzz/kit";

/** The value with each object's keys sorted (Object.fromEntries keeps a `__proto__` key as an own key). */
function sortKeys(value: NativeValue): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key]!)]));
}

await serve((value) => JSON.stringify(sortKeys(value)), {
  name: "json-stringify-sorted",
  version: process.versions.node,
  model: "native",
});
