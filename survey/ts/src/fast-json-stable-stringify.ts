/** npm fast-json-stable-stringify: stringify(value) with sorted keys. */
import stringify from "fast-json-stable-stringify";
import { serveLibrary } from "./worker.js";

await serveLibrary("fast-json-stable-stringify", (v) => stringify(v));
