/**
 * Test builders for workers on the kit (`@difffuzz/kit/testing`): msgpack
 * fragments for wire inputs an encoder will not produce (duplicate keys, ext
 * types, chosen int/float widths, str that is not UTF-8), frame headers, a
 * case's msgpack as a worker's function gets it (for a fixture runner), and
 * a worker process driven frame by frame over real pipes. The kit's own tests
 * and adapters/ts's use them; a worker never does.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import { Encoder, ExtData, decode } from "@msgpack/msgpack";
import { FrameReader } from "./frames.js";
import { FD_PROTOCOL, FDS_ENV, PROTOCOL } from "./channel.js";
import { WireDecoder } from "./decode.js";
import { SpecError } from "./failure.js";
import type { ExactOptions } from "./exact.js";
import { Inexpressible, toNative, type NativeValue } from "./native.js";

const plain = new Encoder({ useBigInt64: true });
const asFloat64 = new Encoder({ forceIntegerToFloat: true });
const asFloat32 = new Encoder({ forceFloat32: true, forceIntegerToFloat: true });

/** Concatenation of byte fragments. */
export function cat(...parts: ArrayLike<number>[]): Uint8Array {
  return concat(parts);
}

/** Concatenation of any number of byte fragments (no argument-count limit). */
export function concat(parts: readonly ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** msgpack fragments, each a complete encoded value. */
export const mp = {
  nil: Uint8Array.of(0xc0),
  /** A str (valid UTF-8). */
  str: (s: string): Uint8Array => plain.encode(s),
  /** A str holding exactly these bytes (valid UTF-8 or not). */
  strBytes: (bytes: ArrayLike<number>): Uint8Array => cat(strHeader(bytes.length), bytes),
  /** An int in the smallest int-family width (numbers) or int64/uint64 (bigints). */
  int: (n: number | bigint): Uint8Array => plain.encode(n),
  /** A float 64, even for integral values. */
  f64: (x: number): Uint8Array => asFloat64.encode(x),
  /** A float 32. */
  f32: (x: number): Uint8Array => asFloat32.encode(x),
  bin: (bytes: ArrayLike<number>): Uint8Array => plain.encode(Uint8Array.from(bytes)),
  ext: (type: number, data: ArrayLike<number>): Uint8Array => plain.encode(new ExtData(type, Uint8Array.from(data))),
  /** Ext 1 with an ASCII payload. */
  big: (decimal: string): Uint8Array => mp.ext(1, Buffer.from(decimal, "ascii")),
  /** Ext 2 with the given UTF-16 code units, little-endian. */
  utf16: (...units: number[]): Uint8Array => mp.ext(2, units.flatMap((u) => [u & 0xff, u >> 8])),
  /** Ext 2 holding a JS string's code units. */
  utf16s: (s: string): Uint8Array => mp.utf16(...Array.from({ length: s.length }, (_, i) => s.charCodeAt(i))),
  arr: (...items: Uint8Array[]): Uint8Array => cat(arrayHeader(items.length), ...items),
  /** A map with these encoded (key, value) pairs, in order, duplicates kept. */
  map: (...pairs: Array<[Uint8Array, Uint8Array]>): Uint8Array => cat(mapHeader(pairs.length), ...pairs.flat()),
};

function strHeader(n: number): number[] {
  if (n < 32) return [0xa0 | n];
  return n < 256 ? [0xd9, n] : [0xda, n >> 8, n & 0xff];
}

function arrayHeader(n: number): number[] {
  return n < 16 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff];
}

function mapHeader(n: number): number[] {
  return n < 16 ? [0x80 | n] : [0xde, n >> 8, n & 0xff];
}

/** The envelope {"tool_name": name, "args": args} as msgpack, with `args` already encoded. */
export function mpCall(args: Uint8Array, name: Uint8Array = mp.str("t")): Uint8Array {
  return mp.map([mp.str("tool_name"), name], [mp.str("args"), args]);
}

/** `depth` msgpack arrays nested inside each other (the innermost empty). */
export function mpNest(depth: number): Uint8Array {
  const out = new Uint8Array(depth);
  out.fill(0x91, 0, depth - 1);
  out[depth - 1] = 0x90;
  return out;
}

/**
 * One case's msgpack (a fixture's "msgpack", a test's fragments) as the
 * function of an exact-model worker with these options gets it. Throws on
 * bytes that are not exactly one msgpack value.
 */
export function exactCase(bytes: Uint8Array, options: ExactOptions = {}): unknown {
  return new WireDecoder(options).decodeValue(bytes);
}

/**
 * One case's msgpack as the function of a native-model worker gets it, or
 * the {@link Inexpressible} the worker answers instead. A case nested
 * deeper than the protocol's 1000 levels throws the SpecError `too_deep`
 * the worker answers with.
 */
