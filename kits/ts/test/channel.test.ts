/**
 * The protocol's own channel (src/channel.ts): offered descriptors 3 and 4
 * (DIFFFUZZ_FDS), the worker serves there in protocol 4 and what its
 * function prints, console.log and console.error alike, is only its log.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { blake3 } from "@noble/hashes/blake3.js";
import { channel, FD_PROTOCOL, FDS_ENV, PROTOCOL } from "../src/channel.js";
import { Worker, mp, type Message } from "./support.js";

const DUMP = fileURLToPath(new URL("./workers/dump.js", import.meta.url));

test("a worker that prints on every case serves on the offered descriptors", async () => {
  const worker = new Worker(DUMP, ["exact", "chatty"], { fds: true });
  await worker.hello({ name: "dump", version: "1.0.0", model: "exact" });
  for (const id of [1, 2]) {
    worker.sendRequest({ type: mp.str("batch"), id: mp.int(id), cases: mp.arr(mp.int(1), mp.str("x")) });
    const response = await worker.next();
    assert.equal(response["id"], id);
    const text = new TextEncoder().encode("1n");
    assert.deepEqual((response["results"] as Message[])[0], { canonical: text, digest: blake3(text) });
  }
  assert.equal(await worker.close(), 0);
  assert.deepEqual(worker.stdout.split("\n"), ["debug: starting", ...Array<string[]>(2).fill(["debug: canonicalizing 1n", 'debug: canonicalizing "x"']).flat(), ""]);
  assert.equal(worker.stderr.split("debug: canonicalized").length - 1, 4);
});

test("channel: stdin and stdout without an offer, a malformed offer refused", () => {
  assert.equal(channel({}).protocol, PROTOCOL);
  assert.equal(channel({ [FDS_ENV]: "" }).input, process.stdin);
  for (const offer of ["3", "3,x", "3,4,5", "-1,4"]) {
    assert.throws(() => channel({ [FDS_ENV]: offer }), new RegExp(FDS_ENV));
  }
  assert.equal(FD_PROTOCOL, 4);
});
