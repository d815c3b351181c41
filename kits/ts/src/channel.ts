/**
 * Where the protocol runs (docs/adapter-protocol.md, "Process"): on the two
 * descriptors the driver offers in DIFFFUZZ_FDS, so that whatever the
 * implementation prints (console.log included) is only the worker's log, or
 * on stdin and stdout when it offers none (a driver of protocol 2, a test).
 */
import { Socket } from "node:net";

/** The environment variable of the offer: "3,4", the request and response descriptors. */
export const FDS_ENV = "DIFFFUZZ_FDS";

/** The hello's protocol version on stdin and stdout. */
export const PROTOCOL = 2;

/**
 * The hello's protocol version on the offered descriptors: version 2's
 * messages on a channel of their own (3), with an internal result's
 * `error_type` and `frames` and the text model's cases as JSON text (4).
 */
export const FD_PROTOCOL = 4;

/** A channel to serve on. */
export interface Channel {
  input: AsyncIterable<Uint8Array>;
  output: NodeJS.WritableStream;
  /** The hello's protocol version there. */
  protocol: number;
  /** Ends the output once the last response is written (the standard streams are left alone). */
  close(): void;
}

/**
 * The channel the driver offers, else stdin and stdout. A malformed offer
 * throws rather than falling back to stdout, where the implementation's
 * prints would break the frames.
 */
export function channel(env: NodeJS.ProcessEnv = process.env): Channel {
  const offer = env[FDS_ENV] ?? "";
  if (offer === "") {
    return { input: process.stdin, output: process.stdout, protocol: PROTOCOL, close: () => {} };
  }
  const fds = offer.split(",").map((s) => (/^[0-9]+$/.test(s) ? Number(s) : NaN));
  if (fds.length !== 2 || fds.some((fd) => !Number.isSafeInteger(fd))) {
    throw new Error(`${FDS_ENV}=${JSON.stringify(offer)}: want two descriptors, as "3,4"`);
  }
  const input = new Socket({ fd: fds[0]!, readable: true, writable: false });
  const output = new Socket({ fd: fds[1]!, readable: false, writable: true });
  return { input, output, protocol: FD_PROTOCOL, close: () => output.end() };
}
