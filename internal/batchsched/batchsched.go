// Package batchsched runs difffuzz as the batch job it is: the driver and
// every worker process it starts get the kernel's batch scheduling policy.
//
// A run keeps more processes runnable than there are cores (a lane per
// core, each with a worker process per language), so under the default
// policy a worker that wakes up (its batch arrived) preempts the one
// running, which loses its caches halfway through a batch. SCHED_BATCH
// makes a waking process wait for the running one's time slice instead
// (on 2 cores, less CPU a case and more cases a second:
// docs/performance.md). It also yields to interactive programs, which keep the
// default policy, so a long fuzzing job on a laptop is the better
// neighbour.
package batchsched

// Enter gives this process's threads the batch policy. Threads and child
// processes inherit it from the thread that makes them, so every thread
// the runtime starts later, and every worker, has it too. It reports
// whether it could; where the system has no such policy it does nothing.
func Enter() bool { return enter() }
