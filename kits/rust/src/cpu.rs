//! The calling thread's CPU clock, for the bench's `cpu_ns`: std has only
//! wall clocks, and the bench loop runs on one thread, so this thread's CPU
//! time is the loop's alone, whatever else the host runs.

/// CPU time the calling thread has used, in nanoseconds.
pub fn thread_cpu_ns() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the timespec it is given, which lives
    // for the whole call.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        // Only a platform without per-thread clocks fails here; 0 makes the
        // bench's CPU figure 0, which no reader mistakes for a measurement.
        return 0;
    }
    let secs = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_thread_clock_advances_with_work() {
        let start = super::thread_cpu_ns();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(super::thread_cpu_ns() > start, "{x}");
    }
}
