/**
 * msgpack case values (docs/adapter-protocol.md, "Values on the wire") into
 * the exact value model (exact.ts), in one pass: no raw form, no second walk.
 *
 * Why the kit reads msgpack itself. The project's rule is to never
 * hand-write a codec, and the kit's responses are written by
 * @msgpack/msgpack's public Encoder (frames.ts). But the exact model needs
 * what no public option of the library's Decoder gives, and what a case is
 * about:
 *
 * - an integer and a float of one value apart (`1` and `1.0` are different
 *   cases): the library reads both as the number 1, and its options
 *   (`useBigInt64`) only widen the 64-bit integers;
 * - a map's members in wire order, duplicates kept, `__proto__` and
 *   non-string keys in place: the library builds a plain object (a repeat
 *   overwrites, integer-like keys are reordered, `__proto__` throws, a key
 *   must be a string or number, `mapKeyConverter` can only rename it);
 * - a str that is not UTF-8 kept as its bytes, and a leading U+FEFF kept:
 *   the library replaces invalid UTF-8 with U+FFFD and drops a leading
 *   U+FEFF from strs of more than 200 bytes (found by difffuzz); its
 *   `rawStrings` hands values over as bytes, indistinguishable from bin, and
 *   not keys;
 * - a batch's cases run while the rest of the frame is read (ItemSink).
 *
 * The kit used to get these by replacing private members of the library's
 * Decoder (its container stack and float readers) behind an exact version
 * pin. Reading the format is smaller than that: msgpack's framing is a type
 * byte, a big-endian length or value, and a payload, below. What is a codec
 * in it, the strict UTF-8 decoding, is utf8.ts's (the platform's
 * TextDecoder); ext 1 and ext 2 are the protocol's own types.
 */
import { EXT_BIGINT, EXT_UTF16, ExactObject, InvalidUtf8, UnknownExt, type ExactMember, type ExactOptions } from "./exact.js";
import { SHORT_ASCII, decodeUtf8, shortAscii, utf16le } from "./utf8.js";

/** The {@link WireDecoder}'s options: the exact model's, and how small integers are made. */
export interface DecoderOptions extends ExactOptions {
  /**
   * "bigint" (the default): every integer is a `bigint`, every float a
   * `number`, so the two never meet. "number": integers of the safe range
   * (|n| <= 2^53-1) are `number`s like the floats, and only the others are
   * `bigint`s; for an implementation that prints an integer-valued float
   * as the integer anyway; the native model is made from these.
   */
  smallInts?: "bigint" | "number";
}

/**
 * Takes the items of one array as each is decoded, instead of the array
 * keeping them until the whole value is read. The kit runs each case of a
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
export type SinkChooser = (key: unknown, before: readonly ExactMember[]) => ItemSink | undefined;

const BIGINT_TEXT = /^-?(0|[1-9][0-9]*)$/;
const ascii = new TextDecoder("ascii");

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * How integers are made: every one a bigint (the exact model), safe ones as
 * numbers (the native model's source), or by wire width as the request's
 * own fields are (up to 32 bits a number, 64 bits a bigint: an id comes
 * back in the width it was sent).
 */
const enum Ints {
  BigInt,
  Safe,
  Width,
}

/** One container being read. */
class Container {
  /** Values read so far (array items; for a map, keys and values both count). */
  count = 0;
  /** For a map: the key of the member whose value is read next. */
  key: unknown = undefined;

  constructor(
    readonly map: boolean,
    /** Items of an array, or twice the members of a map: the values to read. */
    readonly size: number,
    readonly items: unknown[],
    readonly members: ExactMember[],
    readonly sink: ItemSink | undefined,
  ) {}
}

const NO_ITEMS: unknown[] = [];
const NO_MEMBERS: ExactMember[] = [];

const defaultObject = (members: ExactMember[]): ExactObject => new ExactObject(members);

const EMPTY = new Uint8Array(0);

/** Bytes that are not exactly one msgpack value. */
class Undecodable extends Error {}

/**
 * Decodes msgpack values into the exact model (see the module comment).
 * One instance per stream: not re-entrant.
 */
