/**
 * The protocol loop (src/serve.ts) end to end, over real pipes, on a test
 * worker (test/workers/dump.ts) whose output is a dump of the value it got:
 * hello, batches, digest_only, bench, error responses, bad frames and EOF.
 *
 * What `difffuzz adapter check` (harness/conform) checks of every worker is
 * left to it: `make conform` runs it on the example worker and on
 * adapters/ts's (the hello unprompted, exit 0 at EOF, large values over many
 * pipe chunks, bodies that are no msgpack or no map, input that ends inside
 * a frame). What is here is this kit's own: the models' values, how a thrown
 * value maps to a result, request layouts, pipelining, bench, and the
 * requests conform does not send.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { encode } from "@msgpack/msgpack";
import { blake3 } from "@noble/hashes/blake3.js";
import { Worker, cat, header, mp, mpNest, type Message } from "./support.js";
import { loneSurrogateAt } from "../src/serve.js";

const DUMP = fileURLToPath(new URL("./workers/dump.js", import.meta.url));

/** A started test worker of this model whose hello has been read and checked. */
async function started(model: "exact" | "native" | "native-bigint" = "exact"): Promise<Worker> {
  const worker = new Worker(DUMP, [model]);
  const inexpressible =
    model === "exact"
      ? {}
      : { inexpressible: model === "native" ? ["duplicate_key", "big_int", "non_string_key", "unsupported_value"] : ["duplicate_key", "non_string_key", "unsupported_value"] };
  await worker.hello({ name: "dump", version: "1.0.0", model: model === "exact" ? "exact" : "native", ...inexpressible });
  return worker;
}

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
/** The success result of a case whose dump is `text`. */
const ok = (text: string): Message => ({ canonical: bytesOf(text), digest: blake3(bytesOf(text)) });

/**
 * The worker's next response, a batch's results, without its batch_cpu_ns:
 * which must be there, a positive count of nanoseconds.
 */
async function nextResults(worker: Worker): Promise<Message> {
  const { batch_cpu_ns: cpu, ...rest } = await worker.next();
  assert.ok((typeof cpu === "number" || typeof cpu === "bigint") && cpu > 0, `batch_cpu_ns ${String(cpu)}`);
  return rest;
}

const DUMP_URL = new URL("./workers/dump.js", import.meta.url).href;

/** A frame of the dump worker's function `name`, at the line `result`'s frames give it (a positive number: the compiled file's). */
function frame(name: string, result: Message): Message {
  const frames = (result["frames"] ?? []) as Message[];
  const line = frames.find((f) => f["function"] === name)?.["line"];
  assert.ok(typeof line === "number" && line > 0, `no line for ${name} in ${JSON.stringify(frames)}`);
  return { file: DUMP_URL, function: name, line };
}

const ping = mp.map([mp.str("tool_name"), mp.str("ping")], [mp.str("args"), mp.map()]);
const pingText = '{"tool_name":"ping","args":{}}';

