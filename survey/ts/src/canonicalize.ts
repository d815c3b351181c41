/** npm canonicalize (RFC 8785, by one of its authors): canonicalize(value). */
import canonicalize from "canonicalize";
import { serveLibrary } from "./worker.js";

await serveLibrary("canonicalize", (v) => canonicalize(v));
