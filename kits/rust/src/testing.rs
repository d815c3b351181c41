//! Helpers for a team's own tests.
