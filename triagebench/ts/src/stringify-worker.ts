/** stringify.ts as a difffuzz worker in the text model: `node dist/src/stringify-worker.js`. */
import { serve } from "@difffuzz/kit";
import { canonicalText } from "./stringify.js";

await serve(canonicalText, { name: "ts-stringify", version: "0.1.0", model: "text" });
