//! What the survey's Rust workers share: the version of each library as
//! Cargo.lock resolved it (read from the lockfile at build time), so the page names the
//! version that ran.

/// The locked version of crate `name`, or "unknown".
pub fn version_of(name: &str) -> &'static str {
    let lock = include_str!("../Cargo.lock");
    let mut found = false;
    for line in lock.lines() {
        if line == format!("name = \"{name}\"") {
            found = true;
        } else if found {
            if let Some(v) = line.strip_prefix("version = \"") {
                return v.trim_end_matches('"');
            }
        }
    }
    "unknown"
}
