/**
 * The protocol loop (docs/adapter-protocol.md, versions 2 to 4): hello, frames and
 * their cap, requests, batches, digest_only, bench and error responses, for
 * any implementation given as a function from a case to its canonical bytes.
 */
import { once } from "node:events";
import { createBLAKE3 } from "hash-wasm";
import { BatchClock, cpuNs } from "./clock.js";
import { FrameLengthError, FrameReader, MAX_FRAME, encodeFrame } from "./frames.js";
import type { NativeValue, Reason } from "./native.js";
import { INTERNAL, internalResult, specCode, type InternalResult } from "./failure.js";
import { WireDecoder, type ItemSink, type SinkChooser } from "./decode.js";
import { ExactObject, type ExactOptions } from "./exact.js";
import { ExactModel, Malformed, NativeModel, TextModel, describeValue, type CaseModel, type Prepared } from "./models.js";
import { PROTOCOL, channel } from "./channel.js";

/**
 * What the implementation makes of a case: its canonical bytes, or text
 * (sent as its UTF-8 bytes; a text holding a lone surrogate, which has
 * none, is an `internal` result saying where, never U+FFFD in its place).
 * To reject a case, the function throws a {@link SpecError}, or any value
 * whose `code` is one of the spec's {@link ErrorCode}s (as the project's
 * libraries' errors have); anything else it throws is an `internal` result
 * with its type and place (failure.ts).
 */
export type Outcome = Uint8Array | string | Signed;

/**
 * The implementation's canonical text with its own signature of it:
 * `canonical` is the bytes or text (as an {@link Outcome}), `digest` the
 * BLAKE3-256 of those bytes the SDK computes (32 bytes). The kit sends that digest instead
 * of hashing the text itself, so that the driver checks the SDK's own
 * hashing: a digest that is not BLAKE3 of the text is a `digest` finding,
 * one that is not 32 bytes long an `internal` result.
 */
export interface Signed {
  canonical: Uint8Array | string;
  digest: Uint8Array;
}

/** The length of a digest: BLAKE3-256. */
const DIGEST_SIZE = 32;

/** What every worker says about itself (the hello). */
export interface WorkerInfo {
  /** The implementation's package name, as findings record it. */
  name: string;
  /** The implementation's version. */
  version: string;
  /** The hello's `language`; default "typescript". */
  language?: string;
  /** Where requests come from, with `output`; default the driver's channel (channel.ts): its descriptors, else stdin. */
  input?: AsyncIterable<Uint8Array>;
  /** Where responses go, with `input`; default the driver's channel: its descriptors, else stdout. */
  output?: NodeJS.WritableStream;
}

/** A worker over the exact model (exact.ts): lossless, for the project's own library. */
export interface ExactWorker extends WorkerInfo, ExactOptions {
  model: "exact";
}

/** A worker over the native model (native.ts): what an SDK gets from JSON.parse. */
export interface NativeWorker extends WorkerInfo {
  model: "native";
  /** True when the SDK takes `bigint`s for integers outside the safe range; default false (they are `big_int`). */
  bigint?: boolean;
}

/**
 * A worker over the text model: the case as JSON text, for an SDK that
 * parses it with its own parser. The driver writes the text (protocol 4,
 * "The text model's bytes"), so a text worker works only on the
 * descriptors the driver offers.
 */
export interface TextWorker extends WorkerInfo {
  model: "text";
}

export type ServeOptions = ExactWorker | NativeWorker | TextWorker;

type RequestId = number | bigint;
type Result =
  | { canonical: Uint8Array; digest: Uint8Array }
  | { digest: Uint8Array } // a digest_only batch's success
  | { error: string; message: string }
  | InternalResult
  | { inexpressible: Reason; message: string };
type Response = Record<string, unknown>;

/**
 * Runs the protocol on the channel the driver offers (channel.ts: its own
 * descriptors, in protocol 4, so that `fn` may print anywhere; else stdin
 * and stdout, in protocol 2), or on `options.input`/`output` (protocol 2),
 * until the input ends, handing each case to `fn` in the chosen model, and
 * resolves to the exit status: 0 at the end of the input, 2 when the stream
 * broke (a bad frame length, input ending inside a frame), 1 on a failure of
 * the kit itself. On the default channel it also sets `process.exitCode`. No
 * case stops it: what `fn` throws becomes that case's result.
 */
