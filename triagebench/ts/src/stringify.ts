/**
 * The SDK that canonicalizes with the platform: JSON.parse the tool call's
 * arguments, copy every object with its keys sorted, and JSON.stringify the
 * copy. It knows nothing of the protocol (see stringify-worker.ts).
 */

/** The canonical text of `text`, JSON as it arrives; throws what JSON.parse throws. */
export function canonicalText(text: string): string {
  return JSON.stringify(sortKeys(JSON.parse(text)));
}

/** A copy of `value` with every object's keys inserted in sorted order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) sorted[key] = sortKeys(object[key]);
  return sorted;
}
