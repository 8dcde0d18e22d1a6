//! The choosers' table of what each one knows of the servers of its pool,
//! column by column (`known`, `work`, `round_trips`, `connections`). Each
//! chooser has a part of it, a slot for each server of its pool, and the
//! server keeps its slot while the pool changes (`slots.rs`): its pool
//! holds each position's slot (none for a pool in slot order, as one of
//! every server is until it changes), and policies read by position
//! through it ([`Column`]). What a chooser learns about a server so
//! outlasts its policy, rebuilt over a changed pool, and nothing is moved
//! when the pool changes: a server that leaves has its slot reset (coming
//! back it starts afresh), and a newcomer takes a free one.
//!
//! # One store keyed by server (issue 40, item 3)
//!
//! What a chooser knows of a server is kept in two shapes, both keyed by
//! server rather than by pool position, so that no pool change re-indexes
//! them:
//! - here, a dense entry in a slot, for the signals every pick reads;
//! - [`ByServer`](super::ByServer), entry `(chooser, server)`, only for
//!   the entries written: outlier ejection's runs of errors, counts of
//!   ejections and the times its hold-outs end, its rates' answers
//!   (`ejection/rates.rs`), and FoundationDB's failure monitors and queue
//!   models (`fdb::QueueModel`, a trait the driver implements over its
//!   column; the budget of second requests beside it is the chooser's, of
//!   no server), each owned by its feature (none other reads them).
//!
//! The signals' columns stay dense, in slots, because a column with an
//! entry per chooser and server is not affordable for them: the scenario
//! caps the pools' sum at `MAX_KNOWLEDGE_ENTRIES`, 4 million entries
//! (64 MB of `Known`, 16 bytes each), which 100,000 clients each drawing
//! 40 of 10,000 servers reach and `lbsim run` accepts; one entry per
//! chooser and server would be a thousand million, 16 GB. The slots cost
//! the policies one look at the pool's slots per read when the pool is not
//! in slot order, and a test of whether it is otherwise (callgrind, main →
//! slots: `benchmark --duration 10` +0.7%, `theory-supermarket --duration
//! 60` +1.1% instructions).
//!
//! Three things a chooser knows are neither: `Member.ejected`, the servers
//! it holds out, are by definition out of its pool and so have no slot (a
//! slot is freed, reset, as its server leaves), and they are a short list
//! read whole; `Member.idle`, the idle reports it heard, is a queue in the
//! order heard (the freshest is taken first, a server may be in it twice),
//! which no column by server holds; and the idle reports' listing is per
//! server, of no chooser. Hedging's observed latencies and
//! `Member.typical` are per chooser, of no server.

use super::super::connections::Connections;
use super::super::huge_pages;
use crate::policy::{Column, Known, PeakAverage, RoundTrips};
use std::ops::Range;

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

    /// A member's entries in `part`, read through its pool's `slots`
    /// (`None`: in pool order): what it knows, its work in flight and its
    /// round trips (`typical` being their average over every server).
    pub fn entries<'a>(
        &'a self,
        part: Range<usize>,
        slots: Option<&'a [u32]>,
        typical: PeakAverage,
    ) -> (Column<'a, Known>, Column<'a, f32>, RoundTrips<'a>) {
        let known = Column::new(&self.known[part.clone()], slots);
        let work = Column::new(self.work.get(part.clone()).unwrap_or(&[]), slots);
        let each = Column::new(self.round_trips.get(part).unwrap_or(&[]), slots);
        (known, work, RoundTrips { each, typical })
    }

    /// Entry `entry` of every column as if nothing had been learned (its
    /// server left the pool), its connection cold.
    pub fn reset(&mut self, entry: usize) {
        self.known[entry] = Known::default();
        if let Some(work) = self.work.get_mut(entry) {
            *work = 0.0;
        }
        if let Some(average) = self.round_trips.get_mut(entry) {
            *average = PeakAverage::default();
        }
        self.connections.reset(entry);
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
