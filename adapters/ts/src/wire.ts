/**
 * The worker side of docs/adapter-protocol.md: length-prefixed frames and the
 * msgpack encoding of canonical-JSON values, on top of @msgpack/msgpack.
 *
 * How maps keep their order, their duplicates and keys such as `__proto__`:
 * the library builds every map as a plain object, so by default duplicates
 * merge and it throws on a `__proto__` key. Two of its public decoder options
 * change that without touching its codec:
 *
 * - `mapKeyConverter` receives every decoded key, of any type, and returns the
 *   property name the library stores the value under. Ours records the real
 *   key in a per-frame table and returns the key's index in that table, so
 *   every member gets its own integer property: nothing merges, and integer
 *   properties enumerate in ascending order, which is input order.
 * - The library rejects a key equal to `"__proto__"` before calling the
 *   converter; the `keyDecoder` option (which decodes str keys) therefore
 *   returns each str key behind a one-character tag, which the converter
 *   strips. Ext 2 keys come from our extension decoder as {@link Utf16Text},
 *   never as a bare string, so they cannot trip that check either.
 *
 * A second pass ({@link toValue}) turns those integer-keyed objects into
 * {@link JsonObject} member lists, looking each key up in the table.
 *
 * How str values are decoded: the library decodes a str of more than 200
 * bytes with a default `TextDecoder`, which drops a leading U+FEFF (byte
 * order mark), so "\ufeffa..." came back as "a..." (found by difffuzz; the
 * library's short-string path keeps it), and it replaces invalid UTF-8 with
 * U+FFFD instead of failing. So values are read with the public `rawStrings`
 * option (str values arrive as their UTF-8 bytes) and decoded in
 * {@link toValue} by a `TextDecoder` with `ignoreBOM` and `fatal`. With
 * rawStrings a str value and a bin value are both a Uint8Array, so the
 * decoder's own (private) `decodeString` method, which reads str and only
 * str, is wrapped to label its result {@link Utf8Bytes}: the one use of the
 * library's internals here, guarded at construction and by the tests (a
 * change would turn every string into unsupported_value, loudly).
 */
import { Decoder, Encoder, ExtData, type ExtensionCodecType } from "@msgpack/msgpack";
import { JsonObject, MAX_DEPTH, type Member } from "./canonical.js";

/** The protocol's frame size cap (64 MiB). */
export const MAX_FRAME = 64 * 1024 * 1024;

/** Ext type of a big integer written as ASCII decimal. */
export const EXT_BIGINT = 1;
/** Ext type of a string written as UTF-16LE code units (lone surrogates allowed). */
export const EXT_UTF16 = 2;

// ---------------------------------------------------------------------------
// Frames

/** A frame length outside 1..MAX_FRAME: the stream cannot be resynchronised. */
export class FrameLengthError extends Error {
  constructor(readonly length: number) {
    super(`bad frame length ${length} (must be 1..${MAX_FRAME})`);
    this.name = "FrameLengthError";
  }
}

/**
 * Cuts a byte stream, pushed in arbitrary chunks, into frame bodies. Chunks
 * are queued, not concatenated, and each body is copied at most once (not at
 * all when it lies inside one chunk), so framing is linear in the input.
 */
export class FrameReader {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private bodyLength = -1;

  /** Queues the next piece of the stream. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  /**
   * The next complete frame body, or undefined until more input arrives.
   * Throws {@link FrameLengthError} for a length outside the protocol's range.
   */
  next(): Uint8Array | undefined {
    if (this.bodyLength < 0) {
      if (this.buffered < 4) return undefined;
      const header = this.take(4);
      const length = ((header[0]! << 24) | (header[1]! << 16) | (header[2]! << 8) | header[3]!) >>> 0;
      if (length < 1 || length > MAX_FRAME) throw new FrameLengthError(length);
      this.bodyLength = length;
    }
    if (this.buffered < this.bodyLength) return undefined;
    const body = this.take(this.bodyLength);
    this.bodyLength = -1;
    return body;
  }

  /** True when the stream stopped inside a frame (bytes queued but no whole frame). */
  get midFrame(): boolean {
    return this.buffered > 0 || this.bodyLength >= 0;
  }

