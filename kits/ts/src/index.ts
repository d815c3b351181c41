/**
 * The difffuzz worker kit for TypeScript: `serve(fn, options)` runs the
 * whole adapter protocol (docs/adapter-protocol.md) around a function from a
 * case to its canonical bytes. See README.md.
 */
export { serve, textReasons, type Outcome, type Signed, type ServeOptions, type ExactWorker, type NativeWorker, type TextWorker, type WorkerInfo } from "./serve.js";
export { SpecError, ERROR_CODES, INTERNAL, MAX_FRAMES, type ErrorCode, type Frame } from "./failure.js";
export { channel, PROTOCOL, FD_PROTOCOL, FDS_ENV, type Channel } from "./channel.js";
export { ExactObject, InvalidUtf8, UnknownExt, EXT_BIGINT, EXT_UTF16, type ExactMember, type ExactOptions } from "./model.js";
export { WireDecoder, type DecoderOptions, type ItemSink, type SinkChooser } from "./decode.js";
export { toNative, nativeReasons, Inexpressible, MAX_WIRE_DEPTH, type NativeValue, type Reason } from "./native.js";
export { FrameReader, FrameLengthError, MAX_FRAME, encodeFrame } from "./frames.js";
