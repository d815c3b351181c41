/** The docs' example worker (example/worker.ts) as a real process: its hello, one case, one inexpressible case. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { blake3 } from "@noble/hashes/blake3.js";
import { Worker, mp, type Message } from "./support.js";

const EXAMPLE = fileURLToPath(new URL("../example/worker.js", import.meta.url));

test("example worker: native hello, a sorted JSON.stringify, a repeated key inexpressible", async () => {
  const worker = new Worker(EXAMPLE);
  await worker.hello({
    name: "json-stringify-sorted",
    version: process.versions.node,
    model: "native",
    inexpressible: ["duplicate_key", "big_int", "non_string_key", "unsupported_value"],
  });
  const call = mp.map([mp.str("tool_name"), mp.str("t")], [mp.str("args"), mp.map([mp.str("b"), mp.int(1)], [mp.str("a"), mp.f64(0.5)])]);
  const repeated = mp.map([mp.str("a"), mp.nil], [mp.str("a"), mp.nil]);
  worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(call, repeated) });
  const results = (await worker.next())["results"] as Message[];
  const text = new TextEncoder().encode('{"args":{"a":0.5,"b":1},"tool_name":"t"}');
  assert.deepEqual(results[0], { canonical: text, digest: blake3(text) });
  assert.equal(results[1]!["inexpressible"], "duplicate_key");
  assert.equal(await worker.close(), 0);
});

const TEXT_EXAMPLE = fileURLToPath(new URL("../example/text_worker.js", import.meta.url));

test("text example worker: text hello, JSON.parse keeps the last repeated key, bin inexpressible", async () => {
  const worker = new Worker(TEXT_EXAMPLE);
  await worker.hello({
    name: "json-parse-stringify-sorted",
    version: process.versions.node,
    model: "text",
    inexpressible: ["non_string_key", "unsupported_value"],
  });
  const repeated = mp.map([mp.str("a"), mp.int(1)], [mp.str("a"), mp.int(2)]);
  const bin = mp.arr(mp.bin([1]));
  worker.sendRequest({ type: mp.str("batch"), id: mp.int(1), cases: mp.arr(repeated, bin) });
  const results = (await worker.next())["results"] as Message[];
  const text = new TextEncoder().encode('{"a":2}');
  assert.deepEqual(results[0], { canonical: text, digest: blake3(text) });
  assert.equal(results[1]!["inexpressible"], "unsupported_value");
  assert.equal(await worker.close(), 0);
});
