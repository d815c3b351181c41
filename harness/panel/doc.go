// Package panel is a panel of implementations: one started instance of
// every adapter of a run, asked the same cases at once and judged together.
// It is the one place where the engine talks to implementations, so
// everything that needs an answer from them goes through it: the fuzzing
// loop's batches (Run, with its digest-only first pass, the re-ask with text
// and the drifts between the two), the one-shot commands' judged cases
// (Judge), minimization of a finding and of a collision's pair (Minimize,
// MinimizePair), a sequence of calls on a fresh panel (ShrinkSequence), the
// family probes that name a cause (Family), and the corpus entries that
// record what each said (Entry).
//
// A run fuzzes on several lanes at once, each lane a panel of its own; the
// survey and the one-shot commands use a single panel. A panel owns its
// adapters' restart policy: a worker that fails a batch is restarted and
// the batch re-run case by case (isolate), so that the case that broke it is
// found and the rest are still answered. The reference is adapter 0 (the
// caller orders the specs so): the truth the others are judged against.
//
// One goroutine drives a panel; within a call, its adapters work in
// parallel.
package panel
