/**
 * The difffuzz worker (docs/adapter-protocol.md): a thin loop that reads
 * request frames on stdin, runs each case through the canonical library and
 * writes response frames on stdout. Everything about values lives in
 * canonical.ts and wire.ts; this file only speaks the protocol.
 */
import { once } from "node:events";
import { CanonicalError, JsonObject, canonicalDigest } from "./canonical.js";
import { FrameLengthError, FrameReader, MAX_FRAME, WireDecoder, encodeFrame } from "./wire.js";

const HELLO = {
  type: "hello",
  protocol: 1,
  language: "typescript",
  name: "canonjson-ts",
  version: "0.1.0",
} as const;

type RequestId = number | bigint;
type Result = { canonical: Uint8Array; digest: Uint8Array } | { error: string; message: string };
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

/** The outcome of one case: canonical bytes and digest, or the error result. */
function runCase(value: unknown): Result {
  try {
    return canonicalDigest(value);
  } catch (e) {
    if (e instanceof CanonicalError) return { error: e.code, message: e.message };
    return { error: "internal", message: describeFailure(e) };
  }
}

function describeFailure(e: unknown): string {
  return e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
}

function batch(id: RequestId, cases: unknown[]): Response {
  const results = new Array<Result>(cases.length);
  for (let i = 0; i < cases.length; i++) results[i] = runCase(cases[i]);
  return { type: "results", id, results };
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
  try {
    const request = readRequest(decoder, body);
    switch (request.type) {
      case "batch":
        return batch(request.id, casesOf(request));
      case "bench":
        return bench(request.id, casesOf(request), roundsOf(request));
      default:
        throw new BadRequest(request.id, `unknown request type ${JSON.stringify(request.type)}`);
    }
  } catch (e) {
    const id = e instanceof BadRequest ? e.id : 0;
    return { type: "error", id, message: e instanceof Error ? e.message : String(e) };
  }
}

interface Request {
  type: string;
  id: RequestId;
  fields: Map<unknown, unknown>;
}

function readRequest(decoder: WireDecoder, body: Uint8Array): Request {
  let value: unknown;
  try {
    value = decoder.decodeValue(body);
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
