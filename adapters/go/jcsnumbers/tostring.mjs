// The Node side of jcs-numbers: reads doubles (8 bytes each, little-endian)
// on stdin and writes String(x) of each, one a line, on stdout: ECMAScript's
// Number::toString as V8 implements it, the text RFC 8785 §3.2.2.3 asks for.
// Chunks are handled as they arrive; a double split across two chunks is
// carried over; output waits for stdout to drain, so memory stays bounded.
let carry = Buffer.alloc(0);
for await (const chunk of process.stdin) {
  const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
  const n = Math.floor(buf.length / 8);
  const lines = new Array(n);
  for (let i = 0; i < n; i++) lines[i] = String(buf.readDoubleLE(i * 8));
  carry = Buffer.from(buf.subarray(n * 8));
  if (n > 0 && !process.stdout.write(lines.join("\n") + "\n")) {
    await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
}
if (carry.length) {
  process.stderr.write(`tostring.mjs: ${carry.length} trailing bytes, not a double\n`);
  process.exitCode = 1;
}
