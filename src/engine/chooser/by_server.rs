//! One column of what the choosers know, entry `(chooser, server)`: the
//! shape issue 40's store takes (see `table.rs`, "Where it is going").
//! Keyed by the server's number rather than its place in the chooser's
//! pool, an entry stays where it is when the pool changes (an ejection, a
//! redraw, a membership change): nothing is moved, and a feature that
//! keeps one reads and writes it with the server a point names.
//!
//! The entries lie chooser after chooser, `stride` (the servers the run
//! has had) to a chooser. A column is empty until first written, so a
//! feature that never learns anything costs nothing; a server added later
//! grows the stride once, when first written.

/// What each chooser knows of each server, `fresh` where it has learned
/// nothing yet.
#[derive(Clone, Debug)]
pub struct ByServer<T> {
    stride: usize,
    entries: Vec<T>,
    fresh: T,
}

impl<T: Copy> ByServer<T> {
    /// An empty column: every entry reads `fresh`.
    pub fn new(fresh: T) -> ByServer<T> {
        ByServer { stride: 0, entries: Vec::new(), fresh }
    }

    /// What `chooser` knows of `server`.
    #[inline]
    pub fn get(&self, chooser: usize, server: u32) -> T {
        let server = server as usize;
        if server >= self.stride {
            return self.fresh;
        }
        self.entries.get(chooser * self.stride + server).copied().unwrap_or(self.fresh)
    }

    /// What `chooser` knows of `server`, to change (the column grows to
    /// hold it).
    #[inline]
    pub fn get_mut(&mut self, chooser: usize, server: u32) -> &mut T {
        let server = server as usize;
        if server >= self.stride {
            self.widen(server + 1);
        }
        let at = chooser * self.stride + server;
        if at >= self.entries.len() {
            self.entries.resize((chooser + 1) * self.stride, self.fresh);
        }
        &mut self.entries[at]
    }

    /// `chooser` forgets what it knew of `server`.
    pub fn reset(&mut self, chooser: usize, server: u32) {
        let server = server as usize;
        if server < self.stride {
            if let Some(entry) = self.entries.get_mut(chooser * self.stride + server) {
                *entry = self.fresh;
            }
        }
    }

    /// Every chooser's entries, each chooser's as `(server, entry)`.
    pub fn each_mut(&mut self) -> impl Iterator<Item = (usize, impl Iterator<Item = (u32, &mut T)>)> {
        let stride = self.stride.max(1);
        self.entries.chunks_mut(stride).enumerate().map(|(chooser, row)| (chooser, numbered(row)))
    }

    /// `chooser`'s entries, each as `(server, entry)`: none until one of
    /// its own or a later chooser's was written.
    pub fn row_mut(&mut self, chooser: usize) -> impl Iterator<Item = (u32, &mut T)> {
        let row = chooser * self.stride..(chooser + 1) * self.stride;
        numbered(self.entries.get_mut(row).unwrap_or(&mut []))
    }

    /// Lays the rows out `stride` apart, each new server's entry fresh.
    fn widen(&mut self, stride: usize) {
        let rows = self.entries.len().checked_div(self.stride).unwrap_or(0);
        let mut entries = vec![self.fresh; rows * stride];
        for (row, old) in self.entries.chunks(self.stride.max(1)).enumerate() {
            entries[row * stride..row * stride + old.len()].copy_from_slice(old);
        }
        self.entries = entries;
        self.stride = stride;
    }
}

/// A row's entries, each with its server.
fn numbered<T>(row: &mut [T]) -> impl Iterator<Item = (u32, &mut T)> {
    row.iter_mut().enumerate().map(|(server, entry)| (server as u32, entry))
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
        let seen: Vec<(usize, u32, u32)> = column
            .each_mut()
            .flat_map(|(chooser, row)| row.filter(|(_, e)| **e > 0).map(move |(s, e)| (chooser, s, *e)))
            .collect();
        assert_eq!(seen.len(), 12);
        assert_eq!(seen.last(), Some(&(2, 3, 23)));
    }

    #[test]
    fn a_row_holds_its_choosers_entries_by_server_and_none_before_it_is_written() {
        let mut column = ByServer::new(None);
        assert_eq!(column.row_mut(0).count(), 0);
        *column.get_mut(1, 2) = Some(5u32);
        *column.get_mut(0, 1) = Some(7);
        let row: Vec<(u32, Option<u32>)> = column.row_mut(1).map(|(s, e)| (s, *e)).collect();
        assert_eq!(row, [(0, None), (1, None), (2, Some(5))]);
        assert_eq!(column.row_mut(0).filter(|(_, e)| e.is_some()).count(), 1);
        assert_eq!(column.row_mut(4).count(), 0);
    }
}