  private take(n: number): Uint8Array {
    const first = this.chunks[0]!;
    if (first.length >= n) {
      this.consume(first, n);
      return first.subarray(0, n);
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.chunks[0]!;
      const k = Math.min(chunk.length, n - filled);
      out.set(chunk.subarray(0, k), filled);
      this.consume(chunk, k);
      filled += k;
    }
    return out;
  }

  private consume(chunk: Uint8Array, k: number): void {
    if (k === chunk.length) this.chunks.shift();
    else this.chunks[0] = chunk.subarray(k);
    this.buffered -= k;
  }
}

const encoder = new Encoder({ useBigInt64: true });

/** One message as a frame: 4-byte big-endian length, then its msgpack bytes. */
export function encodeFrame(message: unknown): Uint8Array {
  const body = encoder.encodeSharedRef(message);
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setUint32(0, body.length);
  frame.set(body, 4);
  return frame;
}

// ---------------------------------------------------------------------------
// Values

/**
 * An ext 2 string, kept wrapped until {@link toValue} so that as a map key it
 * can never be mistaken for a str key (nor trip the `__proto__` check).
 */
export class Utf16Text {
  constructor(readonly text: string) {}
}

/** A str value's UTF-8 bytes, not yet decoded (see the module comment). */
class Utf8Bytes {
  constructor(readonly bytes: Uint8Array) {}
}

/**
 * A str whose bytes are not UTF-8: outside the value model, so
 * `unsupported_value` as a value and `non_string_key` as a key.
 */
export class InvalidUtf8 {
  constructor(readonly bytes: Uint8Array) {}
}

const BIGINT_TEXT = /^-?(0|[1-9][0-9]*)$/;
const ascii = new TextDecoder("ascii");

/**
 * Our extension codec: ext 1 and ext 2 as the protocol defines them; every
 * other type, and a malformed payload, stays an ExtData, which is outside the
 * value model and so becomes `unsupported_value` (or `non_string_key` as a
 * key) for that case alone. It replaces the library's default codec so that
 * ext -1 (timestamp) is not decoded, and cannot fail the whole frame.
 */
const extensionCodec: ExtensionCodecType<undefined> = {
  tryToEncode: () => null,
  decode(data: Uint8Array, type: number): unknown {
    if (type === EXT_BIGINT) {
      const text = ascii.decode(data);
      return BIGINT_TEXT.test(text) ? BigInt(text) : new ExtData(type, data);
    }
    if (type === EXT_UTF16) {
      return data.length % 2 === 0 ? new Utf16Text(utf16le(data)) : new ExtData(type, data);
    }
    return new ExtData(type, data);
  },
};

/** UTF-16LE code units to a string, lone surrogates preserved (TextDecoder would replace them). */
function utf16le(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString("utf16le");
}

/** Prefixed to every str key by our keyDecoder (see the module comment). */
const KEY_TAG = "k";
/** What our keyDecoder returns for a str key that is not UTF-8. */
const INVALID_KEY = "!";
const INVALID_KEY_MARKER = new InvalidUtf8(new Uint8Array());
// ignoreBOM: a key or string may start with U+FEFF, which must survive; the
// default would strip it (difffuzz found this: seed 1, key "\ufeff").
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A str's text, or an {@link InvalidUtf8} for bytes that are not UTF-8. */
function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string | InvalidUtf8 {
  const ascii = shortAscii(bytes, start, end);
  if (ascii !== undefined) return ascii;
  const slice = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  try {
    return utf8.decode(slice);
  } catch {
    return new InvalidUtf8(slice);
  }
}

/** Up to this many bytes, ASCII text is built directly (most keys and many values). */
const SHORT_ASCII = 24;

/**
 * The text of short all-ASCII bytes, else undefined. A TextDecoder call (and
 * the subarray it needs) costs more than the whole decode of a short key.
 */
function shortAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start > SHORT_ASCII) return undefined;
  let text = "";
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (byte >= 0x80) return undefined;
    text += String.fromCharCode(byte);
  }
  return text;
}

/** The private Decoder method wrapped below, as far as we rely on it. */
interface StringReader {
  decodeString(byteLength: number, headerOffset: number): unknown;
}