export function nativeCase(bytes: Uint8Array, options: { bigint?: boolean } = {}): NativeValue | Inexpressible {
  const native = toNative(new WireDecoder({ smallInts: "number" }).decodeValue(bytes), options.bigint === true);
  if (native === "too_deep") throw new SpecError("too_deep", "nested deeper than the protocol's 1000 levels");
  return native instanceof Inexpressible ? native : native.value;
}

/** A frame header: the big-endian length. */
export function header(n: number): Uint8Array {
  return Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** A decoded response frame. */
export type Message = Record<string, unknown>;

/** The environment without the driver's offer, so that a test run under difffuzz still speaks on stdin and stdout. */
function withoutOffer(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  delete rest[FDS_ENV];
  return rest;
}

/** Workers not yet exited; killWorkers ends them. */
const running = new Set<Worker>();

/**
 * Ends every worker still running, so that a failing test cannot leave one
 * behind: a test file registers it with `after(killWorkers)`.
 */
export function killWorkers(): void {
  for (const worker of running) worker.kill();
}

/** How a test Worker is started. */
export interface WorkerOptions {
  /** Offer descriptors 3 and 4 (DIFFFUZZ_FDS), as the driver does, instead of speaking on stdin and stdout. */
  fds?: boolean;
}

/** A running worker process (`node script ...args`) with a frame-level conversation API. */
export class Worker {
  private readonly child: ChildProcess;
  private readonly requests: Writable;
  private readonly reader = new FrameReader();
  private readonly frames: Message[] = [];
  private waiting: (() => void) | undefined;
  private readonly fds: boolean;
  readonly exited: Promise<number | null>;
  stderr = "";
  /** What the worker printed on stdout, when it speaks on the descriptors. */
  stdout = "";

  constructor(script: string, args: string[] = [], options: WorkerOptions = {}) {
    this.fds = options.fds === true;
    const env = this.fds ? { ...process.env, [FDS_ENV]: "3,4" } : withoutOffer(process.env);
    const stdio = this.fds ? ["pipe", "pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"];
    this.child = spawn(process.execPath, [script, ...args], { stdio: stdio as ["pipe", "pipe", "pipe"], env });
    const responses = (this.fds ? this.child.stdio[4] : this.child.stdout) as Readable;
    this.requests = (this.fds ? this.child.stdio[3] : this.child.stdin) as Writable;
    if (this.fds) this.child.stdout!.on("data", (chunk: Buffer) => (this.stdout += chunk.toString()));
    responses.on("data", (chunk: Buffer) => {
      this.reader.push(chunk);
      for (let body = this.reader.next(); body !== undefined; body = this.reader.next()) {
        // copied so that bin values decode as plain Uint8Array, not Buffer views
        this.frames.push(decode(new Uint8Array(body), { useBigInt64: true }) as Message);
      }
      this.waiting?.();
    });
    this.child.stderr!.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = once(this.child, "exit").then(([code]) => code as number | null);
    running.add(this);
    void this.exited.then(() => running.delete(this));
  }

  /** Ends a worker that a failed test left running. */
  kill(): void {
    this.child.kill("SIGKILL");
  }

  /** Sends raw bytes (a frame, part of one, or garbage). */
  write(bytes: Uint8Array): void {
    this.requests.write(bytes);
  }

  /** Sends one frame holding these msgpack bytes. */
  sendBody(body: Uint8Array): void {
    this.write(cat(header(body.length), body));
  }

  /** Sends one request built from msgpack fragments: a map of string keys. */
  sendRequest(fields: Record<string, Uint8Array>): void {
    this.sendBody(mp.map(...Object.entries(fields).map(([k, v]): [Uint8Array, Uint8Array] => [mp.str(k), v])));
  }

  /** The next response frame (throws after ten seconds without one). */
  async next(): Promise<Message> {
    const deadline = Date.now() + 10_000;
    while (this.frames.length === 0) {
      if (Date.now() > deadline) throw new Error(`no response; stderr: ${this.stderr}`);
      await Promise.race([
        new Promise<void>((resolve) => (this.waiting = resolve)),
        this.exited,
        new Promise((resolve) => setTimeout(resolve, 200)),
      ]);
    }
    return this.frames.shift()!;
  }

  /** The next response, checked to be the hello of a TypeScript worker with these fields (and its channel's protocol). */
  async hello(expected: Message): Promise<void> {
    const protocol = this.fds ? FD_PROTOCOL : PROTOCOL;
    assert.deepEqual(await this.next(), { type: "hello", protocol, language: "typescript", ...expected });
  }

  /** Closes the worker's input and returns the exit status. */
  async close(): Promise<number | null> {
    this.requests.end();
    return this.exited;
  }

  /** How many responses have arrived and not been read. */
  get pending(): number {
    return this.frames.length;
  }
}
