/** npm safe-stable-stringify: its default stringify, which sorts keys. */
import stringify from "safe-stable-stringify";
import { serveLibrary } from "./worker.js";

await serveLibrary("safe-stable-stringify", (v) => stringify(v));
