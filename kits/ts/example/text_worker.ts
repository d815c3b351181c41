/**
 * A worker for docs/your-sdk.md: the naive baseline in the text model. Each
 * case arrives as JSON text, as a tool call's arguments do, is read by
 * JSON.parse (numbers as doubles, the last repeated key kept) and written by
 * JSON.stringify with every object's keys sorted. difffuzz init ts -model
 * text runs it as `node dist/worker.js`.
 */
import { serve } from "@difffuzz/kit";

/** The value with each object's keys sorted (Object.fromEntries keeps a `__proto__` key as an own key). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, sortKeys(object[key])]));
}

await serve((text) => JSON.stringify(sortKeys(JSON.parse(text))), {
  name: "json-parse-stringify-sorted",
  version: process.versions.node,
  model: "text",
});
