/**
 * End-to-end tests of the worker process (`node dist/src/worker.js`) over
 * real pipes: hello, batch, bench, error responses, bad frames and EOF.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { decode, encode } from "@msgpack/msgpack";
import { blake3 } from "@noble/hashes/blake3.js";
import { FrameReader } from "@difffuzz/kit";
import { cat, mp, mpCall, mpNest } from "./support.js";

const WORKER = fileURLToPath(new URL("../src/worker.js", import.meta.url));

type Message = Record<string, unknown>;

/** A running worker with a frame-level conversation API. */
class Worker {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly reader = new FrameReader();
  private readonly frames: Message[] = [];
  private waiting: (() => void) | undefined;
  readonly exited: Promise<number | null>;
  stderr = "";

  constructor() {
    this.child = spawn(process.execPath, [WORKER], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.reader.push(chunk);
      for (let body = this.reader.next(); body !== undefined; body = this.reader.next()) {
        // copied so that bin values decode as plain Uint8Array, not Buffer views
        this.frames.push(decode(new Uint8Array(body), { useBigInt64: true }) as Message);
      }
      this.waiting?.();
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
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
    this.child.stdin.write(bytes);
  }

  /** Sends one frame holding these msgpack bytes. */
  sendBody(body: Uint8Array): void {
    this.write(cat(header(body.length), body));
  }

  /** Sends one request built from msgpack fragments: a map of string keys. */
  sendRequest(fields: Record<string, Uint8Array>): void {
    this.sendBody(mp.map(...Object.entries(fields).map(([k, v]): [Uint8Array, Uint8Array] => [mp.str(k), v])));
  }

  /** The next response frame (fails the test after a few seconds). */
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

  /** Closes stdin and returns the exit status. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  get pending(): number {
    return this.frames.length;
  }
}

/** Workers not yet exited, so that a failing test cannot leave one running. */
const running = new Set<Worker>();
after(() => {
  for (const worker of running) worker.kill();
});

function header(n: number): Uint8Array {
  return Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** A started worker whose hello has been read and checked. */
async function started(): Promise<Worker> {
  const worker = new Worker();
  assert.deepEqual(await worker.next(), {
    type: "hello",
    protocol: 2,
    language: "typescript",
    name: "canonjson-ts",
    version: "0.1.0",
    model: "exact",
  });
  return worker;
}

const ping = mpCall(mp.map(), mp.str("ping"));
const pingText = '{"args":{},"tool_name":"ping"}';
const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("worker", { timeout: 60_000 }, () => {
  test("hello comes first, unprompted; EOF exits 0", async () => {
    const worker = await started();
    assert.equal(await worker.close(), 0);
    assert.equal(worker.pending, 0);
  });

  test("batch: results in order, canonical and digest as bin, errors per case", async () => {
    const worker = await started();
    const cases = [
      ping,
      mpCall(mp.map([mp.str("a"), mp.int(1)], [mp.str("a"), mp.int(2)])),
      mpCall(mp.map([mp.str("b"), mp.bin([1])])),
      mpCall(mp.map([mp.str("f"), mp.f64(1e21)], [mp.str("i"), mp.big("1000000000000000000000")])),
      mpCall(mp.map([mp.utf16(0xd800), mp.nil])),
      mpCall(mp.map([mp.int(1), mp.nil])),
      mpNest(1000),
      mp.arr(),
    ];
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(7), cases: mp.arr(...cases) });
    const response = await worker.next();
    assert.equal(response["type"], "results");
    assert.equal(response["id"], 7);
    const results = response["results"] as Message[];
    const fText = '{"args":{"f":1e+21,"i":1000000000000000000000},"tool_name":"t"}';
    assert.deepEqual(results[0], { canonical: bytesOf(pingText), digest: blake3(bytesOf(pingText)) });
    assert.deepEqual(results[3], { canonical: bytesOf(fText), digest: blake3(bytesOf(fText)) });
    const codes = results.map((r) => r["error"]);
    assert.deepEqual(codes, [
      undefined,
      "duplicate_key",
      "unsupported_value",
      undefined,
      "lone_surrogate",
      "non_string_key",
      "too_deep",
      "bad_envelope",
    ]);
    for (const r of results) if (r["error"] !== undefined) assert.equal(typeof r["message"], "string");
    assert.equal((results[0]!["digest"] as Uint8Array).length, 32);
    assert.equal(await worker.close(), 0);
  });

  test("empty batch, uint64 id echoed, unknown fields ignored", async () => {
    const worker = await started();
    worker.sendRequest({ type: mp.str("batch"), id: Uint8Array.of(0xcf, 0, 0, 0, 1, 0, 0, 0, 0), cases: mp.arr(), x: mp.nil });
    assert.deepEqual(await worker.next(), { type: "results", id: 2n ** 32n, results: [] });
    assert.equal(await worker.close(), 0);
  });

  // The same cases in requests laid out every way: the results depend only on
  // the fields, whether the cases are run while decoded (type before cases)
  // or after, and digest_only keeps just the digest of each success.
  const sample = [
    ping,
    mpCall(mp.map([mp.str("a"), mp.int(1)], [mp.str("a"), mp.int(2)])),
    mpCall(mp.map([mp.str("f"), mp.f64(1e21)], [mp.str("i"), mp.big("1000000000000000000000")])),
    mpCall(mp.map([mp.str("b"), mp.bin([1])])),
    mpCall(mp.map([mp.str("__proto__"), mp.str("\ufeff" + "\u00e9".repeat(1000))])),
    mpNest(1000),
  ];
  const T = Uint8Array.of(0xc3);
  const F = Uint8Array.of(0xc2);
  const layouts: Array<[name: string, fields: Array<[string, Uint8Array]>, digestOnly: boolean]> = [
    ["type, id, cases", [["type", mp.str("batch")], ["id", mp.int(1)], ["cases", mp.arr(...sample)]], false],
    ["cases first", [["cases", mp.arr(...sample)], ["id", mp.int(1)], ["type", mp.str("batch")]], false],
    ["digest_only true first", [["digest_only", T], ["type", mp.str("batch")], ["id", mp.int(1)], ["cases", mp.arr(...sample)]], true],
    ["digest_only true last", [["type", mp.str("batch")], ["id", mp.int(1)], ["cases", mp.arr(...sample)], ["digest_only", T]], true],
    ["digest_only true, cases first", [["cases", mp.arr(...sample)], ["digest_only", T], ["type", mp.str("batch")], ["id", mp.int(1)]], true],
    ["digest_only false", [["type", mp.str("batch")], ["digest_only", F], ["id", mp.int(1)], ["cases", mp.arr(...sample)]], false],
    ["two cases fields: the last counts", [["type", mp.str("batch")], ["id", mp.int(1)], ["cases", mp.arr(ping)], ["cases", mp.arr(...sample)]], false],
    ["two type fields: the last counts", [["type", mp.str("bench")], ["type", mp.str("batch")], ["id", mp.int(1)], ["cases", mp.arr(...sample)]], false],
  ];
  test("batch results do not depend on the request's layout; digest_only keeps only digests", async () => {
    const worker = await started();
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(...sample) });
    const full = (await worker.next())["results"] as Message[];
    assert.equal(full.length, sample.length);
    assert.deepEqual(
      full.map((r) => r["error"]),
      [undefined, "duplicate_key", undefined, "unsupported_value", undefined, "too_deep"],
    );
    const digests = full.map((r) => (r["error"] === undefined ? { digest: r["digest"] } : r));
    for (const [name, fields, digestOnly] of layouts) {
      worker.sendBody(mp.map(...fields.map(([k, v]): [Uint8Array, Uint8Array] => [mp.str(k), v])));
      assert.deepEqual(await worker.next(), { type: "results", id: 1, results: digestOnly ? digests : full }, name);
    }
    assert.equal(await worker.close(), 0);
  });

