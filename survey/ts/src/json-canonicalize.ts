/** npm json-canonicalize (RFC 8785): canonicalize(value). */
import { canonicalize } from "json-canonicalize";
import { serveLibrary } from "./worker.js";

await serveLibrary("json-canonicalize", (v) => canonicalize(v));
