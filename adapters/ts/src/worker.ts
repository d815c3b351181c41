/**
 * The difffuzz worker (docs/adapter-protocol.md): a thin loop that reads
 * request frames on stdin, runs each case through the canonical library and
 * writes response frames on stdout. Everything about values lives in
 * canonical.ts and wire.ts; this file only speaks the protocol.
 */
import { once } from "node:events";
import { CanonicalError, JsonObject, canonicalDigest, type Member } from "./canonical.js";
import {
  FrameLengthError,
  FrameReader,
  MAX_FRAME,
  WireDecoder,
  encodeFrame,
  type ItemSink,
  type SinkChooser,
} from "./wire.js";

const HELLO = {
  type: "hello",
  protocol: 1,
  language: "typescript",
  name: "canonjson-ts",
  version: "0.1.0",
} as const;

type RequestId = number | bigint;
type Result =
  | { canonical: Uint8Array; digest: Uint8Array }
  | { digest: Uint8Array } // a digest_only batch's success
  | { error: string; message: string };
type Response = Record<string, unknown>;

/** A request the worker cannot act on; answered with an `error` message. */
class BadRequest extends Error {
  constructor(
    readonly id: RequestId,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The stack trace depth outside request handling. While it handles a request
 * the worker captures no stack traces (Error.stackTraceLimit 0): a case's
 * CanonicalError is a result whose stack nobody reads, and capturing one
 * costs more than some whole cases. Only an unexpected exception (an
 * `internal` result) needs its stack; that case is run again to get it.
 */
const STACK_TRACE_LIMIT = Error.stackTraceLimit;

/** The outcome of one case: canonical bytes and digest, or the error result. */
function runCase(value: unknown): Result {
  try {
    return canonicalDigest(value);
  } catch (e) {
    if (e instanceof CanonicalError) return { error: e.code, message: e.message };
    return { error: "internal", message: describeInternal(value, e) };
  }
}

/** An unexpected exception of a case, with the stack trace of a second run (see STACK_TRACE_LIMIT). */
function describeInternal(value: unknown, first: unknown): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_TRACE_LIMIT;
  try {
    canonicalDigest(value);
  } catch (e) {
    if (!(e instanceof CanonicalError)) return describeFailure(e);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return describeFailure(first); // the second run did not fail alike
}

function describeFailure(e: unknown): string {
  return e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
}

/**
 * A batch's cases, run one by one as the decoder reads them (wire.ts,
 * ItemSink): each case's values are garbage as soon as its result is made,
 * instead of the whole batch's living until its last case is decoded. Used
 * when a request says `"type": "batch"` before its cases, as the driver's
 * requests do; the decoded `cases` is then this object.
 */
class StreamedCases implements ItemSink {
  results: Result[] = [];

  item(value: unknown): Result {
    return runCase(value);
  }

  end(items: unknown[]): StreamedCases {
    this.results = items as Result[];
    return this;
  }
}

/** The SinkChooser of requests: a batch's cases are run while they are decoded. */
function streamCases(key: unknown, before: readonly Member[]): ItemSink | undefined {
  if (key !== "cases") return undefined;
  let type: unknown;
  for (const [k, v] of before) if (k === "type") type = v; // the last one counts, as in readRequest
  return type === "batch" ? new StreamedCases() : undefined;
}

function batch(request: Request): Response {
  const cases = request.fields.get("cases");
  const results = cases instanceof StreamedCases ? cases.results : runCases(casesOf(request));
  if (digestOnlyOf(request)) {
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if ("digest" in result) results[i] = { digest: result.digest };
    }
  }
  return { type: "results", id: request.id, results };
}

function runCases(cases: unknown[]): Result[] {
  const results = new Array<Result>(cases.length);
  for (let i = 0; i < cases.length; i++) results[i] = runCase(cases[i]);
  return results;
}

/** Times `rounds` passes of canonicalize + hash over cases decoded once (with the request). */
function bench(id: RequestId, values: unknown[], rounds: number): Response {
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) {
    for (const value of values) {
      try {
        canonicalDigest(value);
      } catch {
        // an error result is work too (protocol: bench); nothing to keep
      }
    }
  }
  const elapsed = process.hrtime.bigint() - start;
  return { type: "bench", id, elapsed_ns: Number(elapsed), count: rounds * values.length };
}

