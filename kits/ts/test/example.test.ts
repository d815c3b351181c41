/** The docs' example worker (example/worker.ts) as a real process: its hello, one case, one inexpressible case. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { blake3 } from "@noble/hashes/blake3.js";
import { Worker, mp, type Message } from "./support.js";

const EXAMPLE = fileURLToPath(new URL("../example/worker.js", import.meta.url));

test("example worker: native hello, a sorted JSON.stringify, a repeated key inexpressible, bin data a SpecError", async () => {
  const worker = new Worker(EXAMPLE);
  await worker.hello({
    name: "json-stringify-sorted",
    version: process.versions.node,
    model: "native",
    inexpressible: ["duplicate_key", "big_int", "non_string_key", "unsupported_value"],
  });
  const call = mp.map([mp.str("tool_name"), mp.str("t")], [mp.str("args"), mp.map([mp.str("b"), mp.int(1)], [mp.str("a"), mp.f64(0.5)])]);
  const repeated = mp.map([mp.str("a"), mp.nil], [mp.str("a"), mp.nil]);
  const bin = mp.map([mp.str("b"), mp.bin([1])]);
  worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(call, repeated, bin) });
  const results = (await worker.next())["results"] as Message[];
  const text = new TextEncoder().encode('{"args":{"a":0.5,"b":1},"tool_name":"t"}');
  assert.deepEqual(results[0], { canonical: text, digest: blake3(text) });
  assert.equal(results[1]!["inexpressible"], "duplicate_key");
  assert.deepEqual(results[2], { error: "unsupported_value", message: "bin data has no JSON text" });
  assert.equal(await worker.close(), 0);
});

const TEXT_EXAMPLE = fileURLToPath(new URL("../example/text_worker.js", import.meta.url));
const TEXT_EXAMPLE_URL = new URL("../example/text_worker.js", import.meta.url).href;

test("text example worker: text hello, JSON.parse keeps the last repeated key, and its SyntaxError is internal", async () => {
  const worker = new Worker(TEXT_EXAMPLE, [], { fds: true });
  await worker.hello({
    name: "json-parse-stringify-sorted",
    version: process.versions.node,
    model: "text",
    inexpressible: ["non_string_key", "unsupported_value"],
  });
  const texts = ['{"a": 1, "a": 2}', "[NaN]"];
  worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(...texts.map((t) => mp.bin(new TextEncoder().encode(t)))) });
  const [repeated, nan] = (await worker.next())["results"] as Message[];
  const text = new TextEncoder().encode('{"a":2}');
  assert.deepEqual(repeated, { canonical: text, digest: blake3(text) });
  assert.equal(nan!["error"], "internal");
  assert.equal(nan!["error_type"], "SyntaxError");
  const frames = nan!["frames"] as Message[];
  assert.deepEqual(frames[0], { file: "", function: "JSON.parse", line: 0 });
  assert.deepEqual(frames.slice(1).map((f) => [f["file"], typeof f["line"]]), [[TEXT_EXAMPLE_URL, "number"]], "the example's own function, then the kit");
  assert.equal(await worker.close(), 0);
});