/** Labels str values (bytes, with rawStrings) so they cannot pass for bin. */
function labelStrValues(decoder: Decoder): Decoder {
  const reader = decoder as unknown as StringReader;
  const decodeString = reader.decodeString;
  if (typeof decodeString !== "function") {
    throw new Error("@msgpack/msgpack has no Decoder#decodeString any more: see wire.ts");
  }
  reader.decodeString = function (this: StringReader, byteLength: number, headerOffset: number): unknown {
    const result = decodeString.call(this, byteLength, headerOffset);
    return result instanceof Uint8Array ? new Utf8Bytes(result) : result;
  };
  return decoder;
}

/**
 * Decodes msgpack values into the canonical value model, keeping every map
 * as an ordered member list. One instance per stream: not re-entrant.
 */
export class WireDecoder {
  private keys: unknown[] = [];
  private readonly decoder = labelStrValues(
    new Decoder({
      useBigInt64: true,
      rawStrings: true,
      extensionCodec,
      keyDecoder: {
        canBeCached: () => true,
        decode: (bytes: Uint8Array, offset: number, length: number): string => {
          const text = decodeUtf8(bytes, offset, offset + length);
          return typeof text === "string" ? KEY_TAG + text : INVALID_KEY;
        },
      },
      mapKeyConverter: (key: unknown) => this.keys.push(realKey(key)) - 1,
    }),
  );

  /**
   * Decodes one msgpack value (a whole frame body) into its raw form: maps
   * are integer-keyed objects until {@link toValue} or {@link fields} reads
   * them. Throws on bytes that are not exactly one msgpack value.
   */
  decodeRaw(bytes: Uint8Array): unknown {
    this.keys = [];
    return this.decoder.decode(bytes);
  }

  /** One case's value in the canonical model (a fixture's "msgpack" bytes, say). */
  decodeValue(bytes: Uint8Array): unknown {
    return this.toValue(this.decodeRaw(bytes));
  }

  /**
   * The canonical-model value of part of the last decoded frame. Containers
   * are rebuilt only down to MAX_DEPTH: one nested deeper is replaced by an
   * empty array at the same level, which canonicalizes identically (the walk
   * reports `too_deep` on entering it, before looking inside), so the
   * conversion never recurses more than MAX_DEPTH + 1 levels.
   */
  toValue(raw: unknown, level = 1): unknown {
    if (typeof raw !== "object" || raw === null) return raw;
    if (raw instanceof Utf8Bytes) return decodeUtf8(raw.bytes);
    if (Array.isArray(raw)) {
      if (level > MAX_DEPTH) return [];
      for (let i = 0; i < raw.length; i++) raw[i] = this.toValue(raw[i], level + 1);
      return raw;
    }
    if (raw instanceof Utf16Text) return raw.text;
    if (isDecodedMap(raw)) {
      if (level > MAX_DEPTH) return [];
      const ids = Object.keys(raw);
      const members = new Array<Member>(ids.length);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        members[i] = [this.keys[Number(id)], this.toValue(raw[id], level + 1)];
      }
      return new JsonObject(members);
    }
    return raw; // bin (Uint8Array) or ExtData: outside the model, left for canonical() to report
  }

  /**
   * The members of a decoded map with their real keys, for reading a
   * request's fields: strings are decoded, containers are left raw (cases
   * are converted one by one). Undefined if `raw` is not a map.
   */
  fields(raw: unknown): Array<[key: unknown, value: unknown]> | undefined {
    if (!isDecodedMap(raw)) return undefined;
    return Object.keys(raw).map((id) => {
      const value = raw[id];
      return [this.keys[Number(id)], value instanceof Utf8Bytes ? decodeUtf8(value.bytes) : value];
    });
  }
}

function realKey(key: unknown): unknown {
  // every string key came through our keyDecoder
  if (typeof key === "string") return key === INVALID_KEY ? INVALID_KEY_MARKER : key.slice(KEY_TAG.length);
  if (key instanceof Utf16Text) return key.text;
  return key; // not a string: canonical() reports non_string_key
}

/** The library builds maps, and only maps, as objects with Object.prototype. */
function isDecodedMap(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === "object" && raw !== null && Object.getPrototypeOf(raw) === Object.prototype;
}
