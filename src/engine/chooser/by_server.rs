//! One column of what the choosers know, entry `(chooser, server)`, for
//! what a feature learns of the servers it acts on (see `table.rs`, "One
//! store keyed by server").
//! Keyed by the server's number rather than its place in the chooser's
//! pool, an entry stays what it is when the pool changes (an ejection, a
//! redraw, a membership change): nothing is moved, and a feature that
//! keeps one reads and writes it with the server a point names.
//!
//! Only the entries written are kept, each chooser's in a row sorted by
//! server: a feature learns of the servers it acts on (the ones that
//! erred, failed or were ejected, or FoundationDB's queue model those it
//! sent to), while a run may have 100,000 choosers each drawing 40 of
//! 10,000 servers, where a dense entry per chooser and server would be a
//! thousand million of them (a run of 2,000 such clients with ejection on
//! grew from 20 MB to 135 MB when it was dense). A read is a binary search
//! in its chooser's row, and an entry written moves at most the rest of
//! that row (a pool's worth), where one sorted vector of every chooser's
//! entries moved the rest of them all; an entry reset is gone, so the
//! column holds what the choosers know that is not fresh.

use crate::engine::sorted::Sorted;

/// What each chooser knows of each server, `fresh` where it has learned
/// nothing yet (or forgot it).
pub struct ByServer<T> {
    /// Row `chooser` holds that chooser's entries written, by server; rows
    /// reach only the last chooser written.
    rows: Vec<Sorted<u32, T>>,
    fresh: T,
}

impl<T: Copy> ByServer<T> {
    /// An empty column: every entry reads `fresh`.
    pub fn new(fresh: T) -> ByServer<T> {
        ByServer { rows: Vec::new(), fresh }
    }

    /// What `chooser` knows of `server`.
    #[inline]
    pub fn get(&self, chooser: usize, server: u32) -> T {
        self.rows.get(chooser).and_then(|row| row.get(server)).copied().unwrap_or(self.fresh)
    }

    /// What `chooser` knows of `server`, to change (written from fresh if
    /// it knew nothing).
    #[inline]
    pub fn get_mut(&mut self, chooser: usize, server: u32) -> &mut T {
        if self.rows.len() <= chooser {
            self.rows.resize_with(chooser + 1, Sorted::default);
        }
        let fresh = self.fresh;
        self.rows[chooser].entry(server, || fresh)
    }

    /// `chooser` forgets what it knew of `server`.
    pub fn reset(&mut self, chooser: usize, server: u32) {
        if let Some(row) = self.rows.get_mut(chooser) {
            row.remove(server);
        }
    }

    /// `chooser` forgets what it knew of every server.
    pub fn forget_row(&mut self, chooser: usize) {
        if let Some(row) = self.rows.get_mut(chooser) {
            row.clear();
        }
    }

    /// Every entry written, as `((chooser, server), entry)`, in order.
    pub fn each_mut(&mut self) -> impl Iterator<Item = ((usize, u32), &mut T)> {
        let rows = self.rows.iter_mut().enumerate();
        rows.flat_map(|(chooser, row)| row.iter_mut().map(move |(server, entry)| ((chooser, server), entry)))
    }

    /// `chooser`'s entries written, each as `(server, entry)`, in order.
    pub fn row(&self, chooser: usize) -> impl Iterator<Item = (u32, T)> + '_ {
        let row = self.rows.get(chooser).into_iter();
        row.flat_map(|row| row.from(0).map(|(server, &entry)| (server, entry)))
    }

    /// Forgets every entry `keep` refuses, given its chooser and server.
    pub fn retain(&mut self, mut keep: impl FnMut(usize, u32, T) -> bool) {
        for (chooser, row) in self.rows.iter_mut().enumerate() {
            row.retain(|server, &entry| keep(chooser, server, entry));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_fresh_until_written_and_after_it_is_reset() {
        let mut column = ByServer::new(0u32);
        assert_eq!(column.get(3, 7), 0);
        *column.get_mut(3, 7) += 2;
        assert_eq!((column.get(3, 7), column.get(2, 7), column.get(3, 6)), (2, 0, 0));
        column.reset(3, 7);
        assert_eq!(column.get(3, 7), 0);
        assert_eq!(column.each_mut().count(), 0, "a reset entry is gone");
    }

    #[test]
    fn a_column_holds_only_what_was_written_whatever_the_choosers_and_servers() {
        let mut column = ByServer::new(0u32);
        *column.get_mut(99_999, 9_999) = 7;
        *column.get_mut(0, 3) = 1;
        assert_eq!(column.each_mut().count(), 2);
        assert_eq!((column.get(99_999, 9_999), column.get(0, 3), column.get(5, 3)), (7, 1, 0));
    }

    #[test]
    fn a_server_added_keeps_every_choosers_entries_where_they_were() {
        let mut column = ByServer::new(0u32);
        for chooser in 0..3 {
            for server in 0..4 {
                *column.get_mut(chooser, server) = 10 * chooser as u32 + server;
            }
        }
        *column.get_mut(1, 9) = 99;
        for chooser in 0..3 {
            for server in 0..4 {
                assert_eq!(column.get(chooser, server), 10 * chooser as u32 + server);
            }
        }
        assert_eq!((column.get(1, 9), column.get(0, 9), column.get(2, 8)), (99, 0, 0));
        let seen: Vec<(usize, u32, u32)> =
            column.each_mut().filter(|(_, e)| **e > 0).map(|((c, s), e)| (c, s, *e)).collect();
        assert_eq!(seen.len(), 12);
        assert_eq!(seen.last(), Some(&(2, 3, 23)));
    }

    #[test]
    fn a_row_holds_its_choosers_entries_by_server_and_retain_and_forget_row_forget_the_rest() {
        let mut column = ByServer::new(None);
        assert_eq!(column.row(0).count(), 0);
        *column.get_mut(1, 2) = Some(5u32);
        *column.get_mut(0, 1) = Some(7);
        *column.get_mut(1, 0) = Some(3);
        let row: Vec<(u32, Option<u32>)> = column.row(1).collect();
        assert_eq!(row, [(0, Some(3)), (2, Some(5))]);
        assert_eq!(column.row(4).count(), 0);
        column.retain(|chooser, server, _| (chooser, server) != (1, 2));
        assert_eq!(column.row(1).collect::<Vec<_>>(), [(0, Some(3))]);
        assert_eq!(column.get(0, 1), Some(7));
        column.forget_row(1);
        column.forget_row(9);
        assert_eq!((column.row(1).count(), column.get(1, 0), column.get(0, 1)), (0, None, Some(7)));
    }
}
