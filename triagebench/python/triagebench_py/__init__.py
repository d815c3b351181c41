"""Canonical JSON written the way hand-rolled SDK code is written, bugs and
all, for difffuzz's triage benchmark (docs/triage.md, "Triage benchmark").

Each module is one implementation: a ``canonical(value)`` function for the
native model and a ``canonical_text(text)`` one for the text model, as an SDK
would have them, and a ``main`` that serves one of them on the worker kit
(``python -m triagebench_py.MODULE native|text``). The bugs each one has are
listed, with the label difffuzz should give them, in
``triagebench/impls/NAME.toml``; these modules do not know about them.
"""
