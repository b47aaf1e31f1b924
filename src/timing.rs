//! CPU time of the calling thread, the clock of the exact solver's speed figures
//! (`benches/solver.rs` and `sudoku-lens count`): on a shared machine wall time counts every
//! other process's turn on the core, while a thread's CPU time counts only its own work, so
//! the two figures stay comparable under load.
//!
//! Owns no measurement policy (what is timed, how often): callers take differences.

use std::time::Duration;

/// CPU time the calling thread has used so far (Linux and other Unix systems), or, elsewhere,
/// the wall time since the first call; only differences between two calls mean anything.
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec that lives through the call, and
    // CLOCK_THREAD_CPUTIME_ID is supported by every Unix the crate builds on; on failure the
    // call leaves `ts` at zero, which only makes a figure meaningless, never unsound.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}

/// Wall time since the first call (no per-thread CPU clock on this platform).
#[cfg(not(unix))]
pub fn thread_cpu_time() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_grows_with_work_and_not_with_sleep() {
        let t0 = thread_cpu_time();
        let mut x = 0u64;
        let spin = std::time::Instant::now();
        while spin.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let t1 = thread_cpu_time();
        assert!(t1 > t0, "no CPU time counted for 30 ms of work");
        std::thread::sleep(Duration::from_millis(50));
        let t2 = thread_cpu_time();
        #[cfg(unix)]
        assert!(
            t2 - t1 < Duration::from_millis(25),
            "sleeping counted as CPU time"
        );
        let _ = t2;
    }
}
