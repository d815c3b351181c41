/** npm json-stable-stringify: stringify(value) with sorted keys. */
import stringify from "json-stable-stringify";
import { serveLibrary } from "./worker.js";

await serveLibrary("json-stable-stringify", (v) => stringify(v));
