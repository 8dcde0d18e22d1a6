//! Sorting off the hot paths, through one shared instance of the standard
//! library's stable sort.
//!
//! Each element type and comparison a `slice::sort*` call is made for gets a
//! copy of the standard sort of its own, several kilobytes of WebAssembly
//! each; the browser module carried sixteen. Here the standard sort orders
//! positions (`usize`) through a comparison it calls by reference, so every
//! caller shares one copy and adds only the few hundred bytes that move its
//! elements into place. The result is the stable sort's: elements that
//! compare equal keep their order, so a caller that sorted unstably on a key
//! that ties only between equal elements gets exactly what it got before.
//! The cost is an allocation and an indirect call per comparison, two to
//! three times the standard sort's time: the event wheel and the load
//! chart's busiest-first order (every event, every frame, into a buffer
//! kept so as not to allocate), and a hash ring, which can hold millions of
//! points, keep their own.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let order = sorted_positions(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` stably by `key`, as `slice::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in ascending order, as `slice::sort` does.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions `0..len` in the order `compare` sorts them (stably).
fn sorted_positions(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Moves the element at `order[i]` to place `i`, for every `i`, following
/// each cycle of the permutation with swaps (and marking each place done by
/// pointing it at itself).
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut place = start;
        loop {
            let from = std::mem::replace(&mut order[place], place);
            if from == start || from == place {
                break;
            }
            items.swap(place, from);
            place = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_stable_sort_does() {
        use crate::rng::{Draw, SimRng};
        let mut rng = SimRng::new(4);
        for len in [0, 1, 2, 3, 7, 20, 257, 1_000] {
            let items: Vec<(u32, u32)> =
                (0..len).map(|i| (rng.index(1 + len / 3) as u32, i as u32)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|&(key, _)| key);
            let mut sorted = items.clone();
            sort_by_key(&mut sorted, |&(key, _)| key);
            assert_eq!(sorted, expected, "length {len}");
            let mut descending = items;
            sort_by(&mut descending, |a, b| b.0.cmp(&a.0));
            expected.sort_by_key(|b| std::cmp::Reverse(b.0));
            assert_eq!(descending, expected, "length {len}, descending");
        }
    }

    #[test]
    fn sorts_by_hand_computed_cases() {
        let mut words = ["pear", "apple", "fig", "apple"];
        sort(&mut words);
        assert_eq!(words, ["apple", "apple", "fig", "pear"]);
        // Stable: equal keys (lengths) keep their order.
        let mut by_length = ["ccc", "a", "bb", "d", "ee"];
        sort_by_key(&mut by_length, |w| w.len());
        assert_eq!(by_length, ["a", "d", "bb", "ee", "ccc"]);
    }
}
