/**
 * The naive JavaScript baseline: JSON.stringify with every object's keys
 * sorted by Array.prototype.sort (UTF-16 order), as a team writes it in a
 * few lines instead of taking a library.
 */
import { serve, type NativeValue } from "@difffuzz/kit";

function sortKeys(value: NativeValue): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key]!)]));
}

await serve((value) => JSON.stringify(sortKeys(value)), { name: "JSON.stringify (sorted keys)", version: process.versions.node, model: "native" });
