/** The kit's error codes against docs/adapter-protocol.md, read from the page itself so that neither can change without the other. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { ERROR_CODES, INTERNAL } from "../src/failure.js";

// dist/test/errors.test.js -> the repository's docs/
const PROTOCOL_DOC = fileURLToPath(new URL("../../../../docs/adapter-protocol.md", import.meta.url));

/** The spec's codes the page lists for a result's `error`, and the one it adds for an implementation that failed. */
function documentedCodes(): { spec: string[]; internal: string } {
  const text = readFileSync(PROTOCOL_DOC, "utf8").split(/\s+/).join(" ");
  const found = /`code` is one of the spec's codes \(([^)]*)\), or `(\w+)`/.exec(text);
  assert.ok(found, `${PROTOCOL_DOC} no longer lists the error codes as this test reads them`);
  return { spec: Array.from(found[1]!.matchAll(/`(\w+)`/g), (m) => m[1]!), internal: found[2]! };
}

test("the error codes are the protocol page's", () => {
  const { spec, internal } = documentedCodes();
  assert.deepEqual([...ERROR_CODES], spec);
  assert.equal(INTERNAL, internal);
});
