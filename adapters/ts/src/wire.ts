/**
 * The worker side of docs/adapter-protocol.md: length-prefixed frames and the
 * msgpack encoding of canonical-JSON values, on top of @msgpack/msgpack.
 *
 * Values are built in the canonical model while the library decodes, in one
 * pass: no raw form, no second walk. The library builds every map as a plain
 * object (duplicates would merge, and it throws on a `__proto__` key), so:
 *
 * - The decoder's container stack is ours ({@link ValueStack}). A map's stack
 *   state collects a {@link JsonObject} member list, and the library's
 *   `state.map[state.key] = value` lands in the current member: our public
 *   `mapKeyConverter` opens each member `[key, null]` and returns 1, the
 *   member's value slot, and `state.map` is the current member until the last
 *   value is in, then the JsonObject, which the library hands on as the map.
 *   Order and duplicates are kept as read, and a key is never a property name.
 * - Every str, key or value, goes to our public `keyDecoder`, which decodes
 *   it strictly and keeps a leading U+FEFF ({@link decodeUtf8}; the
 *   library's own str decoding drops a leading U+FEFF from strs of more than
 *   200 bytes, found by difffuzz, and replaces invalid UTF-8 with U+FFFD): a
 *   str that is not UTF-8 becomes {@link InvalidUtf8}. The library calls it
 *   for map keys only, so the decoder's `stateIsMapKey` is made to answer
 *   true. As a key, the text is set aside and a marker goes through the
 *   library, which throws on a `__proto__` key before calling the converter;
 *   the converter takes the text back. Ext 2 keys come from our extension
 *   decoder as {@link Utf16Text}, never as a bare string, for the same reason.
 * - An array can be streamed ({@link ItemSink}): `position` is an accessor,
 *   and the library's `position++` after it stores an item hands the item
 *   to the array's sink. After the last one, the library reads `array` as
 *   the finished array: by then it is what the sink's `end` made of them.
 *
 * The private parts of the library's Decoder relied on are its `stack` field
 * (a stack of container states: `type` "array", "map_key" or "map_value",
 * `size`, `array` and `position`, or `map`, `key` and `readCount`) and its
 * `stateIsMapKey` method: both are checked at construction, the version is
 * pinned exactly, and the tests decode every kind of value (a change would
 * fail loudly, not corrupt values silently).
 *
 * An empty map stays the library's `{}` (it never reaches the stack): the
 * canonical library reads a plain object as an object, so `{}` is the empty
 * object there too.
 */
import nodeBuffer, { isAscii, isUtf8 } from "node:buffer";
import { Decoder, Encoder, ExtData, type ExtensionCodecType } from "@msgpack/msgpack";
import { JsonObject, type Member } from "./canonical.js";

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

/**
 * Responses hold no ext values. Without a codec of its own the encoder would
 * ask the default one (timestamps) about every object and byte array first.
 */
const NO_EXTENSIONS: ExtensionCodecType<undefined> = {
  tryToEncode: () => null,
  decode: (data: Uint8Array, type: number) => new ExtData(type, data),
};

const encoder = new Encoder({ useBigInt64: true, extensionCodec: NO_EXTENSIONS });

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

