/**
 * What a value the implementation throws becomes (docs/adapter-protocol.md,
 * "results" and "Version 4: A failure's type and place"): a value with one
 * of the spec's codes ({@link SpecError}, or any error with such a `code`)
 * is that spec error's result; anything else is an `internal` result, a
 * finding against the implementation, which says what failed
 * (`error_type`) and where (`frames`, read from the V8 stack trace), so
 * that the driver buckets it by its type and place, never by its message.
 */
import { fileURLToPath } from "node:url";

/**
 * The spec's error codes, which a worker's results compare: the kit's one
 * table of them, in the order of docs/adapter-protocol.md (results), which
 * test/errors.test.ts holds it to.
 */
export const ERROR_CODES = ["too_deep", "non_string_key", "lone_surrogate", "duplicate_key", "unsupported_value", "bad_envelope"] as const;

/** One of the spec's error codes. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code of a case the implementation itself failed on (it threw anything else): a finding against it, not a spec answer. */
export const INTERNAL = "internal";

const SPEC_CODES: ReadonlySet<unknown> = new Set<ErrorCode>(ERROR_CODES);

/**
 * Thrown by the function to answer the spec's error `code` for the case
 * (the same name in every kit). Any thrown value with such a `code`
 * property does the same, so that an implementation's own error type needs
 * no dependency on the kit (adapters/ts's CanonicalError is one).
 */
export class SpecError extends Error {
  override readonly name = "SpecError";
  readonly code: ErrorCode;

  /** Throws a TypeError for a code that is not one of {@link ERROR_CODES}: that would be an `internal` result, not the answer meant. */
  constructor(code: ErrorCode, message?: string) {
    super(message ?? code);
    if (!SPEC_CODES.has(code)) throw new TypeError(`not a spec error code: ${JSON.stringify(code)}`);
    this.code = code;
  }
}

/** The spec code of a thrown value, if it carries one. */
export function specCode(e: unknown): ErrorCode | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  return SPEC_CODES.has(code) ? (code as ErrorCode) : undefined;
}

/** Where a failure was raised: one frame, as version 4's `frames` carry it. */
export interface Frame {
  /** As the runtime gives it (a `file:` URL for an ES module); "" for a V8 builtin or a run of Node's own frames. */
  file: string;
  /** "" for top-level code. */
  function: string;
  /** 0 when unknown (a builtin, a run of Node's own frames). */
  line: number;
}

/** The `internal` result of a thrown value. */
export interface InternalResult {
  error: typeof INTERNAL;
  message: string;
  error_type: string;
  frames?: Frame[];
}

/** At most this many frames are sent, innermost first (the protocol's cap). */
export const MAX_FRAMES = 8;

/**
 * The stack trace depth of an internal case's second run (see
 * {@link internalResult}). Deep enough that a run of Node's own frames
 * (which becomes one frame) or a recursion's cycle cannot push the
 * implementation's frames out of the trace; the kit's frames, the
 * outermost, are past them and never take their place.
 */
export const FRAMES_WINDOW = 64;

/**
 * The `internal` result of a case whose function threw `first`. While it
 * handles a request the kit captures no stack traces (serve.ts, "handle"),
 * so `rerun` runs the case again with a {@link FRAMES_WINDOW}-deep trace
 * and returns what it threw (undefined if it threw nothing): its frames
 * are the result's, if it failed alike (the same type, no spec code).
 * `anonymous` says the function the kit called has no name of its own: its
 * frame is then named by its file and line alone ({@link framesOf}).
 */
export function internalResult(first: unknown, rerun: () => unknown, anonymous = false): InternalResult {
  const type = errorType(first);
  const result: InternalResult = { error: INTERNAL, message: messageOf(first), error_type: type };
  if (!(first instanceof Error)) return result; // nothing else has a stack
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = FRAMES_WINDOW;
  let again: unknown;
  try {
    again = rerun();
  } finally {
    Error.stackTraceLimit = limit;
  }
  if (again instanceof Error && specCode(again) === undefined && errorType(again) === type) {
    const frames = framesOf(again, anonymous);
    if (frames.length > 0) result.frames = frames;
  }
  return result;
}

/** The failure's type in JavaScript's words: an Error's `name` (`SyntaxError`, `RangeError`), else what `typeof` says (`string`), `null` for null. */
export function errorType(e: unknown): string {
  if (!(e instanceof Error)) return e === null ? "null" : typeof e;
  const name: unknown = e.name;
  if (typeof name === "string" && name !== "") return name;
  const constructor: unknown = e.constructor; // absent on an error made with Object.create
  return typeof constructor === "function" && constructor.name !== "" ? constructor.name : "Error";
}

/** The message for people: an Error's first line as its stack has it (`TypeError: boom`), else the thrown value as text. */
function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message === "" ? errorType(e) : `${errorType(e)}: ${e.message}`;
  try {
    return typeof e === "string" ? e : String(e);
  } catch {
    return `a thrown ${errorType(e)}`; // an object with no toString (Object.create(null))
  }
}

/** True for V8's RangeError of a stack overflow. */
function isStackOverflow(e: Error): boolean {
  return e.name === "RangeError" && e.message === "Maximum call stack size exceeded";
}

