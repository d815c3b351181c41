/**
 * The exact value model (docs/adapter-protocol.md, "Values on the wire") in
 * JavaScript terms: what decode.ts makes of a case's msgpack, and the
 * native model (native.ts) is converted from.
 *
 * | wire                         | value                                              |
 * |------------------------------|----------------------------------------------------|
 * | nil, true, false             | `null`, `true`, `false`                            |
 * | int family, ext 1            | `bigint`                                           |
 * | float 64, float 32           | `number`                                           |
 * | str, ext 2                   | `string` (lone surrogates kept)                     |
 * | array                        | `Array`                                            |
 * | map                          | {@link ExactObject}, or what the `object` hook makes of its members |
 * | bin                          | `Uint8Array` (outside the model)                   |
 * | other or malformed ext       | {@link UnknownExt} (outside the model)             |
 * | str that is not UTF-8        | {@link InvalidUtf8} (outside the model)            |
 *
 * Map keys are decoded the same way: a key that is not a string is handed
 * over as that value, so that the implementation reports `non_string_key` at
 * its place in its walk (and `unsupported_value` for a value outside the
 * model), not the kit before it.
 */

/** Ext type of a big integer written as ASCII decimal. */
export const EXT_BIGINT = 1;
/** Ext type of a string written as UTF-16LE code units (lone surrogates allowed). */
export const EXT_UTF16 = 2;

/** One member of an {@link ExactObject}: its key (any decoded value) and value. */
export type ExactMember = [key: unknown, value: unknown];

/** A map of the exact model: its members in wire order, duplicates and `__proto__` keys kept. */
export class ExactObject {
  constructor(readonly members: ExactMember[]) {}
}

/** A str whose bytes are not UTF-8: outside the model (`unsupported_value`, or `non_string_key` as a key). */
export class InvalidUtf8 {
  constructor(readonly bytes: Uint8Array) {}
}

/** An ext value other than a well-formed ext 1 or ext 2: outside the model. */
export class UnknownExt {
  constructor(
    readonly type: number,
    readonly data: Uint8Array,
  ) {}
}

/** How maps of the exact model are made (decode.ts says how its decoder builds them). */
export interface ExactOptions {
  /**
   * Makes a map's value from its members (called once the map is read, and
   * for an empty map), so that an implementation gets its own object type
   * without a copy, as json.loads's object_pairs_hook does. Default: an
   * {@link ExactObject}.
   */
  object?: (members: ExactMember[]) => unknown;
}

/** True for a decoded value outside the model (bin, other ext, not UTF-8); used by the native model. */
export function isOutside(value: unknown): value is Uint8Array | UnknownExt | InvalidUtf8 {
  return value instanceof Uint8Array || value instanceof UnknownExt || value instanceof InvalidUtf8;
}
