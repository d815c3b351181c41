package wire

import (
	"errors"
	"fmt"
	"path"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// How an implementation's failure becomes a result (docs/adapter-protocol.md,
// "Version 4"): an error with a spec code is that code; any other error and
// any panic is an internal result, which says what failed (ErrorType) and,
// for a panic, where (Frames), so that the driver buckets it by type and
// place rather than by its message, which quotes the input. A driver of an
// older version ignores both fields.

// PanicType is the ErrorType of a panic, whatever its value: a panic's
// place tells apart what its value would (runtime.boundsError and a nil
// dereference at one line are one bug), and "panic" is what the Rust kit
// says too.
const PanicType = "panic"

// internalOnPanic, deferred, answers a panic of the implementation as an
// internal result: one case never stops a worker.
func internalOnPanic(r *Result) {
	if p := recover(); p != nil {
		*r = Result{Error: ErrorInternal, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack()),
			ErrorType: PanicType, Frames: panicFrames()}
	}
}

// errorResult is the result of fn's error: its spec code, found anywhere in
// its chain (Coder), or an internal result. A code that is not the spec's
// ("internal" included) is an internal result too, as in the other kits: the
// driver would not read it as an answer.
func errorResult(err error) Result {
	var c Coder
	if !errors.As(err, &c) {
		return Result{Error: ErrorInternal, Message: err.Error(), ErrorType: ErrorType(err)}
	}
	if code := c.ErrorCode(); !slices.Contains(SpecCodes, code) {
		return Result{Error: ErrorInternal, ErrorType: ErrorType(err),
			Message: fmt.Sprintf("not a spec error code %q: %v", code, err)}
	}
	return Result{Error: c.ErrorCode(), Message: err.Error()}
}

// ErrorType is what an error of the implementation says failed: the
// dynamic type (as %T prints it, "*json.SyntaxError") of the innermost
// error of its chain (errorChain: errors.Unwrap's, and on through an
// errors.Join or several %w) that is more than a message, that is
// not one of plainErrors; "" when every error of the chain is one of them,
// and the driver then buckets the failure by its message. A Go error
// carries no stack, so an error result has no frames.
func ErrorType(err error) string {
	typ := ""
	for _, e := range errorChain(err) {
		if t := fmt.Sprintf("%T", e); !plainErrors[t] {
			typ = t
		}
	}
	return typ
}

// plainErrors are the types of errors.New, fmt.Errorf (with one %w or
// several) and errors.Join: a message and nothing more, the same type for
// every failure of every library.
var plainErrors = map[string]bool{"*errors.errorString": true, "*fmt.wrapError": true,
	"*fmt.wrapErrors": true, "*errors.joinError": true}

// panicFrames is where the panic being recovered was raised, innermost
// first, in the implementation's own code (see keepFrames). It must be
// called from the deferred function that recovers, so that the panicking
// frames are still on the stack.
func panicFrames() []Frame {
	pcs := make([]uintptr, 64)
	// Past runtime.Callers, panicFrames and the deferred function: the
	// first frame is the runtime's panic, then the code that panicked.
	n := runtime.Callers(3, pcs)
	return keepFrames(runtime.CallersFrames(pcs[:n]))
}

// stackFrames is the iterator of runtime.Frames, so that keepFrames can be
// tested on made-up stacks.
type stackFrames interface {
	Next() (runtime.Frame, bool)
}

// keepFrames picks the implementation's frames of a stack, innermost
// first, at most MaxFrames: it drops the runtime's frames (the panic's
// own machinery), stops at the first frame of the kit or of this package
// (what called the implementation, and everything outside it), and keeps a run of standard
// library frames as one, the function the code above it called, with line
// 0 and file "", so that a failure inside encoding/json keeps its place
// without the library's internals.
func keepFrames(frames stackFrames) []Frame {
	var out []Frame
	inStd := false // the last kept frame is a run of the standard library
	// One frame past the cap: the last kept one is then final, a run of
	// the standard library having ended at the frame that entered it.
	for more := true; more && len(out) <= MaxFrames; {
		var f runtime.Frame
		f, more = frames.Next()
		pkg := packageOf(f.Function)
		if pkg == kitPackage || pkg == wirePackage {
			break // the kit called the implementation: the rest is outside it
		}
		switch {
		case isRuntime(pkg) || f.Function == "":
			continue
		case isStd(pkg):
			if inStd {
				out[len(out)-1].Function = f.Function // the run's entry so far
				continue
			}
			out, inStd = append(out, Frame{Function: f.Function}), true
		default:
			out, inStd = append(out, Frame{File: f.File, Function: f.Function, Line: f.Line}), false
		}
	}
	return out[:min(len(out), MaxFrames)]
}

// isRuntime reports whether pkg is the runtime's: the machinery of a panic
// (runtime.gopanic, runtime.panicIndex, a map's internals), never the
// implementation's place.
func isRuntime(pkg string) bool {
	return pkg == "runtime" || strings.HasPrefix(pkg, "runtime/") || strings.HasPrefix(pkg, "internal/runtime/")
}

// wirePackage is this package's import path, and kitPackage the kit's
// beside it, as their functions' names start: the kit's calls the
// implementation in a worker, this one's (Plain) in the driver's in-process
// adapter.
var (
	wirePackage = func() string {
		pc, _, _, _ := runtime.Caller(0)
		return packageOf(runtime.FuncForPC(pc).Name())
	}()
	kitPackage = path.Dir(wirePackage) + "/kit"
)

// packageOf is the import path of a function's name as the runtime gives
// it: "encoding/json" of "encoding/json.(*decodeState).object", "main" of
// "main.main.func1". The runtime escapes dots in a path's last element
// (gopkg.in/yaml%2ev3), so the path ends at the first dot after the last
// slash.
func packageOf(function string) string {
	slash := strings.LastIndexByte(function, '/')
	dot := strings.IndexByte(function[slash+1:], '.')
	if dot < 0 {
		return function
	}
	return function[:slash+1+dot]
}

// isStd reports whether pkg is the standard library's, by the usual rule:
// the first element of its path has no dot (a module's path starts with a
// domain name). Package main is the worker's own. A module named without a
// dot (module mysdk) reads as the standard library too, and its frames
// then collapse into one: give it a path with a domain.
func isStd(pkg string) bool {
	if pkg == "main" {
		return false
	}
	first, _, _ := strings.Cut(pkg, "/")
	return !strings.Contains(first, ".")
}
