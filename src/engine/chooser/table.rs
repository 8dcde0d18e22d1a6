//! The choosers' table of what each one knows of the servers of its pool,
//! column by column: entry `start + position` of every column is about the
//! server at `position` of the member's pool. What a chooser learns about a
//! server lives here rather than in its policy, so a policy rebuilt over a
//! changed pool reads on from what was learned; when a pool changes,
//! [`Choosers::carry`](super::Choosers) moves each server's entries to its
//! new position.

use super::super::connections::Connections;
use super::super::huge_pages;
use crate::policy::{Known, PeakAverage, RoundTrips};

pub struct Table {
    /// Requests in flight there, and the load it last reported.
    pub known: Vec<Known>,
    /// With several request classes, the work in flight there (the sum of
    /// the requests' class means, ms); empty with one class, where work is
    /// requests.
    pub work: Vec<f32>,
    /// For a policy that times round trips, the peak-EWMA average of the
    /// round trips to each server; empty otherwise.
    pub round_trips: Vec<PeakAverage>,
    /// Whether each connection is warm.
    pub connections: Connections,
}

impl Table {
    /// The same columns, `len` entries long, each entry as if nothing had
    /// been learned yet.
    pub fn fresh(&self, len: usize) -> Table {
        Table {
            known: huge_pages::filled(len, Known::default()),
            work: if self.work.is_empty() { Vec::new() } else { vec![0.0; len] },
            round_trips: if self.round_trips.is_empty() {
                Vec::new()
            } else {
                vec![PeakAverage::default(); len]
            },
            connections: self.connections.cold(len),
        }
    }

    /// A member's entries, from `start`, `len` long: what it knows, its
    /// work in flight and its round trips (`typical` being their average
    /// over every server).
    pub fn entries(
        &self,
        start: usize,
        len: usize,
        typical: PeakAverage,
    ) -> (&[Known], &[f32], RoundTrips<'_>) {
        let known = &self.known[start..start + len];
        let work = self.work.get(start..start + len).unwrap_or(&[]);
        let each = self.round_trips.get(start..start + len).unwrap_or(&[]);
        (known, work, RoundTrips { each, typical })
    }

    /// Copies entry `from` of every column to entry `to` of `into`.
    pub fn copy(&self, from: usize, into: &mut Table, to: usize) {
        into.known[to] = self.known[from];
        if let Some(work) = into.work.get_mut(to) {
            *work = self.work[from];
        }
        if let Some(average) = into.round_trips.get_mut(to) {
            *average = self.round_trips[from];
        }
        self.connections.copy_into(from, &mut into.connections, to);
    }
}