/** An ext 2 string as a map key, kept wrapped so that it cannot trip the library's `__proto__` check. */
export class Utf16Text {
  constructor(readonly text: string) {}
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

/** UTF-16LE code units to a string, lone surrogates preserved (TextDecoder would replace them). */
function utf16le(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString("utf16le");
}

/** ICU's transcoding; undefined in a Node built without ICU (read from the module object, not imported by name, for that reason). */
const transcode: typeof nodeBuffer.transcode | undefined = nodeBuffer.transcode;

// ignoreBOM: a key or string may start with U+FEFF, which must survive; the
// default would strip it (difffuzz found this: seed 1, key "\ufeff").
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A str's text, or an {@link InvalidUtf8} for bytes that are not UTF-8. */
function decodeUtf8(bytes: Uint8Array, start: number, end: number): string | InvalidUtf8 {
  if (end - start <= SHORT_ASCII) {
    const text = shortAscii(bytes, start, end);
    if (text !== undefined) return text;
  }
  const slice = bytes.subarray(start, end);
  if (end - start >= LONG_TEXT && transcode !== undefined) return decodeLong(slice);
  try {
    return utf8.decode(slice);
  } catch {
    return new InvalidUtf8(slice);
  }
}

/** From this many bytes on, a str is decoded by {@link decodeLong}. */
const LONG_TEXT = 1024;

/**
 * A long str's text. TextDecoder (V8's UTF-8 decoding, about 3 ns a byte of
 * non-ASCII text) loses to a vectorised UTF-8 check followed by ICU's
 * conversion to UTF-16, by two to ten times past a kilobyte, and to a
 * Latin-1 copy for ASCII text. The check comes first, so ICU only ever
 * converts valid UTF-8 (which it does exactly: no replacement, and a leading
 * U+FEFF is kept, as the tests check).
 */
function decodeLong(slice: Uint8Array): string | InvalidUtf8 {
  if (!isUtf8(slice)) return new InvalidUtf8(slice);
  const buffer = Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength);
  if (isAscii(slice)) return buffer.toString("latin1");
  return transcode!(buffer, "utf8", "utf16le").toString("utf16le");
}

/** Up to this many bytes, ASCII text is built directly (most keys and many values). */
const SHORT_ASCII = 24;

/**
 * The text of short all-ASCII bytes, else undefined. A TextDecoder call (and
 * the subarray it needs) costs more than the whole decode of a short key.
 * The string is made in one call, without the garbage of a string per
 * character added (spelled out up to 8 characters, most keys).
 */
function shortAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return undefined;
  const b = bytes;
  const s = start;
  switch (end - start) {
    case 0:
      return "";
    case 1:
      return fromCharCode(b[s]!);
    case 2:
      return fromCharCode(b[s]!, b[s + 1]!);
    case 3:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!);
    case 4:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!);
    case 5:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!);
    case 6:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
    case 7:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!);
    case 8:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!);
  }
  const codes = SCRATCH[end - start]!;
  for (let i = start; i < end; i++) codes[i - start] = bytes[i]!;
  return fromCharCode.apply(null, codes);
}

const fromCharCode = String.fromCharCode;

/** One array of each length up to SHORT_ASCII, reused to hold character codes. */
const SCRATCH: number[][] = Array.from({ length: SHORT_ASCII + 1 }, (_, n) => new Array<number>(n).fill(0));

/**
 * Takes the items of one array as each is decoded, instead of the array
 * keeping them until the whole value is read. The worker runs each case of a
 * batch this way while the rest is still being decoded, so that a case's
 * values die young: a whole batch of decoded cases outlives several
 * young-generation collections, and each one copies it.
 */
export interface ItemSink {
  /** Takes item `index`; what it returns is kept in the item's place. */
  item(value: unknown, index: number): unknown;
  /** Takes the kept items once all are in; what it returns is the array's decoded value. */
  end(items: unknown[]): unknown;
}

/**
 * Chooses the streamed arrays of a value: asked when the value is a map and
 * one of its member values (not one nested deeper) begins as a non-empty
 * array, with the member's key and the members read before it. Returns the
 * array's sink, or undefined to decode the array as usual.
 */
export type SinkChooser = (key: unknown, before: readonly Member[]) => ItemSink | undefined;

const STATE_ARRAY = "array";
const STATE_MAP_KEY = "map_key";

const NO_MEMBERS: Member[] = [];

/** A map member while it is read: the value slot (index 1) is filled by the library. */
type OpenMember = [key: unknown, value: unknown];

/**
 * One container being decoded, in the shape the library's Decoder reads and
 * writes (see the module comment). One class for arrays and maps, as in the
 * library, so that the decoder's property accesses see a single shape.
 */
