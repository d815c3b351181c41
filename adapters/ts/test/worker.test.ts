/**
 * End-to-end tests of this library's worker process (`node dist/src/worker.js`)
 * over real pipes: its hello and the library's results through the kit. The
 * protocol itself (layouts, digest_only, bench, error responses, bad frames)
 * is tested in the kit (kits/ts/test/serve.test.ts).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { blake3 } from "@noble/hashes/blake3.js";
import { Worker, killWorkers, mp, mpCall, mpNest, type Message } from "@difffuzz/kit/testing";

const WORKER = fileURLToPath(new URL("../src/worker.js", import.meta.url));

after(killWorkers);

/** A started worker whose hello has been read and checked. */
async function started(): Promise<Worker> {
  const worker = new Worker(WORKER);
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
    assert.equal((results[0]["digest"] as Uint8Array).length, 32);
    assert.equal(await worker.close(), 0);
  });

  test("digest_only: the library's digests alone", async () => {
    const worker = await started();
    const fields: Array<[Uint8Array, Uint8Array]> = [
      [mp.str("type"), mp.str("batch")],
      [mp.str("id"), mp.int(2)],
      [mp.str("digest_only"), Uint8Array.of(0xc3)],
      [mp.str("cases"), mp.arr(ping, mpCall(mp.map([mp.str("a"), mp.int(1)], [mp.str("a"), mp.int(2)])))],
    ];
    worker.sendBody(mp.map(...fields));
    const results = (await worker.next())["results"] as Message[];
    assert.deepEqual(results[0], { digest: blake3(bytesOf(pingText)) });
    assert.equal(results[1]!["error"], "duplicate_key");
    assert.equal(await worker.close(), 0);
  });
});
