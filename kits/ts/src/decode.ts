/**
 * msgpack case values (docs/adapter-protocol.md, "Values on the wire") into
 * the exact value model (model.ts), on top of @msgpack/msgpack, in one pass:
 * no raw form, no second walk.
 *
 * How the library is made to build these values. It builds every map as a
 * plain object (duplicates would merge, and it throws on a `__proto__` key)
 * and cannot tell an integer from a float once read, so:
 *
 * - The decoder's container stack is ours ({@link ValueStack}). A map's
 *   state collects a member list: our public `mapKeyConverter` opens each
 *   member `[key, null]` and returns "slot", and `state.map` is the state
 *   itself until the last value is in, so the library's
 *   `state.map[state.key] = value` lands in the `slot` setter, which fills
 *   the member. Once every value is in, `state.map` is the finished object.
 *   Order and duplicates are kept as read, and a key is never a property name.
 * - Every stored value passes through {@link ValueStack.adopt}: the array
 *   `position` setter (the library's `position++` after it stores an item),
 *   the `slot` setter, the key converter and the top-level value. There a
 *   `number` becomes a `bigint` unless the float readers, wrapped, flagged
 *   it as a float just before; and an empty map (the library's `{}`, which
 *   never reaches the stack) becomes an empty object of the model.
 * - Every str, key or value, goes to our public `keyDecoder`, which decodes
 *   it strictly and keeps a leading U+FEFF ({@link decodeUtf8}; the
 *   library's own str decoding drops a leading U+FEFF from strs of more than
 *   200 bytes, found by difffuzz, and replaces invalid UTF-8 with U+FFFD). The
 *   library calls it for map keys only, so the decoder's `stateIsMapKey` is
 *   made to answer true. As a key, the text is set aside and a marker goes
 *   through the library, which throws on a `__proto__` key before calling
 *   the converter; the converter takes the text back. Ext 2 keys come from
 *   our extension decoder wrapped, never as a bare string, for the same reason.
 * - An array can be streamed ({@link ItemSink}): the `position` setter hands
 *   each item to the array's sink. After the last one, the library reads
 *   `array` as the finished array: by then it is what the sink's `end` made.
 *
 * The private parts of the library's Decoder relied on are its `stack` field
 * (a stack of container states: `type` "array", "map_key" or "map_value",
 * `size`, `array` and `position`, or `map`, `key` and `readCount`), its
 * `stateIsMapKey` method and its `readF32`/`readF64` methods: all are checked
 * at construction, the version is pinned exactly (package.json says
 * "3.1.3", not a range: a dependency that reaches into internals moves
 * only when someone reviews it), and the tests decode every kind of value
 * (a change would fail loudly, not corrupt values silently).
 */
import { Decoder, type ExtensionCodecType } from "@msgpack/msgpack";
import { EXT_BIGINT, EXT_UTF16, ExactObject, InvalidUtf8, UnknownExt, type ExactMember, type ExactOptions } from "./model.js";
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

const BIGINT_TEXT = /^-?(0|[1-9][0-9]*)$/;
const ascii = new TextDecoder("ascii");

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

const STATE_ARRAY = "array";
const STATE_MAP_KEY = "map_key";

const NO_MEMBERS: ExactMember[] = [];

/** What the key converter hands the library as a map key: the name of the state's value setter. */
const SLOT = "slot";

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
  members: ExactMember[] = NO_MEMBERS;
  member: ExactMember | undefined = undefined;
  object: unknown = undefined;
  /** True once `object` is made (it may be any value the hook returns). */
  made = false;

  constructor(private readonly stack: ValueStack) {}

  /**
   * The index of the array's next item. The library stores an item with
   * `array[position] = item` and then counts it with `position++`: that
   * count is where the item is adopted and, in a streamed array, goes to
   * its sink.
   */
  get position(): number {
    return this.next;
  }

  set position(next: number) {
    this.next = next;
    if (next === 0) return;
    const items = this.array as unknown[];
    const item = this.stack.adopt(items[next - 1]);
    const sink = this.sink;
    items[next - 1] = sink === undefined ? item : sink.item(item, next - 1);
    if (sink !== undefined && next === this.size) this.array = sink.end(items);
  }

  /** Where the library stores a map value (`map[key]`, key "slot"), and, once every value is in, the map itself. */
  get map(): unknown {
    if (this.readCount < this.size) return this;
    if (!this.made) {
      this.object = this.stack.makeObject(this.members);
      this.made = true;
    }
    return this.object;
  }

  /** The library's store of the current member's value. */
  set slot(value: unknown) {
    this.member![1] = this.stack.adopt(value);
  }

  /** Opens the next member, whose value the library stores next. */
  openMember(key: unknown): void {
    const member: ExactMember = [key, null];
    this.members[this.readCount] = member;
    this.member = member;
  }
}