/**
 * The frames of an error's stack trace that are the implementation's,
 * innermost first, at most {@link MAX_FRAMES}: the trace ends at the first
 * frame of the kit (the caller of the function); a run of Node's own
 * frames (files `node:...`) and V8 builtins (`JSON.parse (<anonymous>)`)
 * becomes one frame, its entry point, with file "" and line 0, when it was
 * entered from the implementation's code, or when the implementation has no
 * frame of its own (the function is a builtin). A stack overflow's frames
 * are those of the recursion instead ({@link recursion}). When the function
 * the kit called is `anonymous` (an arrow function passed to serve, whose
 * `name` is ""), its frame, the one the kit called, has function "": V8
 * names it by what it can infer (`serve.name`, `Object.<anonymous>`), which
 * says where it was passed, not what it is, and the driver names such a
 * frame by its file and line.
 */
export function framesOf(e: Error, anonymous = false): Frame[] {
  const frames = ownFrames(parseStack(e), isStackOverflow(e) ? FRAMES_WINDOW : MAX_FRAMES, anonymous);
  if (isStackOverflow(e)) {
    const cycle = recursion(frames);
    if (cycle.length > 0) return cycle.slice(0, MAX_FRAMES);
  }
  return frames.slice(0, MAX_FRAMES);
}

/** A frame of a stack trace, and whether it is Node's or V8's own (a builtin, or a `node:` file). */
interface TraceFrame extends Frame {
  std: boolean;
}

/** The implementation's frames of a trace, up to `max` (see {@link framesOf}). */
function ownFrames(trace: TraceFrame[], max: number, anonymous: boolean): Frame[] {
  const out: Frame[] = [];
  let entry: TraceFrame | undefined; // the outermost frame so far of a run of std frames
  let last: Frame | undefined; // the frame pushed for the trace's previous frame
  for (const f of trace) {
    if (isKitFile(f.file)) {
      if (anonymous && last !== undefined) last.function = ""; // the frame the kit called
      break;
    }
    if (out.length === max) break;
    last = undefined;
    if (f.std) {
      entry = f;
      continue;
    }
    if (entry !== undefined) out.push(entryFrame(entry));
    entry = undefined;
    if (out.length < max) out.push((last = { file: f.file, function: f.function, line: f.line }));
  }
  if (entry !== undefined && out.length === 0) out.push(entryFrame(entry));
  return out;
}

function entryFrame(f: TraceFrame): Frame {
  return { file: "", function: f.function, line: 0 };
}

/**
 * A stack overflow's frames: those its trace holds twice or more (the
 * recursion; a helper it overflowed in shows once), each once, in the
 * order of file, line and function. The overflow strikes wherever the
 * stack runs out, at any point of the cycle and in any helper, so the
 * innermost frames differ from run to run (and as V8 optimizes the
 * functions, which changes their frames' size); the set of the cycle's
 * frames does not.
 */
function recursion(frames: Frame[]): Frame[] {
  const seen = new Map<string, { frame: Frame; count: number }>();
  for (const frame of frames) {
    const key = `${frame.file}\n${frame.line}\n${frame.function}`;
    const entry = seen.get(key);
    if (entry === undefined) seen.set(key, { frame, count: 1 });
    else entry.count++;
  }
  return [...seen.values()]
    .filter(({ count }) => count >= 2)
    .map(({ frame }) => frame)
    .sort(compareFrames);
}

function compareFrames(a: Frame, b: Frame): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  return a.function < b.function ? -1 : a.function > b.function ? 1 : 0;
}

/**
 * One frame line of a V8 stack trace: `    at fn (location)` or `    at
 * location`; a method called by another name has ` [as name]` after its
 * own, which is left out (the caller's name for it is not its place).
 */
const AT = /^ {4}at (?:(.+?)(?: \[as [^\]]*\])? \((.*)\)|(.*))$/;
/** A location with a position: `file:line:column`. */
const POSITION = /^(.*):(\d+):\d+$/;

/**
 * The frames of a V8 stack trace, innermost first. The trace's first line
 * is the error's `name: message`, and a message may hold lines of its own
 * (a JSON.parse message quotes the input): when the trace starts with that
 * text, the frames are read after it.
 */
export function parseStack(e: Error): TraceFrame[] {
  let stack: unknown;
  try {
    stack = e.stack;
  } catch {
    return []; // a getter that throws
  }
  if (typeof stack !== "string") return [];
  const header = messageOf(e);
  const lines = (stack.startsWith(header) ? stack.slice(header.length) : stack).split("\n");
  const frames: TraceFrame[] = [];
  for (const line of lines) {
    const m = AT.exec(line);
    if (m === null) continue;
    const location = m[2] ?? m[3]!;
    const at = POSITION.exec(location);
    const file = at === null ? "" : at[1]!;
    frames.push({ file, function: m[1] ?? "", line: at === null ? 0 : Number(at[2]), std: at === null || file.startsWith("node:") });
  }
  return frames;
}

/** The folder of the kit's own modules, as a URL and as a path (as a stack trace may give either). */
const KIT_URL = new URL(".", import.meta.url).href;
const KIT_PATH = fileURLToPath(KIT_URL);

function isKitFile(file: string): boolean {
  return file.startsWith(KIT_URL) || file.startsWith(KIT_PATH);
}