class ContainerState {
  type = "";
  size = 0;
  // arrays
  /**
   * The items so far; for a streamed array, once the last item is in, what
   * its sink's end() made of them (the library reads it as the array).
   */
  array: unknown = undefined;
  next = 0;
  sink: ItemSink | undefined = undefined;
  // maps
  readCount = 0;
  key: unknown = null;
  members: Member[] = NO_MEMBERS;
  object: JsonObject | undefined = undefined;
  member: OpenMember | undefined = undefined;

  /**
   * The index of the array's next item. The library stores an item with
   * `array[position] = item` and then counts it with `position++`: that
   * count is where a streamed array's item goes to its sink.
   */
  get position(): number {
    return this.next;
  }

  set position(next: number) {
    this.next = next;
    const sink = this.sink;
    if (sink === undefined || next === 0) return;
    const items = this.array as unknown[];
    items[next - 1] = sink.item(items[next - 1], next - 1);
    if (next === this.size) this.array = sink.end(items);
  }

  /**
   * Where the library stores a map value (`map[key]`, key 1: the current
   * member's value slot), and, once every value is in, the map itself.
   */
  get map(): unknown {
    return this.readCount < this.size ? this.member : this.object;
  }

  /** Opens the next member, whose value the library stores next. */
  openMember(key: unknown): void {
    const member: OpenMember = [key, null];
    this.members[this.readCount] = member;
    this.member = member;
  }
}

/** Up to this many members a map's list is allocated at once (larger: grown as read, as a bad header may claim 2^32-1). */
const PREALLOCATED_MEMBERS = 1 << 16;

/** The Decoder's container stack (the library's StackPool, building our values). */
class ValueStack {
  private readonly states: ContainerState[] = [];
  private head = -1;
  /** Chooses the streamed arrays of the value being decoded (see {@link SinkChooser}). */
  chooser: SinkChooser | undefined = undefined;

  get length(): number {
    return this.head + 1;
  }

  top(): ContainerState | undefined {
    return this.states[this.head];
  }

  /** True when the value being decoded is a map key. */
  inKey(): boolean {
    return this.head >= 0 && this.states[this.head]!.type === STATE_MAP_KEY;
  }

  pushArrayState(size: number): void {
    const sink = this.chooser !== undefined && this.head === 0 ? this.topLevelSink(this.states[0]!) : undefined;
    const state = this.push();
    state.type = STATE_ARRAY;
    state.size = size;
    state.position = 0;
    state.array = new Array<unknown>(size);
    state.sink = sink;
  }

  pushMapState(size: number): void {
    const state = this.push();
    state.type = STATE_MAP_KEY;
    state.size = size;
    state.readCount = 0;
    state.members = size <= PREALLOCATED_MEMBERS ? new Array<Member>(size) : [];
    state.object = new JsonObject(state.members);
  }

  release(state: ContainerState): void {
    if (this.states[this.head] !== state) throw new Error("wire: released state is not the top of the stack");
    state.type = "";
    state.array = undefined;
    state.sink = undefined;
    state.members = NO_MEMBERS;
    state.object = undefined;
    state.member = undefined;
    state.key = null;
    this.head--;
  }

  reset(): void {
    this.states.length = 0;
    this.head = -1;
  }

  /** The sink for an array that is a member value of the top-level value, if that is a map and the chooser wants one. */
  private topLevelSink(parent: ContainerState): ItemSink | undefined {
    if (parent.type === STATE_ARRAY || parent.type === STATE_MAP_KEY || parent.member === undefined) return undefined;
    return this.chooser!(parent.member[0], parent.members.slice(0, parent.readCount));
  }

  private push(): ContainerState {
    this.head++;
    if (this.head === this.states.length) this.states.push(new ContainerState());
    return this.states[this.head]!;
  }
}

/** Marks a str key on its way through the library (its text waits in the WireDecoder). */
const STR_KEY = Symbol("str key");