/** Up to this many members a map's list is allocated at once (larger: grown as read, as a bad header may claim 2^32-1). */
const PREALLOCATED_MEMBERS = 1 << 16;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const defaultObject = (members: ExactMember[]): ExactObject => new ExactObject(members);

/** The Decoder's container stack (the library's StackPool, building our values). */
class ValueStack {
  private readonly states: ContainerState[] = [];
  private head = -1;
  /** Chooses the streamed arrays of the value being decoded (see {@link SinkChooser}). */
  chooser: SinkChooser | undefined = undefined;
  /** Set by the float readers: the next number stored is a float. */
  float = false;
  /** Set when a container is finished: the next value stored is that container, adopted already. */
  released = false;
  /** True while a request is decoded: its own map (level 0) is an ExactObject whatever the hook. */
  request = false;
  private readonly bigints: boolean;

  constructor(
    private readonly object: (members: ExactMember[]) => unknown,
    smallInts: "bigint" | "number",
  ) {
    this.bigints = smallInts === "bigint";
  }

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

  /** A decoded value as the model has it (see the module comment); called once per value. */
  adopt(value: unknown): unknown {
    if (this.request && this.head === 0) {
      // A request's own fields (id, type, rounds ...) stay as the library
      // decodes them: an id comes back in the width it was sent.
      this.released = this.float = false;
      return value;
    }
    if (this.released) {
      this.released = false;
      return value;
    }
    switch (typeof value) {
      case "number":
        if (this.float) {
          this.float = false;
          return value;
        }
        return this.bigints ? BigInt(value) : value;
      case "bigint":
        return this.bigints || value < MIN_SAFE || value > MAX_SAFE ? value : Number(value);
      case "object":
        // The only plain object the library makes is an empty map's `{}`.
        if (value !== null && Object.getPrototypeOf(value) === Object.prototype) return this.object([]);
        return value;
    }
    return value;
  }

  /** A finished map's value: an ExactObject for the request itself, else the hook's. */
  makeObject(members: ExactMember[]): unknown {
    return this.request && this.head === 0 ? new ExactObject(members) : this.object(members);
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
    state.members = size <= PREALLOCATED_MEMBERS ? new Array<ExactMember>(size) : [];
  }

  release(state: ContainerState): void {
    if (this.states[this.head] !== state) throw new Error("values: released state is not the top of the stack");
    state.type = "";
    state.array = undefined;
    state.sink = undefined;
    state.members = NO_MEMBERS;
    state.member = undefined;
    state.object = undefined;
    state.made = false;
    state.key = null;
    this.head--;
    this.released = true;
  }

  reset(): void {
    this.states.length = 0;
    this.head = -1;
    this.float = false;
    this.released = false;
  }

  /** The sink for an array that is a member value of the top-level value, if that is a map and the chooser wants one. */
  private topLevelSink(parent: ContainerState): ItemSink | undefined {
    if (parent.type === STATE_ARRAY || parent.type === STATE_MAP_KEY || parent.member === undefined) return undefined;
    return this.chooser!(parent.member[0], parent.members.slice(0, parent.readCount));
  }

  private push(): ContainerState {
    this.head++;
    if (this.head === this.states.length) this.states.push(new ContainerState(this));
    return this.states[this.head]!;
  }
}

/** Marks a str key on its way through the library (its text waits in the WireDecoder). */
const STR_KEY = Symbol("str key");

