//! Catching a panic of the implementation (or of its model), and where it
//! was raised: the place a protocol 4 result names in its `frames`
//! (docs/adapter-protocol.md, "A failure's type and place").
//!
//! The place is the panic's `Location`, which a panic hook sees and
//! `catch_unwind` does not: the `panic!` itself, or the caller of a
//! `#[track_caller]` function (`unwrap`, `expect`, slice indexing), which
//! is the implementation's own line. The function around that line is the
//! place's name, by which the driver keys a crash (three `unwrap`s of one
//! function are one place, as three raises of one Python function are):
//! its only source, a captured `std::backtrace::Backtrace`, costs about 1.5
//! ms to render (measured on the 2-core build host, release build), against
//! about 7 µs for the unwind itself and 10 to 14 µs for a whole panicking
//! case through this hook, and a fuzzed implementation may panic on every
//! case; so it is rendered once a `Location`, and remembered. It is found
//! when the build has line tables (`debug = "line-tables-only"` in the
//! release profile, or more): the backtrace frame at the `Location`'s file
//! and line, inlined or not, names it. Without them it is unknown (""),
//! and the driver keys the place by its line.
//!
//! The kit installs its hook once per process, over whatever hook was there
//! (the default one prints the message). Outside [`catch`] the hook hands
//! every panic to that previous hook unchanged. Inside it the hook records
//! the place and prints the first [`PRINTED`] panics of the process through
//! the previous hook, then one line saying that it stops: a case that
//! panics may be fuzzed a million times, and the worker's log is a bounded
//! tail the driver keeps for crashes.

use std::any::Any;
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, Once};

/// Caught panics the previous hook still prints, per process.
pub(crate) const PRINTED: u32 = 3;

static INSTALL: Once = Once::new();
/// Caught panics so far, per process.
static CAUGHT: AtomicU32 = AtomicU32::new(0);
/// The function of each place seen, by file and line: rendered once.
static FUNCTIONS: Mutex<Option<HashMap<(String, u32), String>>> = Mutex::new(None);

thread_local! {
    /// Whether this thread is inside [`catch`].
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// Where the last panic inside [`catch`] on this thread was raised.
    static PLACE: RefCell<Option<Place>> = const { RefCell::new(None) };
}

/// Where a panic was raised in the implementation's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    /// As the compiler gave it (`src/lib.rs`, or an absolute path for a
    /// dependency).
    pub(crate) file: String,
    pub(crate) line: u32,
    /// The function around the line, as the backtrace names it
    /// (`sdk::canonical`); "" when the build has no line tables.
    pub(crate) function: String,
}

/// A caught panic.
#[derive(Debug)]
pub(crate) struct Panic {
    /// `panic: ` and the payload's text.
    pub(crate) message: String,
    /// None when the panic was raised in the kit itself or in the standard
    /// library, neither of which is the implementation's place.
    pub(crate) place: Option<Place>,
}

/// Runs `f`, turning a panic into a [`Panic`] with its place.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, Panic> {
    install();
    PLACE.with_borrow_mut(Option::take);
    let outer = GUARDED.replace(true);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.set(outer);
    result.map_err(|payload| Panic {
        message: panic_text(payload.as_ref()),
        place: PLACE.with_borrow_mut(Option::take),
    })
}

/// Installs the kit's hook over the one in place, once per process.
fn install() {
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !GUARDED.try_with(Cell::get).unwrap_or(false) {
                return previous(info);
            }
            let place = place(info);
            let _ = PLACE.try_with(|p| *p.borrow_mut() = place);
            let caught = CAUGHT.fetch_add(1, Ordering::Relaxed);
            if caught < PRINTED {
                previous(info);
            } else if caught == PRINTED {
                eprintln!(
                    "difffuzz-kit: {PRINTED} panics caught in cases printed; \
                     the rest are each their case's internal result only"
                );
            }
        }));
    });
}

/// The panic's place, unless it is the kit's own code or the standard
/// library's.
fn place(info: &PanicHookInfo<'_>) -> Option<Place> {
    let location = info.location()?;
    let file = location.file();
    if is_kit(file) || is_std(file) {
        return None;
    }
    Some(Place {
        file: file.to_owned(),
        line: location.line(),
        function: function_at(file, location.line()),
    })
}

/// The function whose code holds `file`'s `line`, from a backtrace of the
/// panic rendered the first time the place is seen.
fn function_at(file: &str, line: u32) -> String {
    let key = (file.to_owned(), line);
    let mut seen = FUNCTIONS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let seen = seen.get_or_insert_with(HashMap::new);
    if let Some(name) = seen.get(&key) {
        return name.clone();
    }
    let name = frame_function(&Backtrace::force_capture().to_string(), file, line);
    seen.insert(key, name.clone());
    name
}

