//! The kit's public names are docs/your-sdk.md's, "The kits' vocabulary":
//! what the table's Rust column names, and what those names need (the
//! hello `serve` takes, the traits and types of its signature and of
//! `Model`'s), and nothing more. The protocol's machinery (frames, the
//! channel, the decoder) is private; lib.rs's `compile_fail` examples show
//! that it cannot be named, and `__private`, hidden from the docs, is for
//! the kit's and the project's own tests.
//!
//! A name added to the crate's root fails `the_crate_exports_the_vocabulary`
//! until it is added here, and to the table when a team calls it.

// Each public name, used: the crate must export every one of them.
#[cfg(feature = "serde_json")]
#[allow(unused_imports)]
use difffuzz_kit::Native;
#[allow(unused_imports)]
use difffuzz_kit::{
    serve, testing, Built, CaseError, ErrorCode, Hello, Inexpressible, Input, JsonText, Model,
    ModelKind, Output, Reason, Signed, SpecError, Text,
};

/// Every public name of the crate's root, and why it is there: `table`
/// for a name the vocabulary's Rust column says, else what needs it.
const NAMES: [(&str, &str); 17] = [
    ("serve", "table"),
    ("Model", "table"),
    ("Native", "table"),
    ("Text", "table"),
    ("SpecError", "table"),
    ("ErrorCode", "table"),
    ("Signed", "table"),
    ("Inexpressible", "table"),
    ("testing", "table"),
    ("Hello", "serve's first argument"),
    ("Input", "serve's bound on its model (Model or Text)"),
    ("Output", "serve's bound on what the function returns"),
    (
        "CaseError",
        "the kit's answer to an error, for a function that fails in more than one way",
    ),
    ("JsonText", "what the function takes in the text model"),
    ("Built", "what Model's methods return"),
    ("Reason", "Model::INEXPRESSIBLE and Inexpressible's reason"),
    ("ModelKind", "Model::KIND"),
];

/// The Rust column of the vocabulary's table, one cell a line.
fn rust_column() -> String {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/your-sdk.md"
    ))
    .expect("read docs/your-sdk.md");
    let section = page
        .split("\n## The kits' vocabulary\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/your-sdk.md has no section \"The kits' vocabulary\"");
    let rows: Vec<Vec<String>> = section
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| {
            line.replace("\\|", "/")
                .split('|')
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect();
    let column = rows[0]
        .iter()
        .position(|cell| cell.starts_with("Rust"))
        .expect("the table has no Rust column");
    rows[2..]
        .iter()
        .map(|row| row[column].clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names lib.rs makes public at the crate's root: its items and
/// re-exports at the start of a line, `__private` aside.
fn exported() -> Vec<String> {
    let lib = include_str!("../src/lib.rs");
    let mut names = Vec::new();
    for line in lib.lines() {
        let Some(item) = line.strip_prefix("pub ") else {
            continue;
        };
        if let Some(used) = item.strip_prefix("use ") {
            let used = used.trim_end_matches(';');
            let list = match used.split_once('{') {
                Some((_, list)) => list.trim_end_matches('}').to_owned(),
                None => used.rsplit("::").next().unwrap_or_default().to_owned(),
            };
            names.extend(list.split(',').map(|n| n.trim().to_owned()));
        } else {
            let mut words = item.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            let _kind = words.next();
            names.extend(words.find(|w| !w.is_empty()).map(str::to_owned));
        }
    }
    names.retain(|n| n != "__private" && !n.is_empty());
    names.sort();
    names
}

#[test]
fn the_crate_exports_the_vocabulary() {
    let mut want: Vec<String> = NAMES.iter().map(|(n, _)| n.to_string()).collect();
    want.sort();
    assert_eq!(exported(), want, "src/lib.rs's public names");
}

#[test]
fn the_tables_rust_column_names_the_kits_names() {
    let column = rust_column();
    let words: Vec<&str> = column
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    for (name, why) in NAMES {
        if why == "table" {
            assert!(
                words.contains(&name),
                "docs/your-sdk.md's Rust column does not say {name}:\n{column}"
            );
        }
    }
}