  test('"batch" before the cases and "bench" after them is a bench', async () => {
    const worker = await started();
    const fields: Array<[Uint8Array, Uint8Array]> = [
      [mp.str("type"), mp.str("batch")],
      [mp.str("id"), mp.int(3)],
      [mp.str("cases"), mp.arr(ping, mp.arr())],
      [mp.str("rounds"), mp.int(5)],
      [mp.str("type"), mp.str("bench")],
    ];
    worker.sendBody(mp.map(...fields));
    const response = await worker.next();
    assert.equal(response["type"], "bench");
    assert.equal(response["count"], 10);
    assert.equal(await worker.close(), 0);
  });

  test("bench: count = rounds x cases, elapsed_ns measured", async () => {
    const worker = await started();
    worker.sendRequest({ type: mp.str("bench"), id: mp.int(8), cases: mp.arr(ping, mpNest(600), mp.arr()), rounds: mp.int(20) });
    const response = await worker.next();
    assert.equal(response["type"], "bench");
    assert.equal(response["id"], 8);
    assert.equal(response["count"], 60);
    const elapsed = response["elapsed_ns"];
    assert.ok((typeof elapsed === "number" || typeof elapsed === "bigint") && elapsed > 0, `elapsed_ns ${String(elapsed)}`);
    assert.equal(await worker.close(), 0);
  });

