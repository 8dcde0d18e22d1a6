//! A server's waiting requests: a FIFO per priority level, served by strict,
//! non-preemptive priority (the highest level first; FIFO within a level).
//!
//! Every queued request has the same timeout, so within a level the oldest
//! is always first to expire; the server's next expiry is the earliest of
//! the levels' fronts. The first (highest) level is kept in place and the
//! others behind one pointer, so that a server of a scenario without
//! priorities still fills one cache line.

use super::flight::Flight;
use std::collections::VecDeque;

#[derive(Default)]
pub struct Queue {
    first: VecDeque<Flight>,
    /// Levels below the first; `None` with one level.
    lower: Option<Box<Lower>>,
}

/// The levels below the first, highest first, behind a thin pointer (and
/// out of the way of a server without priorities).
struct Lower(Vec<VecDeque<Flight>>);

impl Lower {
    #[cold]
    fn push(&mut self, level: usize, id: Flight) {
        let last = self.0.len() - 1;
        self.0[level.min(last)].push_back(id);
    }

    #[cold]
    fn pop_next(&mut self) -> Option<Flight> {
        self.0.iter_mut().find_map(VecDeque::pop_front)
    }

    #[cold]
    fn len(&self) -> usize {
        self.0.iter().map(VecDeque::len).sum()
    }
}

impl Queue {
    /// An empty queue with `levels` priority levels (at least one).
    pub fn new(levels: usize) -> Queue {
        let lower = (levels > 1).then(|| Box::new(Lower(vec![VecDeque::new(); levels - 1])));
        Queue { first: VecDeque::new(), lower }
    }

    fn level(&self, level: usize) -> Option<&VecDeque<Flight>> {
        match level {
            0 => Some(&self.first),
            _ => self.lower.as_ref()?.0.get(level - 1),
        }
    }

    fn level_mut(&mut self, level: usize) -> Option<&mut VecDeque<Flight>> {
        match level {
            0 => Some(&mut self.first),
            _ => self.lower.as_mut()?.0.get_mut(level - 1),
        }
    }

    pub fn levels(&self) -> usize {
        1 + self.lower.as_ref().map_or(0, |lower| lower.0.len())
    }

    /// Adds `id` at the back of `level` (the last level if there is no such one).
    #[inline]
    pub fn push(&mut self, level: usize, id: Flight) {
        match self.lower.as_mut() {
            Some(lower) if level > 0 => lower.push(level - 1, id),
            _ => self.first.push_back(id),
        }
    }

    /// Takes the next request to serve: the oldest of the highest level
    /// holding any.
    #[inline]
    pub fn pop_next(&mut self) -> Option<Flight> {
        match self.first.pop_front() {
            Some(id) => Some(id),
            None => self.lower.as_mut()?.pop_next(),
        }
    }

    /// The oldest request of `level`.
    pub fn front(&self, level: usize) -> Option<Flight> {
        self.level(level)?.front().copied()
    }

    pub fn pop_front(&mut self, level: usize) -> Option<Flight> {
        self.level_mut(level)?.pop_front()
    }

    /// The oldest request of each level that holds any, highest level first.
    pub fn fronts(&self) -> impl Iterator<Item = Flight> + '_ {
        (0..self.levels()).filter_map(|level| self.front(level))
    }

    /// Takes `id` out from wherever it waits; false if it is not here.
    pub fn remove(&mut self, id: Flight) -> bool {
        (0..self.levels()).any(|level| {
            let Some(queue) = self.level_mut(level) else { return false };
            match queue.iter().position(|&queued| queued == id) {
                Some(place) => queue.remove(place).is_some(),
                None => false,
            }
        })
    }

    /// Every waiting request in the order it will be served: the highest
    /// level's oldest first.
    pub fn in_order(&self) -> impl Iterator<Item = Flight> + '_ {
        let lower = self.lower.iter().flat_map(|lower| lower.0.iter().flatten());
        self.first.iter().chain(lower).copied()
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.first.len() + self.lower.as_ref().map_or(0, |lower| lower.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn higher_levels_first_fifo_within_a_level() {
        let mut q = Queue::new(3);
        for (level, id) in [(2, 1), (0, 2), (1, 3), (0, 4), (2, 5), (7, 6)] {
            q.push(level, Flight::request(id));
        }
        assert_eq!(q.len(), 6);
        assert!(!q.is_empty());
        assert!(q.remove(Flight::request(5)));
        assert!(!q.remove(Flight::request(5)));
        assert_eq!(q.fronts().filter_map(Flight::place).collect::<Vec<_>>(), vec![2, 3, 1]);
        let listed: Vec<u32> = q.in_order().filter_map(Flight::place).collect();
        let order: Vec<u32> = std::iter::from_fn(|| q.pop_next()).filter_map(Flight::place).collect();
        // Level 7 does not exist: its request joins the lowest level.
        assert_eq!(order, vec![2, 4, 3, 1, 6]);
        assert_eq!(listed, order, "listed in the order served");
        assert!(q.is_empty());
    }

    #[test]
    fn one_level_is_a_plain_fifo() {
        let mut q = Queue::new(1);
        let (first, second) = (Flight::request(1), Flight::attempt(1));
        q.push(0, first);
        q.push(3, second);
        assert_eq!(
            (q.levels(), q.front(0), q.pop_front(0), q.pop_next()),
            (1, Some(first), Some(first), Some(second))
        );
    }
}