function handle(decoder: WireDecoder, body: Uint8Array): Response {
  Error.stackTraceLimit = 0; // see STACK_TRACE_LIMIT
  try {
    let request = readRequest(decoder, body, streamCases);
    if (request.type !== "batch" && request.fields.get("cases") instanceof StreamedCases) {
      // "batch" before the cases, another type after them (no driver sends
      // this): the cases are wanted as values, so the frame is read again.
      request = readRequest(decoder, body, undefined);
    }
    switch (request.type) {
      case "batch":
        return batch(request);
      case "bench":
        return bench(request.id, casesOf(request), roundsOf(request));
      default:
        throw new BadRequest(request.id, `unknown request type ${JSON.stringify(request.type)}`);
    }
  } catch (e) {
    const id = e instanceof BadRequest ? e.id : 0;
    return { type: "error", id, message: e instanceof Error ? e.message : String(e) };
  } finally {
    Error.stackTraceLimit = STACK_TRACE_LIMIT;
  }
}

interface Request {
  type: string;
  id: RequestId;
  fields: Map<unknown, unknown>;
}

function readRequest(decoder: WireDecoder, body: Uint8Array, chooser: SinkChooser | undefined): Request {
  let value: unknown;
  try {
    value = decoder.decodeValue(body, chooser);
  } catch (e) {
    throw new BadRequest(0, `undecodable frame: ${e instanceof Error ? e.message : String(e)}`);
  }
  const fields = new Map(requestMembers(value));
  const id = fields.get("id");
  if (!isUnsigned(id)) throw new BadRequest(0, 'request "id" is not an unsigned integer');
  const type = fields.get("type");
  if (typeof type !== "string") throw new BadRequest(id, 'request "type" is not a string');
  return { type, id, fields };
}

/** The members of a request map (an empty map decodes as `{}`); throws if it is not a map. */
function requestMembers(value: unknown): Iterable<readonly [unknown, unknown]> {
  if (value instanceof JsonObject) return value.members;
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

/**
 * Writes one frame, waiting for stdout to drain when its buffer is full. A
 * response too large for a frame is replaced by an error response.
 */
async function send(message: Response): Promise<void> {
  let frame = encodeFrame(message);
  if (frame.length - 4 > MAX_FRAME) {
    const reason = `response of ${frame.length - 4} bytes exceeds the frame cap`;
    frame = encodeFrame({ type: "error", id: message["id"] ?? 0, message: reason });
  }
  if (!process.stdout.write(frame)) await once(process.stdout, "drain");
}

/** Reports a broken stream (it cannot be resynchronised) and sets exit status 2. */
async function fail(reason: string): Promise<void> {
  process.stderr.write(`canonjson-ts worker: ${reason}\n`);
  await send({ type: "error", id: 0, message: reason });
  process.exitCode = 2;
}

async function main(): Promise<void> {
  await send(HELLO);
  const reader = new FrameReader();
  const decoder = new WireDecoder();
  for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) {
    reader.push(chunk);
    for (;;) {
      let body: Uint8Array | undefined;
      try {
        body = reader.next();
      } catch (e) {
        if (!(e instanceof FrameLengthError)) throw e;
        await fail(e.message);
        return; // leaving the loop closes stdin; the process exits once stdout is flushed
      }
      if (body === undefined) break;
      await send(handle(decoder, body));
    }
  }
  if (reader.midFrame) await fail("stdin ended inside a frame");
}

main().catch((e: unknown) => {
  process.stderr.write(`canonjson-ts worker: ${describeFailure(e)}\n`);
  process.exitCode = 1;
});
