//! [`Mailbox`]: a bounded channel of capacity one that keeps only the newest value.
//!
//! Producers (the capture thread) [`Mailbox::put`] every frame; a value not yet taken is
//! replaced, so a slow consumer always gets the freshest frame and never a backlog. Consumers
//! poll with [`Mailbox::take`] (the UI) or block with [`Mailbox::wait_take`] (the scan worker).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// A single-slot, newest-wins channel shared between threads (wrap it in an `Arc`).
#[derive(Debug)]
pub struct Mailbox<T> {
    slot: Mutex<Option<T>>,
    ready: Condvar,
    dropped: AtomicU64,
    closed: AtomicBool,
}

impl<T> Default for Mailbox<T> {
    fn default() -> Self {
        Mailbox::new()
    }
}

impl<T> Mailbox<T> {
    /// An empty, open mailbox.
    pub fn new() -> Mailbox<T> {
        Mailbox {
            slot: Mutex::new(None),
            ready: Condvar::new(),
            dropped: AtomicU64::new(0),
            closed: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<T>> {
        // A panic while holding this lock cannot leave the slot half-written (it is a plain
        // `Option` swap), so a poisoned lock is still safe to use.
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores `value`, replacing (and dropping) a value nobody took yet. Returns whether a stale
    /// value was dropped.
    pub fn put(&self, value: T) -> bool {
        let stale = self.lock().replace(value).is_some();
        if stale {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        self.ready.notify_all();
        stale
    }

    /// Takes the newest value, if any, without blocking.
    pub fn take(&self) -> Option<T> {
        self.lock().take()
    }

    /// Takes the newest value, waiting up to `timeout` for one. `None` on timeout or when the
    /// mailbox is closed and empty.
    pub fn wait_take(&self, timeout: Duration) -> Option<T> {
        let guard = self.lock();
        let (mut guard, _) = self
            .ready
            .wait_timeout_while(guard, timeout, |slot| {
                slot.is_none() && !self.closed.load(Ordering::Acquire)
            })
            .unwrap_or_else(|e| e.into_inner());
        guard.take()
    }

    /// How many values were replaced before anyone took them (frames dropped as stale).
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Wakes every waiter for good: [`Mailbox::wait_take`] returns at once from now on.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.ready.notify_all();
    }

    /// Whether [`Mailbox::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn newest_value_wins_and_stale_ones_are_counted() {
        let m = Mailbox::new();
        assert!(!m.put(1));
        assert!(m.put(2));
        assert!(m.put(3));
        assert_eq!(m.dropped(), 2);
        assert_eq!(m.take(), Some(3));
        assert_eq!(m.take(), None);
    }

    #[test]
    fn waiter_wakes_on_put_and_on_close() {
        let m = Arc::new(Mailbox::new());
        let m2 = Arc::clone(&m);
        let t = std::thread::spawn(move || m2.wait_take(Duration::from_secs(10)));
        std::thread::sleep(Duration::from_millis(20));
        m.put(7u32);
        assert_eq!(t.join().ok().flatten(), Some(7));

        let m3 = Arc::clone(&m);
        let t = std::thread::spawn(move || m3.wait_take(Duration::from_secs(10)));
        std::thread::sleep(Duration::from_millis(20));
        m.close();
        assert_eq!(t.join().ok().flatten(), None);
    }
}
