//! Work spread over the machine's cores, results kept in order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work(i)` for every `i` in `0..count`, on up to `cores` threads taking
/// the next index as they finish; the results in index order.
pub fn map_on_cores<T: Send>(count: usize, cores: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..cores.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    break;
                }
                let result = work(index);
                results.lock().expect("a worker thread panicked")[index] = Some(result);
            });
        }
    });
    results.into_inner().expect("a worker thread panicked").into_iter().flatten().collect()
}

/// The cores this machine offers (1 when it cannot say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_order_whatever_the_threads() {
        for cores in [1, 2, 7] {
            assert_eq!(map_on_cores(5, cores, |i| i * i), vec![0, 1, 4, 9, 16]);
        }
        assert!(map_on_cores(0, 2, |i| i).is_empty());
    }
}