export class WireDecoder {
  private readonly object: (members: ExactMember[]) => unknown;
  private readonly ints: Ints;
  private bytes: Uint8Array = EMPTY;
  private view: DataView = new DataView(EMPTY.buffer);
  private pos = 0;

  constructor(options: DecoderOptions = {}) {
    this.object = options.object ?? defaultObject;
    this.ints = options.smallInts === "number" ? Ints.Safe : Ints.BigInt;
  }

  /**
   * Decodes one msgpack value (a case, or a fixture's "msgpack" bytes) into
   * the exact model. Throws on bytes that are not exactly one msgpack value.
   */
  decodeValue(bytes: Uint8Array): unknown {
    return this.decode(bytes, undefined, false);
  }

  /**
   * Decodes a request frame's body: its own map (if it is one) as an
   * {@link ExactObject}, its members as sent (ints of up to 32 bits as
   * numbers, 64-bit ones as bigints), the values inside them (the cases) in
   * the model. `chooser` picks the member arrays whose items go to a sink
   * as they are decoded (after the sinks have seen the items decoded so
   * far, bytes that are not one msgpack value throw).
   */
  decodeRequest(bytes: Uint8Array, chooser?: SinkChooser): unknown {
    return this.decode(bytes, chooser, true);
  }

  private decode(bytes: Uint8Array, chooser: SinkChooser | undefined, request: boolean): unknown {
    // A plain Uint8Array view, so that bin values are not Buffers (and a Buffer's subarray() costs several times more).
    if (Buffer.isBuffer(bytes)) bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
    try {
      const value = this.read(chooser, request);
      if (this.pos !== bytes.length) throw new Undecodable(`${bytes.length - this.pos} bytes after the value`);
      return value;
    } finally {
      this.bytes = EMPTY;
      this.view = new DataView(EMPTY.buffer);
    }
  }

