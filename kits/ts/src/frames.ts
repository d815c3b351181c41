/**
 * Frames of docs/adapter-protocol.md: a 4-byte big-endian length, then that
 * many bytes holding one msgpack value, 1 to 64 MiB.
 */
import { Encoder, ExtData, type ExtensionCodecType } from "@msgpack/msgpack";

/** The protocol's frame size cap (64 MiB). */
export const MAX_FRAME = 64 * 1024 * 1024;

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
