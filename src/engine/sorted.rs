//! A small map kept as a vector sorted by key, for state keyed by a server
//! or a pair (a chooser and a server, or a chooser and a connection) of
//! which a run uses few: a binary search where a hash map would hash, and no hash
//! table's code in the browser's module. The choosers' columns keyed by
//! server (`chooser/by_server.rs`) and the features' own maps keep it.

/// Values by key, in key order.
pub(in crate::engine) struct Sorted<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for Sorted<K, V> {
    fn default() -> Sorted<K, V> {
        Sorted { entries: Vec::new() }
    }
}

impl<K: Ord + Copy, V> Sorted<K, V> {
    fn find(&self, key: K) -> Result<usize, usize> {
        self.entries.binary_search_by_key(&key, |&(k, _)| k)
    }

    pub fn get(&self, key: K) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: K) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// The value at `key`, made by `make` if there is none.
    pub fn entry(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = self.find(key).unwrap_or_else(|at| {
            self.entries.insert(at, (key, make()));
            at
        });
        &mut self.entries[i].1
    }

    pub fn insert(&mut self, key: K, value: V) {
        match self.find(key) {
            Ok(i) => self.entries[i].1 = value,
            Err(at) => self.entries.insert(at, (key, value)),
        }
    }

    pub fn remove(&mut self, key: K) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// Forgets every entry, keeping the room they took.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Every entry, in key order, to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> {
        self.entries.iter_mut().map(|(key, value)| (*key, value))
    }

    /// The entries from `key` on, in key order.
    pub fn from(&self, key: K) -> impl Iterator<Item = (K, &V)> {
        let at = self.entries.partition_point(|&(k, _)| k < key);
        self.entries[at..].iter().map(|(key, value)| (*key, value))
    }

    /// Forgets every entry `keep` refuses.
    pub fn retain(&mut self, mut keep: impl FnMut(K, &V) -> bool) {
        self.entries.retain(|(key, value)| keep(*key, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_values_whatever_order_they_come_in() {
        let mut map = Sorted::default();
        for (key, value) in [((2, 1), 'a'), ((0, 5), 'b'), ((2, 0), 'c'), ((0, 5), 'd')] {
            map.insert(key, value);
        }
        assert_eq!((map.get((0, 5)), map.get((2, 0)), map.get((2, 1))), (Some(&'d'), Some(&'c'), Some(&'a')));
        assert_eq!(map.get((1, 0)), None);
        assert_eq!(map.remove((2, 0)), Some('c'));
        assert_eq!((map.get((2, 0)), map.get((2, 1))), (None, Some(&'a')));
        *map.entry((1, 1), || 'e') = 'f';
        assert_eq!(map.get((1, 1)), Some(&'f'));
    }
}