export function serve(fn: (value: NativeValue) => Outcome, options: NativeWorker): Promise<number>;
export function serve(fn: (value: unknown) => Outcome, options: ExactWorker): Promise<number>;
export function serve(fn: (text: string) => Outcome, options: TextWorker): Promise<number>;
export async function serve(fn: (value: never) => Outcome, options: ServeOptions): Promise<number> {
  const own = options.input === undefined && options.output === undefined;
  let status: number;
  try {
    const ch = own ? channel() : undefined;
    const input = options.input ?? ch?.input ?? (process.stdin as AsyncIterable<Uint8Array>);
    const output = options.output ?? ch?.output ?? process.stdout;
    const session = await Session.start(fn as (value: unknown) => Outcome, options, ch?.protocol ?? PROTOCOL);
    status = await session.run(input, output);
    ch?.close();
  } catch (e) {
    process.stderr.write(`${options.name} worker: ${describeFailure(e)}\n`);
    status = 1;
  }
  if (own) process.exitCode = status;
  return status;
}

/** A request the worker cannot act on; answered with an `error` message. */
class BadRequest extends Error {
  constructor(
    readonly id: RequestId,
    message: string,
  ) {
    super(message);
  }
}

/** A batch's cases, run one by one as the decoder reads them (see ItemSink). */
class StreamedCases implements ItemSink {
  results: Result[] = [];

  constructor(private readonly session: Session) {}

  item(value: unknown): Result {
    return this.session.runCase(value);
  }

  end(items: unknown[]): StreamedCases {
    this.results = items as Result[];
    return this;
  }
}

interface Request {
  type: string;
  id: RequestId;
  fields: Map<unknown, unknown>;
}

class Session {
  private readonly decoder: WireDecoder;
  private readonly hello: Response;
  private readonly logName: string;
  /** Why the request being handled is malformed, found while its cases were run (a text case that is not text). */
  private malformed: string | undefined;

  private constructor(
    private readonly fn: (value: unknown) => Outcome,
    options: ServeOptions,
    protocol: number,
    private readonly model: CaseModel,
    private readonly hasher: Awaited<ReturnType<typeof createBLAKE3>>,
  ) {
    this.decoder = new WireDecoder(model.decoding);
    this.logName = options.name;
    this.hello = {
      type: "hello",
      protocol,
      language: options.language ?? "typescript",
      name: options.name,
      version: options.version,
      model: model.name,
      ...(model.inexpressible === undefined ? {} : { inexpressible: model.inexpressible }),
    };
  }

  /** A session with its hasher ready (hash-wasm compiles its module asynchronously, once). */
  static async start(fn: (value: unknown) => Outcome, options: ServeOptions, protocol: number): Promise<Session> {
    return new Session(fn, options, protocol, modelOf(options, protocol), await createBLAKE3(256));
  }

  async run(input: AsyncIterable<Uint8Array>, output: NodeJS.WritableStream): Promise<number> {
    const send = async (message: Response): Promise<void> => {
      if (!output.write(frameOf(message))) await once(output, "drain");
    };
    const fail = async (reason: string): Promise<number> => {
      process.stderr.write(`${this.logName} worker: ${reason}\n`);
      await send({ type: "error", id: 0, message: reason });
      return 2;
    };
    await send(this.hello);
    const reader = new FrameReader();
    const clock = new BatchClock();
    for await (const chunk of input) {
      clock.exclude(() => reader.push(chunk));
      for (;;) {
        let body: Uint8Array | undefined;
        try {
          body = clock.exclude(() => reader.next());
        } catch (e) {
          if (!(e instanceof FrameLengthError)) throw e;
          return fail(e.message); // leaving the loop closes the input
        }
        if (body === undefined) break;
        const response = this.handle(body);
        // What the batch cost (batch_cpu_ns), for the bench to tell the
        // implementation's share of a run from the kit's.
        if (response["type"] === "results") response["batch_cpu_ns"] = clock.charged();
        await send(response);
        clock.wait();
      }
    }
    return reader.midFrame ? fail("input ended inside a frame") : 0;
  }

