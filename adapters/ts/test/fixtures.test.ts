/**
 * The golden fixtures (tests/fixtures/canonical-json-fuzz/*.jsonl): every
 * line's "msgpack" case, decoded as the worker gets it (the kit's exactCase), must give the line's
 * canonical text and signature, or its error code. A folder without fixture
 * files fails: a fixture test that checks nothing must not pass.
 * CANONJSON_FIXTURES overrides the folder (for trying other fixture sets).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { exactCase } from "@difffuzz/kit/testing";
import { CanonicalError, JsonObject, canonical, signature } from "../src/canonical.js";
import { firstDifference } from "./support.js";

const DIR =
  process.env["CANONJSON_FIXTURES"] ??
  fileURLToPath(new URL("../../../../tests/fixtures/canonical-json-fuzz/", import.meta.url));

/** How many failures one file reports in full (the count is always given). */
const SHOWN = 20;

interface Fixture {
  category: string;
  /** null for cases extended JSON cannot express (non-string keys, bin, ...): "msgpack" is the case. */
  input: string | null;
  msgpack: string;
  canonical?: string;
  signature?: string;
  error?: string;
}

function fixtureFiles(): string[] {
  let names: string[];
  try {
    names = readdirSync(DIR);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith(".jsonl")).sort();
}

/** Why one fixture line fails, or undefined when it passes. */
function check(fixture: Fixture): string | undefined {
  let text: string;
  let sig: string;
  try {
    const value = exactCase(Buffer.from(fixture.msgpack, "base64"), { object: (members) => new JsonObject(members) });
    text = canonical(value);
    sig = signature(value);
  } catch (e) {
    if (!(e instanceof CanonicalError)) return `threw ${e instanceof Error ? e.message : String(e)}`;
    if (fixture.error === undefined) return `got error ${e.code} (${e.message}), want canonical ${JSON.stringify(fixture.canonical)}`;
    return e.code === fixture.error ? undefined : `got error ${e.code}, want error ${fixture.error}`;
  }
  if (fixture.error !== undefined) return `got canonical ${JSON.stringify(text)}, want error ${fixture.error}`;
  if (text !== fixture.canonical) return `canonical text differs: ${firstDifference(text, fixture.canonical ?? "")}`;
  if (sig !== fixture.signature) return `signature ${sig}, want ${String(fixture.signature)}`;
  return undefined;
}

/** The contract canonical() follows: the fixtures must be written for it. */
const FIXTURE_CONTRACT = "difffuzz";

/**
 * The case lines of a fixture file, as [index, line], after its header line
 * {"contract": NAME}; throws unless NAME is FIXTURE_CONTRACT, since fixtures
 * of another contract would hold canonical() to the wrong answers.
 */
function fixtureCases(name: string, text: string): Array<[number, string]> {
  const lines = text
    .split("\n")
    .map((line, index): [number, string] => [index, line])
    .filter(([, line]) => line.trim() !== "");
  const [head, ...cases] = lines;
  if (head === undefined) return [];
  let contract: unknown;
  try {
    contract = (JSON.parse(head[1]) as { contract?: unknown }).contract;
  } catch {
    contract = undefined;
  }
  const where = `${name}:${head[0] + 1}`;
  if (typeof contract !== "string") {
    throw new Error(
      `${where}: want the header line {"contract": "${FIXTURE_CONTRACT}"} first (fixtures written before contracts? make fixtures regenerates them)`,
    );
  }
  if (contract !== FIXTURE_CONTRACT) {
    throw new Error(`${where}: fixtures of contract "${contract}", but these tests hold canonical() to contract "${FIXTURE_CONTRACT}"`);
  }
  return cases;
}

test("a fixture file of another contract, or without its header, fails with why", () => {
  const line = '{"category":"c","input":"1","msgpack":"AQ==","error":"bad_envelope"}';
  assert.deepEqual(fixtureCases("x.jsonl", `{"contract": "difffuzz"}\n${line}\n`), [[1, line]]);
  assert.throws(
    () => fixtureCases("x.jsonl", `{"contract": "rfc8785"}\n${line}\n`),
    /^Error: x\.jsonl:1: fixtures of contract "rfc8785", but these tests hold canonical\(\) to contract "difffuzz"$/,
  );
  assert.throws(() => fixtureCases("x.jsonl", `${line}\n`), /x\.jsonl:1: want the header line \{"contract": "difffuzz"\} first/);
});

function parseLine(line: string): Fixture {
  const raw: unknown = JSON.parse(line);
  const f = raw as Partial<Fixture>;
  const strings = (...keys: Array<keyof Fixture>) => keys.every((k) => typeof f[k] === "string");
  const inputOk = typeof f.input === "string" || f.input === null;
  if (!inputOk || !strings("category", "msgpack") || !(strings("canonical", "signature") !== strings("error"))) {
    throw new Error("not a fixture line (category, input, msgpack and canonical+signature or error)");
  }
  return raw as Fixture;
}

const files = fixtureFiles();

test(`fixture files exist in ${DIR}`, () => {
  assert.ok(files.length > 0, `no *.jsonl fixture files in ${DIR}`);
});

for (const name of files) {
  test(`fixtures ${name}`, () => {
    const cases = fixtureCases(name, readFileSync(join(DIR, name), "utf8"));
    const failures: string[] = [];
    let checked = 0;
    cases.forEach(([index, line]) => {
      let where = `${name}:${index + 1}`;
      let reason: string | undefined;
      try {
        const fixture = parseLine(line);
        where += ` [${fixture.category}] input ${abbreviate(fixture.input)}`;
        reason = check(fixture);
      } catch (e) {
        reason = e instanceof Error ? e.message : String(e);
      }
      checked++;
      if (reason !== undefined) failures.push(`${where}: ${reason}`);
    });
    assert.ok(checked > 0, `${name} holds no fixture lines`);
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${checked} fixtures in ${name} fail (by category: ${countCategories(failures)}):\n` +
        failures.slice(0, SHOWN).join("\n"),
    );
  });
}

function countCategories(failures: string[]): string {
  const counts = new Map<string, number>();
  for (const f of failures) {
    const category = /\[([^\]]*)\]/.exec(f)?.[1] ?? "unparsed";
    counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  return [...counts].map(([c, n]) => `${c} ${n}`).join(", ");
}

function abbreviate(s: string | null): string {
  if (s === null) return "(wire only)";
  return s.length <= 80 ? s : s.slice(0, 77) + "...";
}