/** The private Decoder members replaced below, as far as we rely on them. */
interface DecoderInternals {
  stack: unknown;
  stateIsMapKey(): boolean;
}

/**
 * Decodes msgpack values into the canonical value model, keeping every map
 * as an ordered member list. One instance per stream: not re-entrant.
 */
export class WireDecoder {
  private readonly stack = new ValueStack();
  /** The text of the str key being read, between keyDecoder and mapKeyConverter. */
  private strKey: string | InvalidUtf8 = "";
  private readonly decoder: Decoder;

  constructor() {
    const stack = this.stack;
    /**
     * Ext 1 and ext 2 as the protocol defines them; every other type, and a
     * malformed payload, stays an ExtData, which is outside the value model
     * and so becomes `unsupported_value` (or `non_string_key` as a key) for
     * that case alone. It replaces the library's default codec so that ext -1
     * (timestamp) is not decoded, and cannot fail the whole frame.
     */
    const extensionCodec: ExtensionCodecType<undefined> = {
      tryToEncode: () => null,
      decode(data: Uint8Array, type: number): unknown {
        if (type === EXT_BIGINT) {
          const text = data.length <= SHORT_ASCII ? shortAscii(data, 0, data.length) : ascii.decode(data);
          return text !== undefined && BIGINT_TEXT.test(text) ? BigInt(text) : new ExtData(type, data);
        }
        if (type === EXT_UTF16) {
          if (data.length % 2 !== 0) return new ExtData(type, data);
          const text = utf16le(data);
          return stack.inKey() ? new Utf16Text(text) : text;
        }
        return new ExtData(type, data);
      },
    };
    this.decoder = new Decoder({
      useBigInt64: true,
      extensionCodec,
      keyDecoder: {
        canBeCached: () => true,
        decode: (bytes: Uint8Array, offset: number, length: number): string => {
          const text = decodeUtf8(bytes, offset, offset + length);
          if (!stack.inKey()) return text as string; // a value: string or InvalidUtf8
          this.strKey = text;
          return STR_KEY as unknown as string;
        },
      },
      mapKeyConverter: (key: unknown): number => {
        const real = key === STR_KEY ? this.strKey : key instanceof Utf16Text ? key.text : key;
        stack.top()!.openMember(real); // not a string: canonical() reports non_string_key
        return 1;
      },
    });
    const internals = this.decoder as unknown as DecoderInternals;
    if (typeof internals.stateIsMapKey !== "function" || !isStackLike(internals.stack)) {
      throw new Error("@msgpack/msgpack's Decoder has no stack or stateIsMapKey any more: see wire.ts");
    }
    internals.stack = stack;
    internals.stateIsMapKey = () => true; // every str through keyDecoder (see the module comment)
  }

  /**
   * Decodes one msgpack value (a whole frame body, or a fixture's "msgpack"
   * bytes) into the canonical model: maps become {@link JsonObject}s (an
   * empty map `{}`), strs strings or {@link InvalidUtf8}, ext 1 bigints, ext 2
   * strings; bin (Uint8Array) and other ext types (ExtData) are left for
   * canonical() to report. Throws on bytes that are not exactly one msgpack
   * value (after the sinks have seen the items decoded so far). `chooser`
   * picks the top-level arrays whose items go to a sink as they are decoded.
   */
  decodeValue(bytes: Uint8Array, chooser?: SinkChooser): unknown {
    this.stack.chooser = chooser;
    try {
      // A plain Uint8Array view, as a Buffer's subarray() costs several times more.
      return this.decoder.decode(Buffer.isBuffer(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes);
    } finally {
      this.stack.chooser = undefined;
    }
  }
}

function isStackLike(stack: unknown): boolean {
  if (typeof stack !== "object" || stack === null) return false;
  const s = stack as Record<string, unknown>;
  return ["top", "pushArrayState", "pushMapState", "release", "reset"].every((name) => typeof s[name] === "function");
}
