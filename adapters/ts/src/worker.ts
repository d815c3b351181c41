/**
 * The difffuzz worker of this library (docs/adapter-protocol.md): the worker
 * kit's protocol loop over canonicalBytes, in the exact model, with maps
 * decoded straight into JsonObjects. Run as `node dist/src/worker.js`.
 */
import { serve } from "@difffuzz/kit";
import { JsonObject, canonicalBytes } from "./canonical.js";

await serve(canonicalBytes, {
  name: "canonjson-ts",
  version: "0.1.0",
  model: "exact",
  object: (members) => new JsonObject(members),
});