  /**
   * The response to one request frame; never throws for a bad request.
   * While it handles a request the worker captures no stack traces
   * (Error.stackTraceLimit 0): a case's spec error is a result whose stack
   * nobody reads, and capturing one costs more than some whole cases. Only
   * an unexpected exception (an `internal` result) needs its stack; that
   * case is run again to get it (failure.ts).
   */
  handle(body: Uint8Array): Response {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    this.malformed = undefined;
    try {
      let request = this.read(body, this.streamCases);
      if (request.type !== "batch" && request.fields.get("cases") instanceof StreamedCases) {
        // "batch" before the cases, another type after them (no driver sends
        // this): the cases are wanted as values, so the frame is read again.
        request = this.read(body, undefined);
      }
      switch (request.type) {
        case "batch":
          return this.batch(request);
        case "bench":
          return this.bench(request, body);
        default:
          throw new BadRequest(request.id, `unknown request type ${JSON.stringify(request.type)}`);
      }
    } catch (e) {
      const id = e instanceof BadRequest ? e.id : 0;
      return { type: "error", id, message: e instanceof Error ? e.message : String(e) };
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** The outcome of one decoded case. */
  runCase(value: unknown): Result {
    const prepared = this.prepare(value);
    return "value" in prepared ? this.compute(prepared.value) : prepared;
  }

  /**
   * A decoded case in the model (models.ts). A case that shows the request
   * malformed (a text case that is not text) gets an `internal` result, and
   * the request an `error` response once its cases have run.
   */
  private prepare(value: unknown): Prepared {
    const prepared = this.model.prepare(value);
    if (!(prepared instanceof Malformed)) return prepared;
    this.malformed ??= prepared.reason;
    return { error: INTERNAL, message: this.malformed };
  }

  /** Canonical bytes and digest of a model value, or its error result. */
  private compute(value: unknown): Result {
    // Called without a receiver, so that the trace names the implementation's function as it is ("run"), not as the kit's method ("Session.run [as fn]").
    const fn = this.fn;
    try {
      return this.canonical(fn(value));
    } catch (e) {
      if (e instanceof BadOutput) return { error: INTERNAL, message: e.message };
      const code = specCode(e);
      if (code !== undefined) return { error: code, message: messageOf(e) };
      return internalResult(e, () => {
        try {
          fn(value);
        } catch (again) {
          return again;
        }
        return undefined;
      }, fn.name === "");
    }
  }

  /** The success result of what the function returned; throws a {@link BadOutput} for a value the kit cannot send. */
  private canonical(outcome: Outcome): Result {
    if (isSigned(outcome)) return { canonical: bytesOf(outcome.canonical), digest: digestOf(outcome.digest) };
    const bytes = bytesOf(outcome);
    return { canonical: bytes, digest: this.hasher.init().update(bytes).digest("binary") };
  }

  /** Throws the request's {@link BadRequest} if running its cases found it malformed. */
  private checkCases(request: Request): void {
    if (this.malformed !== undefined) throw new BadRequest(request.id, `${request.type}: ${this.malformed}`);
  }

  /** The SinkChooser of requests: a batch's cases are run while they are decoded. */
  private readonly streamCases: SinkChooser = (key, before) => {
    if (key !== "cases") return undefined;
    let type: unknown;
    for (const [k, v] of before) if (k === "type") type = v; // the last one counts, as in read()
    return type === "batch" ? new StreamedCases(this) : undefined;
  };

  private batch(request: Request): Response {
    const cases = request.fields.get("cases");
    const results = cases instanceof StreamedCases ? cases.results : casesOf(request).map((value) => this.runCase(value));
    this.checkCases(request);
    if (digestOnlyOf(request)) {
      for (let i = 0; i < results.length; i++) {
        const result = results[i]!;
        if ("canonical" in result) results[i] = { digest: result.digest };
      }
    }
    return { type: "results", id: request.id, results };
  }

  /**
   * Times `rounds` passes of canonicalize + hash over the cases decoded once
   * (with the request), then `rounds` passes that decode the frame again, as
   * a batch does, running each case as it is decoded.
   */
  private bench(request: Request, body: Uint8Array): Response {
    let prepared = casesOf(request).map((value) => this.prepare(value));
    this.checkCases(request);
    const rounds = roundsOf(request);
    const timed = measure(() => {
      for (let r = 0; r < rounds; r++) {
        for (const p of prepared) if ("value" in p) this.compute(p.value); // an error result is work too
      }
    });
    const count = rounds * prepared.length;
    // The decoding loop must run on a heap like a batch's: holding the
    // decoded request (thousands of cases) would slow every collection in it.
    prepared = [];
    request.fields.clear();
    const sink: SinkChooser = (key) => (key === "cases" ? new StreamedCases(this) : undefined);
    const decoding = measure(() => {
      for (let r = 0; r < rounds; r++) this.decoder.decodeRequest(body, sink);
    });
    return {
      type: "bench",
      id: request.id,
      elapsed_ns: timed.elapsed,
      count,
      cpu_ns: timed.cpu,
      decode_elapsed_ns: decoding.elapsed,
      decode_cpu_ns: decoding.cpu,
    };
  }

  private read(body: Uint8Array, chooser: SinkChooser | undefined): Request {
    let value: unknown;
    try {
      value = this.decoder.decodeRequest(body, chooser);
    } catch (e) {
      throw new BadRequest(0, `undecodable frame: ${e instanceof Error ? e.message : String(e)}`);
    }
    const fields = new Map<unknown, unknown>(requestMembers(value));
    const id = fields.get("id");
    if (!isUnsigned(id)) throw new BadRequest(0, 'request "id" is not an unsigned integer');
    const type = fields.get("type");
    if (typeof type !== "string") throw new BadRequest(id, 'request "type" is not a string');
    return { type, id, fields };
  }
}

/** The model the options choose; throws for a name that is none (a caller without types). */
function modelOf(options: ServeOptions, protocol: number): CaseModel {
  const name: unknown = options.model;
  switch (name) {
    case "exact":
      return new ExactModel(options as ExactWorker);
    case "native":
      return new NativeModel((options as NativeWorker).bigint === true);
    case "text":
      return new TextModel(protocol);
  }
  throw new Error(`unknown model ${JSON.stringify(name)}`);
}

/** Wall and CPU time of `work`, in nanoseconds (CPU: the process's, user and system). */
function measure(work: () => void): { elapsed: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  work();
  const elapsed = Number(process.hrtime.bigint() - start);
  return { elapsed, cpu: cpuNs(process.cpuUsage(cpu)) };
}

const utf8 = new TextEncoder();

/**
 * What the function returned cannot be sent as its result: a text holding
 * a lone surrogate (it has no UTF-8 bytes, and TextEncoder would send
 * U+FFFD in its place, hiding the implementation's bug behind a different
 * one), a digest that is not 32 bytes, a value of another type. It is an
 * `internal` result saying so; the kit raised it, so it has no type or
 * place of the implementation's.
 */
class BadOutput extends Error {}

function isSigned(outcome: Outcome): outcome is Signed {
  return typeof outcome === "object" && outcome !== null && !(outcome instanceof Uint8Array) && "digest" in outcome;
}

function digestOf(digest: unknown): Uint8Array {
  if (!(digest instanceof Uint8Array)) throw new BadOutput(`the SDK's digest is ${describeValue(digest)}, not a Uint8Array`);
  if (digest.length !== DIGEST_SIZE) throw new BadOutput(`the SDK's digest is ${digest.length} bytes long, want ${DIGEST_SIZE} (BLAKE3-256)`);
  return digest;
}

function bytesOf(outcome: Outcome | Signed["canonical"]): Uint8Array {
  if (outcome instanceof Uint8Array) return outcome;
  if (typeof outcome === "string") {
    if (!outcome.isWellFormed()) throw new BadOutput(`output holds a lone surrogate at index ${loneSurrogateAt(outcome)}`);
    return utf8.encode(outcome);
  }
  throw new BadOutput(`the function returned ${describeValue(outcome)}, not bytes or a string`);
}

/** The index (in UTF-16 code units) of the first lone surrogate in s, or -1. */
export function loneSurrogateAt(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = s.charCodeAt(i + 1); // NaN past the end
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return i;
  }
  return -1;
}

function messageOf(e: unknown): string {
  const message = (e as { message?: unknown }).message;
  return typeof message === "string" ? message : String(e);
}

function describeFailure(e: unknown): string {
  return e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
}


/**
 * A response as a frame; one too large for a frame is replaced by an error
 * response with the request's id.
 */
function frameOf(message: Response): Uint8Array {
  const frame = encodeFrame(message);
  if (frame.length - 4 <= MAX_FRAME) return frame;
  const reason = `response of ${frame.length - 4} bytes exceeds the frame cap`;
  return encodeFrame({ type: "error", id: message["id"] ?? 0, message: reason });
}

/** The members of a request map (an empty map decodes as `{}`); throws if it is not a map. */
function requestMembers(value: unknown): Iterable<readonly [unknown, unknown]> {
  if (value instanceof ExactObject) return value.members;
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) return [];
  throw new BadRequest(0, "request is not a msgpack map");
}

function casesOf(request: Request): unknown[] {
  const cases = request.fields.get("cases");
  if (!Array.isArray(cases)) throw new BadRequest(request.id, `${request.type}: cases is not an array`);
  return cases;
}

/**
 * A batch's digest_only, false when absent. Anything but a bool (nil too) is
 * treated as every other malformed field (id, type, cases, rounds) is: an
 * `error` response for the request, not a guess at what was meant.
 */
function digestOnlyOf(request: Request): boolean {
  if (!request.fields.has("digest_only")) return false;
  const digestOnly = request.fields.get("digest_only");
  if (typeof digestOnly !== "boolean") throw new BadRequest(request.id, `${request.type}: digest_only is not a bool`);
  return digestOnly;
}

function roundsOf(request: Request): number {
  const rounds = request.fields.get("rounds");
  if (!isUnsigned(rounds) || rounds > Number.MAX_SAFE_INTEGER) {
    throw new BadRequest(request.id, `${request.type}: rounds is not an unsigned integer`);
  }
  return Number(rounds);
}

function isUnsigned(x: unknown): x is RequestId {
  return (typeof x === "number" && Number.isInteger(x) && x >= 0) || (typeof x === "bigint" && x >= 0n);
}