  test("requests pipelined in one write are answered in order", async () => {
    const worker = await started();
    const frames: Uint8Array[] = [];
    for (let id = 1; id <= 50; id++) {
      const body = encode({ type: "batch", id, cases: [] });
      frames.push(header(body.length), body);
    }
    worker.write(cat(...frames));
    for (let id = 1; id <= 50; id++) assert.equal((await worker.next())["id"], id);
    assert.equal(await worker.close(), 0);
  });

  test("a large batch split across many pipe chunks", async () => {
    const worker = await started();
    const big = mpCall(mp.map([mp.str("s"), mp.str("\u00e9".repeat(200_000))]));
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(big, big, big) });
    const results = (await worker.next())["results"] as Message[];
    assert.equal(results.length, 3);
    for (const r of results) assert.equal((r["canonical"] as Uint8Array).length, '{"args":{"s":""},"tool_name":"t"}'.length + 6 * 200_000);
    assert.equal(await worker.close(), 0);
  });

  const badRequests: Array<[name: string, body: Uint8Array, id: number, message: RegExp]> = [
    ["undecodable msgpack", Uint8Array.of(0xc1), 0, /undecodable/],
    ["truncated msgpack", Uint8Array.of(0x82, 0xa4), 0, /undecodable/],
    ["not a map", encode([1, 2]), 0, /not a msgpack map/],
    ["unknown type", encode({ type: "frobnicate", id: 3 }), 3, /unknown request type/],
    ["no type", encode({ id: 4 }), 4, /type/],
    ["bad id", encode({ type: "batch", id: -1, cases: [] }), 0, /id/],
    ["cases not an array", encode({ type: "batch", id: 5, cases: {} }), 5, /cases is not an array/],
    ["bench without rounds", encode({ type: "bench", id: 6, cases: [] }), 6, /rounds/],
    ["bench with negative rounds", encode({ type: "bench", id: 6, cases: [], rounds: -1 }), 6, /rounds/],
    ["digest_only an integer", encode({ type: "batch", id: 10, digest_only: 1, cases: [] }), 10, /digest_only is not a bool/],
    ["digest_only a string", encode({ type: "batch", id: 11, digest_only: "true", cases: [] }), 11, /digest_only is not a bool/],
    ["digest_only nil", encode({ type: "batch", id: 12, digest_only: null, cases: [] }), 12, /digest_only is not a bool/],
    ["digest_only after the cases", encode({ type: "batch", id: 13, cases: [{}], digest_only: [] }), 13, /digest_only is not a bool/],
  ];
  for (const [name, body, id, message] of badRequests) {
    test(`error response, and the worker goes on: ${name}`, async () => {
      const worker = await started();
      worker.sendBody(body);
      const response = await worker.next();
      assert.equal(response["type"], "error");
      assert.equal(response["id"], id);
      assert.match(response["message"] as string, message);
      worker.sendRequest({ type: mp.str("batch"), id: mp.int(9), cases: mp.arr(ping) });
      assert.deepEqual(await worker.next(), {
        type: "results",
        id: 9,
        results: [{ canonical: bytesOf(pingText), digest: blake3(bytesOf(pingText)) }],
      });
      assert.equal(await worker.close(), 0);
    });
  }

  const badStreams: Array<[name: string, bytes: Uint8Array]> = [
    ["frame length 0", header(0)],
    ["frame length over 64 MiB", header(64 * 1024 * 1024 + 1)],
    ["stdin ends inside a frame", cat(header(10), [0x80])],
    ["stdin ends inside a header", Uint8Array.of(0, 0)],
  ];
  for (const [name, bytes] of badStreams) {
    test(`${name}: error response, exit status 2`, async () => {
      const worker = await started();
      worker.write(bytes);
      const exit = worker.close();
      const response = await worker.next();
      assert.equal(response["type"], "error");
      assert.equal(response["id"], 0);
      assert.equal(await exit, 2);
    });
  }

  test("a bad length ends the worker even while stdin stays open", async () => {
    const worker = await started();
    worker.write(header(0));
    assert.equal((await worker.next())["type"], "error");
    assert.equal(await worker.exited, 2);
  });
});
