/**
 * A str's bytes to its text, strictly: bytes that are not UTF-8 are an
 * {@link InvalidUtf8}, a leading U+FEFF is kept, and each length takes the
 * fastest way there (short ASCII built directly, long text through ICU).
 * Ext 2's UTF-16LE payload to a string, lone surrogates kept.
 */
import nodeBuffer, { isAscii, isUtf8 } from "node:buffer";
import { InvalidUtf8 } from "./exact.js";

/** UTF-16LE code units to a string, lone surrogates preserved (TextDecoder would replace them). */
export function utf16le(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString("utf16le");
}

/** ICU's transcoding; undefined in a Node built without ICU (read from the module object, not imported by name, for that reason). */
const transcode: typeof nodeBuffer.transcode | undefined = nodeBuffer.transcode;

// ignoreBOM: a key or string may start with U+FEFF, which must survive; the
// default would strip it (difffuzz found this: seed 1, key "\ufeff").
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A str's text, or an {@link InvalidUtf8} for bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string | InvalidUtf8 {
  if (end - start <= SHORT_ASCII) {
    const text = shortAscii(bytes, start, end);
    if (text !== undefined) return text;
  }
  const slice = bytes.subarray(start, end);
  if (end - start >= LONG_TEXT && transcode !== undefined) return decodeLong(slice);
  try {
    return utf8.decode(slice);
  } catch {
    return new InvalidUtf8(slice);
  }
}

/** From this many bytes on, a str is decoded by {@link decodeLong}. */
const LONG_TEXT = 1024;

/**
 * A long str's text. TextDecoder (V8's UTF-8 decoding, about 3 ns a byte of
 * non-ASCII text) loses to a vectorised UTF-8 check followed by ICU's
 * conversion to UTF-16, by two to ten times past a kilobyte, and to a
 * Latin-1 copy for ASCII text. The check comes first, so ICU only ever
 * converts valid UTF-8 (which it does exactly: no replacement, and a leading
 * U+FEFF is kept, as the tests check).
 */
function decodeLong(slice: Uint8Array): string | InvalidUtf8 {
  if (!isUtf8(slice)) return new InvalidUtf8(slice);
  const buffer = Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength);
  if (isAscii(slice)) return buffer.toString("latin1");
  return transcode!(buffer, "utf8", "utf16le").toString("utf16le");
}

/** Up to this many bytes, ASCII text is built directly (most keys and many values). */
export const SHORT_ASCII = 24;

/**
 * The text of short all-ASCII bytes, else undefined. A TextDecoder call (and
 * the subarray it needs) costs more than the whole decode of a short key.
 * The string is made in one call, without the garbage of a string per
 * character added (spelled out up to 8 characters, most keys).
 */
export function shortAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return undefined;
  const b = bytes;
  const s = start;
  switch (end - start) {
    case 0:
      return "";
    case 1:
      return fromCharCode(b[s]!);
    case 2:
      return fromCharCode(b[s]!, b[s + 1]!);
    case 3:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!);
    case 4:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!);
    case 5:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!);
    case 6:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
    case 7:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!);
    case 8:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!);
  }
  const codes = SCRATCH[end - start]!;
  for (let i = start; i < end; i++) codes[i - start] = bytes[i]!;
  return fromCharCode(...codes);
}

const fromCharCode = String.fromCharCode;

/** One array of each length up to SHORT_ASCII, reused to hold character codes. */
const SCRATCH: number[][] = Array.from({ length: SHORT_ASCII + 1 }, (_, n) => new Array<number>(n).fill(0));