  /** The value at `pos`: a loop over an explicit stack, so that no nesting overflows the call stack. */
  private read(chooser: SinkChooser | undefined, request: boolean): unknown {
    const stack: Container[] = [];
    for (;;) {
      // In a request, the values of its own map (or array) are its fields.
      const ints = request && stack.length === 1 ? Ints.Width : this.ints;
      const start = this.pos;
      let value = this.scalar(ints);
      if (value === CONTAINER) {
        const head = this.bytes[start]!;
        const map = head <= 0x8f || head >= 0xde;
        const size = map ? 2 * this.lengthOf(head, 0x80, 0xde) : this.lengthOf(head, 0x90, 0xdc);
        if (size > this.bytes.length - this.pos) throw new Undecodable(`container of ${size} values at byte ${start} is longer than its frame`);
        if (size > 0) {
          let sink: ItemSink | undefined;
          if (!map && chooser !== undefined && stack.length === 1) {
            const parent = stack[0]!;
            if (parent.map && parent.count % 2 === 1) sink = chooser(parent.key, parent.members.slice());
          }
          stack.push(new Container(map, size, map ? NO_ITEMS : new Array<unknown>(size), map ? [] : NO_MEMBERS, sink));
          continue;
        }
        value = map ? this.makeObject(NO_MEMBERS.slice(), request && stack.length === 0) : [];
      }
      // Store the value in its container; a container it completes is a value of the one around it.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return value;
        const index = top.count++;
        if (top.map) {
          if (index % 2 === 0) top.key = value;
          else top.members.push([top.key, value]);
        } else {
          top.items[index] = top.sink === undefined ? value : top.sink.item(value, index);
        }
        if (top.count < top.size) break;
        stack.pop();
        if (top.map) value = this.makeObject(top.members, request && stack.length === 0);
        else value = top.sink === undefined ? top.items : top.sink.end(top.items);
      }
    }
  }

  /** A finished map's value: an ExactObject for the request itself, else the hook's. */
  private makeObject(members: ExactMember[], request: boolean): unknown {
    return request ? new ExactObject(members) : this.object(members);
  }

  /** The length of a container from its header (fix form at `fix`, 16- and 32-bit forms at `wide`, `wide + 1`). */
  private lengthOf(head: number, fix: number, wide: number): number {
    if (head === wide) return this.view.getUint16(this.pos - 2);
    if (head === wide + 1) return this.view.getUint32(this.pos - 4);
    return head - fix;
  }

  /** The value at `pos`, or {@link CONTAINER} after reading a container's header. */
  private scalar(ints: Ints): unknown {
    const head = this.u8();
    if (head <= 0x7f) return this.int(head, ints);
    if (head >= 0xe0) return this.int(head - 0x100, ints);
    if (head <= 0x9f) return CONTAINER;
    if (head <= 0xbf) return this.str(head - 0xa0);
    switch (head) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.take(this.u8());
      case 0xc5:
        return this.take(this.u16());
      case 0xc6:
        return this.take(this.u32());
      case 0xc7:
        return this.ext(this.u8(), ints);
      case 0xc8:
        return this.ext(this.u16(), ints);
      case 0xc9:
        return this.ext(this.u32(), ints);
      case 0xca:
        return this.view.getFloat32(this.advance(4));
      case 0xcb:
        return this.view.getFloat64(this.advance(8));
      case 0xcc:
        return this.int(this.u8(), ints);
      case 0xcd:
        return this.int(this.u16(), ints);
      case 0xce:
        return this.int(this.u32(), ints);
      case 0xcf:
        return this.int64(this.view.getBigUint64(this.advance(8)), ints);
      case 0xd0:
        return this.int(this.view.getInt8(this.advance(1)), ints);
      case 0xd1:
        return this.int(this.view.getInt16(this.advance(2)), ints);
      case 0xd2:
        return this.int(this.view.getInt32(this.advance(4)), ints);
      case 0xd3:
        return this.int64(this.view.getBigInt64(this.advance(8)), ints);
      case 0xd4:
        return this.ext(1, ints);
      case 0xd5:
        return this.ext(2, ints);
      case 0xd6:
        return this.ext(4, ints);
      case 0xd7:
        return this.ext(8, ints);
      case 0xd8:
        return this.ext(16, ints);
      case 0xd9:
        return this.str(this.u8());
      case 0xda:
        return this.str(this.u16());
      case 0xdb:
        return this.str(this.u32());
      case 0xdc:
      case 0xde:
        this.advance(2);
        return CONTAINER;
      case 0xdd:
      case 0xdf:
        this.advance(4);
        return CONTAINER;
    }
    throw new Undecodable(`type byte 0x${head.toString(16)} at byte ${this.pos - 1} is not msgpack`);
  }

  private int(n: number, ints: Ints): number | bigint {
    return ints === Ints.BigInt ? BigInt(n) : n;
  }

  private int64(n: bigint, ints: Ints): number | bigint {
    return ints === Ints.Safe && n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
  }

  private str(length: number): string | InvalidUtf8 {
    const start = this.advance(length);
    return decodeUtf8(this.bytes, start, start + length);
  }

  /** Ext 1 and ext 2 as the protocol defines them; any other type, or a malformed payload, is an {@link UnknownExt}. */
  private ext(length: number, ints: Ints): unknown {
    const type = this.view.getInt8(this.advance(1));
    const data = this.take(length);
    if (type === EXT_BIGINT) {
      const text = data.length <= SHORT_ASCII ? shortAscii(data, 0, data.length) : ascii.decode(data);
      if (text === undefined || !BIGINT_TEXT.test(text)) return new UnknownExt(type, data);
      const n = BigInt(text);
      return ints === Ints.Safe && n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
    }
    if (type === EXT_UTF16) return data.length % 2 === 0 ? utf16le(data) : new UnknownExt(type, data);
    return new UnknownExt(type, data);
  }

  private take(length: number): Uint8Array {
    const start = this.advance(length);
    return this.bytes.subarray(start, start + length);
  }

  private u8(): number {
    return this.bytes[this.advance(1)]!;
  }

  private u16(): number {
    return this.view.getUint16(this.advance(2));
  }

  private u32(): number {
    return this.view.getUint32(this.advance(4));
  }

  /** Moves past `n` bytes and returns where they start; throws if the frame ends first. */
  private advance(n: number): number {
    const start = this.pos;
    if (n > this.bytes.length - start) throw new Undecodable(`value at byte ${start} runs past the end of its ${this.bytes.length} bytes`);
    this.pos = start + n;
    return start;
  }
}

/** What {@link WireDecoder.scalar} returns for a container's header. */
const CONTAINER = Symbol("container");
