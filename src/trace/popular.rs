//! The most requested keys of a stream, in bounded memory: Space-Saving
//! (Metwally, Agrawal and El Abbadi, "Efficient computation of frequent and
//! top-k elements in data streams", 2005).
//!
//! It keeps [`KEY_COUNTERS`] counters. While there are no more distinct
//! keys than counters, every count is exact. After that, a new key takes
//! the smallest counter over and counts on from it, remembering that count
//! as its possible overcount: any key requested more than total / counters
//! times is certainly kept, and no count is ever under its true value.
//!
//! Keys are told apart as a replay tells them apart, by [`key_number`]:
//! the text shown for a key is the first met.

use super::replay::key_number;
use std::collections::{BTreeSet, HashMap};

/// How many keys are counted at once: 4,096 (a few hundred KB).
pub const KEY_COUNTERS: usize = 4096;

#[derive(Clone, Debug)]
struct Counter {
    key: String,
    number: u64,
    count: u64,
    overcount: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Popular {
    counters: Vec<Counter>,
    /// Each key's counter, by its number.
    index: HashMap<u64, usize>,
    /// The counters by count, the smallest first (ties by position, so the
    /// counter taken over is the same on every run).
    by_count: BTreeSet<(u64, usize)>,
    total: u64,
    replaced: bool,
}

impl Popular {
    pub fn add(&mut self, key: &str) {
        self.total += 1;
        let number = key_number(key);
        if let Some(&at) = self.index.get(&number) {
            let counter = &mut self.counters[at];
            self.by_count.remove(&(counter.count, at));
            counter.count += 1;
            self.by_count.insert((counter.count, at));
        } else if self.counters.len() < KEY_COUNTERS {
            let at = self.counters.len();
            self.counters.push(Counter { key: key.to_string(), number, count: 1, overcount: 0 });
            self.index.insert(number, at);
            self.by_count.insert((1, at));
        } else if let Some((least, at)) = self.by_count.pop_first() {
            self.replaced = true;
            self.index.remove(&self.counters[at].number);
            self.counters[at] = Counter { key: key.to_string(), number, count: least + 1, overcount: least };
            self.index.insert(number, at);
            self.by_count.insert((least + 1, at));
        }
    }

    /// Keys counted, with or without repeats.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether every count is exact: no key was ever dropped for another.
    pub fn exact(&self) -> bool {
        !self.replaced
    }

    /// The distinct keys seen: exact when [`exact`](Self::exact), else at least this.
    pub fn distinct(&self) -> usize {
        self.counters.len()
    }

    /// The `n` most requested keys, most first (ties by key), each with its
    /// count and how much that count may be over the truth.
    pub fn top(&self, n: usize) -> Vec<(&str, u64, u64)> {
        let mut top: Vec<_> = self.counters.iter().map(|c| (c.key.as_str(), c.count, c.overcount)).collect();
        top.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        top.truncate(n);
        top
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_exactly_while_the_counters_last() {
        let mut popular = Popular::default();
        for key in ["a", "b", "a", "c", "a", "b"] {
            popular.add(key);
        }
        assert_eq!(popular.top(2), vec![("a", 3, 0), ("b", 2, 0)]);
        assert!(popular.exact());
        assert_eq!((popular.distinct(), popular.total()), (3, 6));
    }

    #[test]
    fn keys_are_one_when_a_replay_takes_them_as_one() {
        let mut popular = Popular::default();
        for key in ["7", "007", "+7", "07", "7"] {
            popular.add(key);
        }
        assert_eq!(popular.top(2), vec![("7", 2, 0), ("+7", 1, 0)]);
        assert_eq!(popular.distinct(), 4);
    }

    #[test]
    fn keeps_a_heavy_key_among_many_light_ones() {
        let mut popular = Popular::default();
        for i in 0..100_000u32 {
            let cold = format!("cold{i}");
            popular.add(if i % 4 == 0 { "hot" } else { &cold });
            popular.add(&format!("also cold{i}"));
        }
        assert!(!popular.exact());
        let (key, count, overcount) = popular.top(1)[0];
        assert_eq!(key, "hot");
        // Never under the truth (25,000), and over it by at most total / counters.
        assert!(count >= 25_000 && count - overcount <= 25_000, "{count} {overcount}");
        assert!(overcount <= popular.total() / KEY_COUNTERS as u64);
        assert_eq!(popular.distinct(), KEY_COUNTERS);
    }
}