/// The function of the frame of a rendered backtrace that is at `file`'s
/// `line` ("  3: sdk::canonical" over "at ./src/lib.rs:13:35"), without its
/// hash; "" when no frame is.
fn frame_function(rendered: &str, file: &str, line: u32) -> String {
    let mut function = "";
    for text in rendered.lines().map(str::trim) {
        if let Some(at) = text.strip_prefix("at ") {
            if at_place(at, file, line) {
                return without_hash(function).to_owned();
            }
        } else if let Some((index, name)) = text.split_once(": ") {
            if index.chars().all(|c| c.is_ascii_digit()) {
                function = name;
            }
        }
    }
    String::new()
}

/// Whether a backtrace's `path:line:column` is `file`'s `line`: the path
/// ends with `file`, which the compiler gives relative to the crate.
fn at_place(at: &str, file: &str, line: u32) -> bool {
    let mut parts = at.rsplitn(3, ':');
    let (_column, at_line, path) = (parts.next(), parts.next(), parts.next());
    let (Some(at_line), Some(path)) = (at_line, path) else {
        return false;
    };
    let path = path.replace('\\', "/");
    let file = file.replace('\\', "/");
    at_line.parse() == Ok(line) && (path == file || path.ends_with(&format!("/{file}")))
}

/// A symbol without the legacy mangling's hash (`::h0123456789abcdef`).
fn without_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => {
            head
        }
        _ => name,
    }
}

/// A file of this crate's `src/`, spelled as the compiler spells this one.
fn is_kit(file: &str) -> bool {
    let this = file!();
    let src = &this[..this.len() - "panics.rs".len()];
    file.starts_with(src)
}

/// A file of the standard library, as rustc records it (`/rustc/<commit>/
/// library/core/src/...`, or a local toolchain's `library/` folder).
fn is_std(file: &str) -> bool {
    file.starts_with("/rustc/")
        || [
            "/library/core/src/",
            "/library/alloc/src/",
            "/library/std/src/",
        ]
        .iter()
        .any(|lib| file.contains(lib))
}

/// `panic: ` and the text of a panic's payload.
pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-text panic payload");
    format!("panic: {text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guard's path from a panic payload to an `internal` message.
    #[test]
    fn panic_payloads_become_text() {
        let texts: Vec<String> = [
            Box::new("boom") as Box<dyn Any + Send>,
            Box::new(format!("{} {}", "formatted", 1)),
            Box::new(7u8),
        ]
        .iter()
        .map(|payload| panic_text(payload.as_ref()))
        .collect();
        assert_eq!(
            texts,
            [
                "panic: boom",
                "panic: formatted 1",
                "panic: non-text panic payload"
            ]
        );
    }

    #[test]
    fn the_kit_and_the_standard_library_are_no_place() {
        for (file, kit, std) in [
            (file!(), true, false),
            ("src/serve.rs", true, false),
            ("tests/serve.rs", false, false),
            (
                "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/option.rs",
                false,
                true,
            ),
            (
                "/home/me/.rustup/toolchains/x/lib/rustlib/src/rust/library/alloc/src/vec/mod.rs",
                false,
                true,
            ),
            (
                "/home/me/.cargo/registry/src/index/serde_json-1.0.154/src/ser.rs",
                false,
                false,
            ),
        ] {
            assert_eq!((is_kit(file), is_std(file)), (kit, std), "{file}");
        }
    }

    /// A place's function is read from the backtrace frame at its line,
    /// inlined or not, without its hash.
    #[test]
    fn a_place_is_named_by_its_frame() {
        let rendered = "   0: std::backtrace::Backtrace::force_capture
             at /rustc/abc/library/std/src/backtrace.rs:312:13
   1: difffuzz_kit::panics::install::{{closure}}
             at ./src/panics.rs:90:27
   2: core::option::unwrap_failed
             at /rustc/abc/library/core/src/option.rs:2015:5
   3: sdk::canonical::h0123456789abcdef
             at /home/me/sdk/src/lib.rs:14:44
   4: sdk::canonical_text
             at /home/me/sdk/src/lib.rs:26:5
   5: main
";
        for (file, line, want) in [
            ("src/lib.rs", 14, "sdk::canonical"),
            ("src/lib.rs", 26, "sdk::canonical_text"),
            ("src/lib.rs", 15, ""),
            ("lib.rs", 14, "sdk::canonical"),
            ("src/other.rs", 14, ""),
        ] {
            assert_eq!(frame_function(rendered, file, line), want, "{file}:{line}");
        }
        assert_eq!(frame_function("   0: main\n", "src/lib.rs", 1), "");
    }

    /// A panic in this file is the kit's own, so it has no place (the
    /// implementation's places are tested in tests/serve.rs); an inner guard
    /// catches its own panic and leaves the outer one guarding.
    #[test]
    fn guards_nest() {
        let inner = catch(|| catch(|| "".parse::<u8>().unwrap()).map(|_| ()));
        assert!(
            matches!(inner, Ok(Err(Panic { place: None, .. }))),
            "{inner:?}"
        );
        let outer = catch(|| panic!("outer")).unwrap_err();
        assert_eq!(outer.message, "panic: outer");
        assert!(!GUARDED.get(), "the guard is left set");
    }
}
