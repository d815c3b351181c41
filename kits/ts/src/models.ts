/**
 * The three models a worker serves (docs/adapter-protocol.md, "The value
 * models"), one object each behind {@link CaseModel}: how its cases are
 * decoded, what its hello says, and what each decoded case becomes before
 * the function gets it.
 */
import type { DecoderOptions } from "./decode.js";
import type { ExactOptions } from "./exact.js";
import { Inexpressible, nativeReasons, toNative, type Reason } from "./native.js";
import { INTERNAL } from "./failure.js";
import { decodeUtf8 } from "./utf8.js";

/** The model names a worker's options choose from (`model`). */
export type ModelName = "exact" | "native" | "text";

/** A case ready for the function: its model value, or the result it already has. */
export type Prepared =
  | { value: unknown }
  | { error: string; message: string }
  | { inexpressible: Reason; message: string };

/**
 * A case that shows the request itself is malformed (the driver broke the
 * protocol, not the implementation): the whole request is answered with an
 * `error` response.
 */
export class Malformed {
  constructor(readonly reason: string) {}
}

/** One model: what the session asks of it. */
export interface CaseModel {
  /** The hello's `model`. */
  readonly name: ModelName;
  /** The hello's `inexpressible`, if the model has any. */
  readonly inexpressible: readonly Reason[] | undefined;
  /** How its cases are decoded from msgpack. */
  readonly decoding: DecoderOptions;
  /** A decoded case as the function takes it, the result it has instead, or why the request is malformed. */
  prepare(value: unknown): Prepared | Malformed;
}

/** Lossless: the decoded case as it is (exact.ts), maps made by the worker's `object` hook. */
export class ExactModel implements CaseModel {
  readonly name = "exact";
  readonly inexpressible = undefined;
  readonly decoding: DecoderOptions;

  constructor(options: ExactOptions) {
    this.decoding = options.object === undefined ? {} : { object: options.object };
  }

  prepare(value: unknown): Prepared {
    return { value };
  }
}

/** What an SDK gets from JSON.parse (native.ts), or why the case cannot be that. */
export class NativeModel implements CaseModel {
  readonly name = "native";
  readonly inexpressible: readonly Reason[];
  // The native model is made from exact values with ExactObjects and safe integers as numbers (native.ts).
  readonly decoding: DecoderOptions = { smallInts: "number" };

  constructor(private readonly bigint: boolean) {
    this.inexpressible = nativeReasons(bigint);
  }

  prepare(value: unknown): Prepared {
    const native = toNative(value, this.bigint);
    if (native === "too_deep") return { error: "too_deep", message: "nested deeper than the protocol's 1000 levels" };
    if (native instanceof Inexpressible) return { inexpressible: native.reason, message: native.message };
    return native;
  }
}

/**
 * What JSON text cannot spell: the text model's hello `inexpressible`. The
 * driver answers these on the worker's behalf and never sends such a case.
 */
export const TEXT_REASONS: readonly Reason[] = ["non_string_key", "unsupported_value"];

/** The first protocol whose driver sends a text worker each case as its JSON text (bin). */
const TEXT_PROTOCOL = 4;

/** The `internal` message of a text worker served below protocol 4. */
const TEXT_NEEDS_PROTOCOL =
  "the text model needs a driver of protocol 4, which sends each case as its JSON text: this worker has no descriptors offered (DIFFFUZZ_FDS), so it speaks protocol 2 on stdin and stdout, where cases are values";

/**
 * The case as JSON text: at protocol 4 the driver's text (bin), handed over
 * as the string it holds, unchanged (a leading U+FEFF kept). A case that is
 * not UTF-8 bytes makes the request malformed. Below protocol 4 the cases
 * are values, which the kit does not spell as text.
 */
export class TextModel implements CaseModel {
  readonly name = "text";
  readonly inexpressible = TEXT_REASONS;
  // The cases are bin (protocol 4), the same in any model.
  readonly decoding: DecoderOptions = {};

  constructor(private readonly protocol: number) {}

  prepare(value: unknown): Prepared | Malformed {
    if (this.protocol < TEXT_PROTOCOL) return { error: INTERNAL, message: TEXT_NEEDS_PROTOCOL };
    const text = value instanceof Uint8Array ? decodeUtf8(value, 0, value.length) : undefined;
    if (typeof text === "string") return { value: text };
    return new Malformed(value instanceof Uint8Array ? "a case's text is not UTF-8" : `a case is ${describeValue(value)}, not bin (JSON text)`);
  }
}

/** A value's kind, for a message. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return value.constructor?.name ?? "an object";
  return typeof value;
}
