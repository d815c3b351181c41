/**
 * The package's names against docs/your-sdk.md, "The kits' vocabulary": the
 * entry exports exactly the TypeScript column of the table (its values and
 * types), and the types a team needs to type its call (docs/your-sdk.md,
 * "The kits' options", TypeScript); package.json's `exports` resolves the
 * entry and `./testing` only, so the protocol's insides are not importable.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import ts from "typescript";
import * as kit from "../src/index.js";
import type { ModelName, Signed } from "../src/index.js";

// dist/test/vocabulary.test.js -> the repository's docs/ and the kit's own files
const SDK_DOC = fileURLToPath(new URL("../../../../docs/your-sdk.md", import.meta.url));
const ENTRY = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
const PACKAGE = fileURLToPath(new URL("../../package.json", import.meta.url));

/** The TypeScript column's spans (in backticks), row by row, as the table has them. */
const TABLE_COLUMN = [
  ["@difffuzz/kit"],
  ["serve(fn, options)"],
  [],
  ['model: "exact" \\| "native" \\| "text"'],
  [],
  ["ExactObject"],
  ["new SpecError(code, message)"],
  ["ErrorCode"],
  ["internal"],
  ["{ canonical, digest }", "Signed"],
  ["Inexpressible"],
  ["@difffuzz/kit/testing"],
];

/** The runtime values the table names. */
const VALUES = ["ExactObject", "Inexpressible", "SpecError", "serve"];

/** The types the table names (`model`'s union is ModelName). */
const TABLE_TYPES = ["ErrorCode", "ModelName", "Signed"];

/**
 * The types a team types its call and its function with (docs/your-sdk.md,
 * "The kits' options", TypeScript): the options of each model, what the
 * function gets and returns, and what an Inexpressible carries.
 */
const OPTION_TYPES = ["ExactMember", "ExactWorker", "NativeValue", "NativeWorker", "Outcome", "Reason", "ServeOptions", "TextWorker", "WorkerInfo"];

/** The TypeScript column of the vocabulary table: each row's spans in backticks. */
function documentedColumn(): string[][] {
  const text = readFileSync(SDK_DOC, "utf8");
  const start = text.indexOf("## The kits' vocabulary");
  assert.ok(start >= 0, `${SDK_DOC} has no section "The kits' vocabulary"`);
  const lines = text.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const end = lines.findIndex((line, i) => i > first && !line.startsWith("|"));
  const section = lines.slice(first, end).filter((line) => !line.startsWith("|---"));
  return section.map((row) => {
    // Cells split on a "|" not escaped as "\|".
    const cells = row.split(/(?<!\\)\|/).map((cell) => cell.trim());
    return Array.from(cells[3]!.matchAll(/`([^`]*)`/g), (m) => m[1]!);
  });
}

/** Every name the entry exports, values and types, as the compiler sees them. */
function exportedNames(): string[] {
  // No lib and no @types: the names are all this needs, and those take seconds to read.
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, noLib: true, types: [] };
  const program = ts.createProgram([ENTRY], options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(ENTRY);
  assert.ok(source, `${ENTRY} not read`);
  const module = checker.getSymbolAtLocation(source);
  assert.ok(module, `${ENTRY} is not a module`);
  return checker.getExportsOfModule(module).map((symbol) => symbol.name).sort();
}

test("the table's TypeScript column is the one this test holds the kit to", () => {
  assert.deepEqual(documentedColumn(), TABLE_COLUMN);
});

test("the entry's values are the table's", () => {
  assert.deepEqual(Object.keys(kit).sort(), VALUES);
});

test("the entry's names are the table's and the options' types, nothing protocol-internal", () => {
  assert.deepEqual(exportedNames(), [...VALUES, ...TABLE_TYPES, ...OPTION_TYPES].sort());
});

test("Signed is { canonical, digest }; the models are exact, native and text", () => {
  type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
  const fields: Same<keyof Signed, "canonical" | "digest"> = true;
  const models: Same<ModelName, "exact" | "native" | "text"> = true;
  assert.ok(fields && models);
});

test("package.json exports the entry and ./testing only", async () => {
  const pkg = JSON.parse(readFileSync(PACKAGE, "utf8")) as { exports: Record<string, unknown> };
  assert.deepEqual(Object.keys(pkg.exports), [".", "./testing"]);
  const internal: string = "@difffuzz/kit/dist/src/decode.js";
  await assert.rejects(import(internal), (e: unknown) => (e as { code?: unknown }).code === "ERR_PACKAGE_PATH_NOT_EXPORTED");
  const self: string = "@difffuzz/kit";
  const entry = (await import(self)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(entry).sort(), VALUES);
});
