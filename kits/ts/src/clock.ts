/**
 * The CPU clock behind a batch's `batch_cpu_ns` (docs/adapter-protocol.md).
 */

/**
 * Charges each batch the process's CPU from the moment the worker began to
 * wait for it until its results are ready, less the kit's own work on the
 * way (framing), which {@link BatchClock.exclude} runs.
 *
 * The wait is counted because V8 does much of a batch's collecting while
 * the worker waits: on its helper threads, and in tasks between events.
 * That is the cost of the values the implementation made, and an
 * in-process loop over the implementation (the bench's isolated timing)
 * pays it too; timing `handle` alone left it, about 2 µs a case, to the
 * harness. A worker waiting for input spends nothing else: what its event
 * loop spends reading the input (the stream's callbacks, the async
 * iteration) is the one piece of the kit's work left inside, about 0.4 µs
 * a case (1.3% of the batches' time) by a CPU profile of a fuzzing run.
 */
export class BatchClock {
  private since = process.cpuUsage();
  private excluded = 0;

  /** Marks the start of a wait for input: the next batch is charged from here. */
  wait(): void {
    this.since = process.cpuUsage();
    this.excluded = 0;
  }

  /** Runs the kit's own work, which no batch is charged for. */
  exclude<T>(work: () => T): T {
    const start = process.cpuUsage();
    try {
      return work();
    } finally {
      this.excluded += cpuNs(process.cpuUsage(start));
    }
  }

  /** The CPU charged to the batch so far, in nanoseconds: at least 1, since 0 means "not said". */
  charged(): number {
    return Math.max(cpuNs(process.cpuUsage(this.since)) - this.excluded, 1);
  }
}

/** A process.cpuUsage difference in nanoseconds (user and system, every thread). */
export function cpuNs(used: NodeJS.CpuUsage): number {
  return (used.user + used.system) * 1000;
}
