//! One column of what a chooser knows, read by pool position. The engine
//! keeps a chooser's entries in slots that never move while its pool
//! changes (`engine/chooser/table.rs`), and the pool holds each position's
//! slot; a policy reads `column[position]` as if the entries stood in pool
//! order.

use std::ops::Index;

/// A chooser's entries of one column, read by pool position.
#[derive(Clone, Copy)]
pub struct Column<'a, T> {
    /// The chooser's entries, by slot.
    entries: &'a [T],
    /// Each pool position's slot; `None`: the position itself.
    slots: Option<&'a [u32]>,
}

impl<'a, T> Column<'a, T> {
    /// `entries` by slot, position `p` in slot `slots[p]` (`None`: in slot `p`).
    pub fn new(entries: &'a [T], slots: Option<&'a [u32]>) -> Column<'a, T> {
        Column { entries, slots }
    }

    /// `entries` in pool order.
    pub fn dense(entries: &'a [T]) -> Column<'a, T> {
        Column { entries, slots: None }
    }

    /// How many positions it reads: the pool's length, or 0 for a column
    /// not kept (the work with one request class, the round trips of a
    /// policy that does not time them).
    pub fn len(&self) -> usize {
        match self.slots {
            _ if self.entries.is_empty() => 0,
            None => self.entries.len(),
            Some(slots) => slots.len(),
        }
    }

    /// Whether the column is not kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `position`, if the column is kept.
    #[inline]
    pub fn get(&self, position: usize) -> Option<&'a T> {
        match self.slots {
            None => self.entries.get(position),
            Some(slots) => self.entries.get(*slots.get(position)? as usize),
        }
    }
}

impl<T> Default for Column<'_, T> {
    /// A column not kept.
    fn default() -> Self {
        Column { entries: &[], slots: None }
    }
}

impl<T> Index<usize> for Column<'_, T> {
    type Output = T;

    #[inline]
    fn index(&self, position: usize) -> &T {
        match self.slots {
            None => &self.entries[position],
            Some(slots) => &self.entries[slots[position] as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_reads_its_slot() {
        let entries = [10, 11, 12, 13];
        let column = Column::new(&entries, Some(&[3, 0, 2]));
        assert_eq!((column[0], column[1], column[2]), (13, 10, 12));
        assert_eq!((column.get(1), column.get(3), column.len()), (Some(&10), None, 3));
        let dense = Column::dense(&entries[..2]);
        assert_eq!((dense[1], dense.get(2), dense.len()), (11, None, 2));
        let not_kept: Column<u32> = Column::new(&[], Some(&[1, 0]));
        assert_eq!((not_kept.get(0), not_kept.len(), not_kept.is_empty()), (None, 0, true));
    }
}
