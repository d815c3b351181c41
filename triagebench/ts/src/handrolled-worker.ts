/** handrolled.ts as a difffuzz worker in the native model: `node dist/src/handrolled-worker.js`. */
import { serve } from "@difffuzz/kit";
import { canonical } from "./handrolled.js";

await serve(canonical, { name: "ts-handrolled", version: "0.1.0", model: "native", bigint: true });