/** An ext 2 string as a map key, kept wrapped so that it cannot trip the library's `__proto__` check. */
class Utf16Key {
  constructor(readonly text: string) {}
}

/** The private Decoder members replaced below, as far as we rely on them. */
interface DecoderInternals {
  stack: unknown;
  stateIsMapKey(): boolean;
  // Properties, not methods: they are taken off the decoder and called on it again (below).
  readF32: (this: DecoderInternals) => number;
  readF64: (this: DecoderInternals) => number;
}

/**
 * Decodes msgpack values into the exact model (see the module comment).
 * One instance per stream: not re-entrant.
 */
export class WireDecoder {
  private readonly stack: ValueStack;
  /** The text of the str key being read, between keyDecoder and mapKeyConverter. */
  private strKey: string | InvalidUtf8 = "";
  private readonly decoder: Decoder;

  constructor(options: DecoderOptions = {}) {
    const stack = new ValueStack(options.object ?? defaultObject, options.smallInts ?? "bigint");
    this.stack = stack;
    /**
     * Ext 1 and ext 2 as the protocol defines them; every other type, and a
     * malformed payload, is an UnknownExt, outside the model, so that case
     * alone fails. It replaces the library's default codec so that ext -1
     * (timestamp) is not decoded, and cannot fail the whole frame.
     */
    const extensionCodec: ExtensionCodecType<undefined> = {
      tryToEncode: () => null,
      decode(data: Uint8Array, type: number): unknown {
        if (type === EXT_BIGINT) {
          const text = data.length <= SHORT_ASCII ? shortAscii(data, 0, data.length) : ascii.decode(data);
          return text !== undefined && BIGINT_TEXT.test(text) ? BigInt(text) : new UnknownExt(type, data);
        }
        if (type === EXT_UTF16) {
          if (data.length % 2 !== 0) return new UnknownExt(type, data);
          const text = utf16le(data);
          return stack.inKey() ? new Utf16Key(text) : text;
        }
        return new UnknownExt(type, data);
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
      mapKeyConverter: (key: unknown): string => {
        const real = key === STR_KEY ? this.strKey : key instanceof Utf16Key ? key.text : stack.adopt(key);
        stack.top()!.openMember(real);
        return SLOT;
      },
    });
    const internals = this.decoder as unknown as DecoderInternals;
    const { readF32, readF64 } = internals;
    if (
      typeof internals.stateIsMapKey !== "function" ||
      typeof readF32 !== "function" ||
      typeof readF64 !== "function" ||
      !isStackLike(internals.stack)
    ) {
      throw new Error("@msgpack/msgpack's Decoder has no stack, stateIsMapKey or readF32/readF64 any more: see decode.ts");
    }
    internals.stack = stack;
    internals.stateIsMapKey = () => true; // every str through keyDecoder (see the module comment)
    internals.readF32 = function (this: DecoderInternals): number {
      stack.float = true;
      return readF32.call(this);
    };
    internals.readF64 = function (this: DecoderInternals): number {
      stack.float = true;
      return readF64.call(this);
    };
  }

  /**
   * Decodes one msgpack value (a case, or a fixture's "msgpack" bytes) into
   * the exact model. Throws on bytes that are not exactly one msgpack value.
   */
  decodeValue(bytes: Uint8Array): unknown {
    return this.stack.adopt(this.decode(bytes, undefined, false));
  }

  /**
   * Decodes a request frame's body: its own map (if it is one) as an
   * {@link ExactObject} or an empty plain object, its members' values as
   * the library decodes them (ints of up to 32 bits as numbers, 64-bit ones
   * as bigints), the values inside them (the cases) in the model. `chooser` picks the member arrays whose items go to a sink as
   * they are decoded (after the sinks have seen the items decoded so far,
   * bytes that are not one msgpack value throw).
   */
  decodeRequest(bytes: Uint8Array, chooser?: SinkChooser): unknown {
    return this.decode(bytes, chooser, true);
  }

  private decode(bytes: Uint8Array, chooser: SinkChooser | undefined, request: boolean): unknown {
    this.stack.chooser = chooser;
    this.stack.request = request;
    this.stack.reset();
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
