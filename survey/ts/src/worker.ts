/**
 * What every survey worker shares: the library's version from its own
 * package.json (so the page names the version that ran), and serving a
 * stringify function on the kit in the native model. A library that
 * returns no text (undefined) has failed on the case: that is an
 * `internal` result, as an exception is.
 */
import { readFileSync } from "node:fs";
import { serve, type NativeValue } from "@difffuzz/kit";

/** The installed version of npm package `pkg`. */
export function versionOf(pkg: string): string {
  const url = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

/** Serves `stringify` as the worker of npm package `pkg`. */
export async function serveLibrary(pkg: string, stringify: (value: NativeValue) => string | undefined): Promise<void> {
  await serve(
    (value) => {
      const text = stringify(value);
      if (typeof text !== "string") throw new Error(`${pkg} returned ${String(text)}`);
      return text;
    },
    { name: pkg, version: versionOf(pkg), model: "native" },
  );
}
