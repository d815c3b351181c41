/** Frames (src/frames.ts): reassembly from any chunking, the length cap, the encoder. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { decode } from "@msgpack/msgpack";
import { FrameLengthError, FrameReader, MAX_FRAME, encodeFrame } from "../src/frames.js";
import { cat, header } from "./support.js";

test("frames split at every byte boundary are reassembled", () => {
  const bodies = [Uint8Array.of(0xc0), Uint8Array.of(1, 2, 3, 4, 5, 6, 7), Uint8Array.from({ length: 300 }, (_, i) => i & 0xff)];
  const stream = cat(...bodies.flatMap((b) => [header(b.length), b]));
  for (const size of [1, 2, 3, 5, 64, stream.length]) {
    const reader = new FrameReader();
    const got: Uint8Array[] = [];
    for (let at = 0; at < stream.length; at += size) {
      reader.push(stream.subarray(at, at + size));
      for (let body = reader.next(); body !== undefined; body = reader.next()) got.push(Uint8Array.from(body));
    }
    assert.deepEqual(got, bodies, `chunks of ${size}`);
    assert.equal(reader.midFrame, false);
  }
});

test("a partial frame is waited for and reported as mid-frame", () => {
  const reader = new FrameReader();
  reader.push(cat(header(3), [1, 2]));
  assert.equal(reader.next(), undefined);
  assert.equal(reader.midFrame, true);
  reader.push(Uint8Array.of(3));
  assert.deepEqual(reader.next(), Uint8Array.of(1, 2, 3));
});

const lengths: Array<[number, boolean]> = [
  [0, false],
  [1, true],
  [MAX_FRAME, true],
  [MAX_FRAME + 1, false],
  [0xffffffff, false],
];
for (const [length, ok] of lengths) {
  test(`length ${length} is ${ok ? "accepted" : "rejected"}`, () => {
    const reader = new FrameReader();
    reader.push(header(length));
    if (ok) assert.equal(reader.next(), undefined);
    else assert.throws(() => reader.next(), (e: unknown) => e instanceof FrameLengthError && e.length === length);
  });
}

test("encodeFrame writes a big-endian length and the msgpack body", () => {
  const bytes = encodeFrame({ type: "results", id: 7, results: [{ canonical: Uint8Array.of(0x7b, 0x7d), digest: new Uint8Array(32) }] });
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
  assert.equal(length, bytes.length - 4);
  assert.deepEqual(decode(bytes.subarray(4)), {
    type: "results",
    id: 7,
    results: [{ canonical: Uint8Array.of(0x7b, 0x7d), digest: new Uint8Array(32) }],
  });
  const body = Buffer.from(bytes.subarray(4));
  assert.equal(body[body.indexOf("canonical") + 9], 0xc4, "canonical is sent as bin");
  assert.deepEqual([...body.subarray(body.indexOf("digest") + 6, body.indexOf("digest") + 8)], [0xc4, 32], "digest is bin of 32 bytes");
});

test("encodeFrame output is not overwritten by the next call", () => {
  const first = encodeFrame({ a: 1 });
  const copy = Uint8Array.from(first);
  encodeFrame({ b: "something longer" });
  assert.deepEqual(first, copy);
});