describe("serve", { timeout: 60_000 }, () => {
  test("exact batch: results in order, values in the exact model, spec errors and internal failures per case", async () => {
    const worker = await started();
    const cases = [
      ping,
      mp.map([mp.str("a"), mp.int(1)], [mp.str("a"), mp.f64(1)], [mp.int(2), mp.bin([1])]),
      mp.arr(mp.big("100000000000000000000000"), mp.utf16(0xd800), mp.ext(9, []), mp.strBytes([0xff])),
      mp.str("code:duplicate_key"),
      mp.str("throw"),
      mp.str("undefined"),
      mp.str("code:not_a_spec_code"),
      mp.map(),
    ];
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(7), cases: mp.arr(...cases) });
    const response = await worker.next();
    assert.equal(response["type"], "results");
    assert.equal(response["id"], 7);
    const results = response["results"] as Message[];
    assert.equal(results.length, cases.length);
    assert.deepEqual(results[0], ok(pingText));
    assert.deepEqual(results[1], ok('{"a":1n,"a":1,2n:bin(1)}'));
    assert.deepEqual(results[2], ok('[100000000000000000000000n,"\\ud800",ext(9),invalid]'));
    assert.deepEqual(results[3], { error: "duplicate_key", message: "rejected as duplicate_key" });
    assert.deepEqual(results[4], { error: "internal", message: "TypeError: boom", error_type: "TypeError", frames: [frame("run", results[4]!)] });
    assert.deepEqual(results[5], { error: "internal", message: "the function returned undefined, not bytes or a string" });
    assert.equal(results[6]!["error"], "internal");
    assert.deepEqual(results[7], ok("{}"));
    assert.equal(await worker.close(), 0);
  });

  test("a returned text holding a lone surrogate is an internal result saying where, never U+FFFD", async () => {
    const worker = await started();
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(mp.str("lone"), mp.str("x")) });
    const results = (await nextResults(worker))["results"] as Message[];
    assert.deepEqual(results[0], { error: "internal", message: "output holds a lone surrogate at index 7" });
    assert.deepEqual(results[1], ok('"x"'));
    assert.equal(await worker.close(), 0);
  });

  test("an SDK's own digest is sent, in full and digest_only answers; one not 32 bytes long is internal", async () => {
    const worker = await started();
    const cases = mp.arr(mp.str("signed:32"), mp.str("signed:31"));
    const own = new Uint8Array(32).fill(7);
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases });
    const results = (await nextResults(worker))["results"] as Message[];
    assert.deepEqual(results[0], { canonical: bytesOf('"signed:32"'), digest: own });
    assert.deepEqual(results[1], { error: "internal", message: "the SDK's digest is 31 bytes long, want 32 (BLAKE3-256)" });
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(2), digest_only: Uint8Array.of(0xc3), cases });
    assert.deepEqual(((await nextResults(worker))["results"] as Message[])[0], { digest: own });
    assert.equal(await worker.close(), 0);
  });

  test("native batch: plain objects and numbers; inexpressible cases never reach the function", async () => {
    const worker = await started("native");
    const cases = [
      mp.map([mp.str("b"), mp.int(1)], [mp.str("__proto__"), mp.f64(1.5)], [mp.str("1"), mp.bin([7])]),
      mp.map([mp.str("k"), mp.str("throw")], [mp.utf16s("k"), mp.nil]),
      mp.arr(mp.str("throw"), mp.int(2n ** 53n)),
      mp.map([mp.int(1), mp.str("throw")]),
      mp.arr(mp.str("throw"), mp.ext(3, [])),
      mpNest(1001),
      mp.arr(mp.int(2n ** 53n - 1n), mp.utf16(0xdc00)),
    ];
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(...cases) });
    const results = (await worker.next())["results"] as Message[];
    assert.deepEqual(results[0], ok('plain{"1":bin(7),"b":1,"__proto__":1.5}'));
    assert.deepEqual(
      results.slice(1, 5).map((r) => [r["inexpressible"], typeof r["message"]]),
      [
        ["duplicate_key", "string"],
        ["big_int", "string"],
        ["non_string_key", "string"],
        ["unsupported_value", "string"],
      ],
    );
    assert.equal(results[5]!["error"], "too_deep");
    assert.deepEqual(results[6], ok('[9007199254740991,"\\udc00"]'));
    assert.equal(await worker.close(), 0);
  });

  test("native with bigint: integers past the safe range are bigints", async () => {
    const worker = await started("native-bigint");
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(mp.arr(mp.int(2n ** 53n), mp.int(5), mp.big("-100000000000000000000000"))) });
    assert.deepEqual((await worker.next())["results"], [ok("[9007199254740992n,5,-100000000000000000000000n]")]);
    assert.equal(await worker.close(), 0);
  });

  test("empty batch, uint64 id echoed, unknown fields ignored", async () => {
    const worker = await started();
    worker.sendRequest({ type: mp.str("batch"), id: Uint8Array.of(0xcf, 0, 0, 0, 1, 0, 0, 0, 0), cases: mp.arr(), x: mp.nil });
    assert.deepEqual(await nextResults(worker), { type: "results", id: 2n ** 32n, results: [] });
    assert.equal(await worker.close(), 0);
  });

  // The same cases in requests laid out every way: the results depend only on
  // the fields, whether the cases are run while decoded (type before cases)
  // or after, and digest_only keeps just the digest of each success.
  const sample = [ping, mp.str("code:duplicate_key"), mp.map([mp.str("__proto__"), mp.str("\ufeff" + "\u00e9".repeat(1000))]), mp.str("code:too_deep")];
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
    assert.deepEqual(full.map((r) => r["error"]), [undefined, "duplicate_key", undefined, "too_deep"]);
    const digests = full.map((r) => (r["error"] === undefined ? { digest: r["digest"] } : r));
    for (const [name, fields, digestOnly] of layouts) {
      worker.sendBody(mp.map(...fields.map(([k, v]): [Uint8Array, Uint8Array] => [mp.str(k), v])));
      assert.deepEqual(await nextResults(worker), { type: "results", id: 1, results: digestOnly ? digests : full }, name);
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

  for (const model of ["exact", "native"] as const) {
    test(`bench (${model}): count = rounds x cases, the v2 timings measured`, async () => {
      const worker = await started(model);
      const cases = [ping, mpNest(600), mp.arr(), mp.str("throw"), mp.map([mp.str("a"), mp.nil], [mp.str("a"), mp.nil])];
      worker.sendRequest({ type: mp.str("bench"), id: mp.int(8), cases: mp.arr(...cases), rounds: mp.int(200) });
      const response = await worker.next();
      assert.equal(response["type"], "bench");
      assert.equal(response["id"], 8);
      assert.equal(response["count"], 1000);
      for (const field of ["elapsed_ns", "cpu_ns", "decode_elapsed_ns", "decode_cpu_ns"]) {
        const ns = response[field];
        assert.ok((typeof ns === "number" || typeof ns === "bigint") && ns >= 0, `${field} ${String(ns)}`);
      }
      assert.ok((response["elapsed_ns"] as number) > 0 && (response["decode_elapsed_ns"] as number) > 0);
      assert.equal(await worker.close(), 0);
    });
  }

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

  const badRequests: Array<[name: string, body: Uint8Array, id: number, message: RegExp]> = [
    ["truncated msgpack", Uint8Array.of(0x82, 0xa4), 0, /undecodable/],
    ["an empty map", encode({}), 0, /id/],
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
      assert.deepEqual(await nextResults(worker), { type: "results", id: 9, results: [ok(pingText)] });
      assert.equal(await worker.close(), 0);
    });
  }

  // conform lets a worker answer a bad length and go on; this kit exits.
  const badStreams: Array<[name: string, bytes: Uint8Array]> = [
    ["frame length 0", header(0)],
    ["frame length over 64 MiB", header(64 * 1024 * 1024 + 1)],
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

test("loneSurrogateAt: the first unpaired surrogate's index, pairs skipped", () => {
  const tests: Array<[string, number]> = [
    ["", -1],
    ["abc", -1],
    ["\uD83D\uDE00", -1],
    ['"abcdef\uD800"', 7],
    ["\uDC00", 0],
    ["a\uD800b", 1],
    ["\uD83D\uDE00\uDE00", 2],
    ["\uD800\uD800\uDC00", 0],
  ];
  for (const [s, want] of tests) assert.equal(loneSurrogateAt(s), want, JSON.stringify(s));
});

/** A started text worker on the descriptors (protocol 4), its hello read and checked. */
async function startedText(): Promise<Worker> {
  const worker = new Worker(DUMP, ["text"], { fds: true });
  await worker.hello({ name: "dump", version: "1.0.0", model: "text", inexpressible: ["non_string_key", "unsupported_value"] });
  return worker;
}

describe("protocol 4", { timeout: 60_000 }, () => {
  test("an internal result says the error's type and where it was raised, innermost first", async () => {
    const worker = await started();
    const cases = [mp.str("json"), mp.str("throw-string"), mp.str("spec:duplicate_key"), mp.str("code:too_deep"), mp.str("node-error")];
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(...cases) });
    const [json, thrown, spec, code, node] = (await nextResults(worker))["results"] as Message[];
    // JSON.parse is V8's: one frame, its entry point, before the worker's own.
    assert.equal(json!["error_type"], "SyntaxError");
    assert.match(json!["message"] as string, /^SyntaxError: /);
    assert.deepEqual(json!["frames"], [{ file: "", function: "JSON.parse", line: 0 }, frame("parseArgs", json!), frame("run", json!)]);
    // A thrown string has no stack: its type is typeof's.
    assert.deepEqual(thrown, { error: "internal", message: "oops", error_type: "string" });
    assert.deepEqual(spec, { error: "duplicate_key", message: "rejected as duplicate_key" });
    assert.deepEqual(code, { error: "too_deep", message: "rejected as too_deep" });
    // Node's own frames (node:buffer, node:internal/errors) are one, the entry point into them.
    assert.equal(node!["error_type"], "TypeError");
    const [entry, ...own] = node!["frames"] as Message[];
    assert.deepEqual([entry!["file"], entry!["line"], typeof entry!["function"]], ["", 0, "string"]);
    assert.match(entry!["function"] as string, /\.from$/);
    assert.deepEqual(own, [frame("run", node!)]);
    assert.equal(await worker.close(), 0);
  });

  test("a stack overflow's frames are its recursion's, the same every time", async () => {
    const worker = await started();
    const seen: unknown[] = [];
    // Batches apart and in one batch, as V8 optimizes ping and pong (which changes where the stack runs out).
    for (let id = 1; id <= 4; id++) {
      worker.sendRequest({ type: mp.str("batch"), id: mp.int(id), cases: mp.arr(...Array<Uint8Array>(id).fill(mp.str("overflow")), ping) });
      const results = (await nextResults(worker))["results"] as Message[];
      for (const result of results.slice(0, id)) {
        assert.equal(result["error_type"], "RangeError");
        assert.equal(result["message"], "RangeError: Maximum call stack size exceeded");
        seen.push(result["frames"]);
      }
    }
    const first = seen[0] as Message[];
    assert.deepEqual(first.map((f) => f["function"]), ["ping", "pong"]);
    for (const frames of seen) assert.deepEqual(frames, first);
    assert.equal(await worker.close(), 0);
  });

  test("text model: each case's bytes are the function's string, unchanged", async () => {
    const worker = await startedText();
    const texts = ['{"a":1}', '\ufeff [1, "\\ud800"]\r\n', "\u00e9\u{1f600}".repeat(700), "", "throw"];
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(...texts.map((t) => mp.bin(bytesOf(t)))) });
    const results = (await nextResults(worker))["results"] as Message[];
    assert.deepEqual(results.slice(0, 4), texts.slice(0, 4).map((t) => ok(JSON.stringify(t))));
    assert.equal(results[4]!["error_type"], "TypeError");
    worker.sendRequest({ type: mp.str("bench"), id: mp.int(2), cases: mp.arr(mp.bin(bytesOf("[]"))), rounds: mp.int(3) });
    assert.equal((await worker.next())["count"], 3);
    assert.equal(await worker.close(), 0);
  });

  const notText: Array<[name: string, item: Uint8Array, message: RegExp]> = [
    ["a str", mp.str("[]"), /batch: a case is string, not bin \(JSON text\)/],
    ["a value", mp.arr(), /batch: a case is Array, not bin/],
    ["bytes that are not UTF-8", mp.bin([0x22, 0xff, 0x22]), /batch: a case's text is not UTF-8/],
  ];
  for (const [name, item, message] of notText) {
    test(`text model: a case that is ${name} is an error response, and the worker goes on`, async () => {
      const worker = await startedText();
      worker.sendRequest({ type: mp.str("batch"), id: mp.int(4), cases: mp.arr(mp.bin(bytesOf("1")), item) });
      const response = await worker.next();
      assert.deepEqual([response["type"], response["id"]], ["error", 4]);
      assert.match(response["message"] as string, message);
      worker.sendRequest({ type: mp.str("batch"), id: mp.int(5), cases: mp.arr(mp.bin(bytesOf("1"))) });
      assert.deepEqual((await nextResults(worker))["results"], [ok('"1"')]);
      assert.equal(await worker.close(), 0);
    });
  }

  test("text model on stdin and stdout (protocol 2): every case an internal result saying it needs protocol 4", async () => {
    const worker = new Worker(DUMP, ["text"]);
    await worker.hello({ name: "dump", version: "1.0.0", model: "text", inexpressible: ["non_string_key", "unsupported_value"] });
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(ping, mp.bin(bytesOf("1"))) });
    const results = (await nextResults(worker))["results"] as Message[];
    assert.equal(results.length, 2);
    for (const result of results) {
      assert.deepEqual(Object.keys(result), ["error", "message"]);
      assert.equal(result["error"], "internal");
      assert.match(result["message"] as string, /the text model needs a driver of protocol 4/);
    }
    assert.equal(await worker.close(), 0);
  });
});
