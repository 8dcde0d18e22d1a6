//! The choosers' table of what each one knows of the servers of its pool,
//! column by column: entry `start + position` of every column is about the
//! server at `position` of the member's pool. What a chooser learns about a
//! server lives here rather than in its policy, so a policy rebuilt over a
//! changed pool reads on from what was learned; when a pool changes,
//! [`Choosers::carry`](super::Choosers) moves each server's entries to its
//! new position.
//!
//! # Where it is going: one store keyed by server (issue 40, item 3)
//!
//! A column keyed by `(chooser, server)` is [`ByServer`](super::ByServer);
//! outlier ejection's runs of errors, counts of ejections and the times
//! its hold-outs end, its rates' answers (`ejection/rates.rs`), and
//! FoundationDB's failure monitors and queue models (`fdb::QueueModel`, a
//! trait the driver implements over its column; the budget of second
//! requests beside it is the chooser's, of no server) are kept in such
//! columns, each owned by its feature (none other reads them). What a
//! chooser knows of a server still lives elsewhere in: this table (by pool
//! position) and `Member.{ejected, idle}` (the choosers' own eligibility,
//! a short list of the servers held out, and the idle reports heard, a
//! queue in the order heard, neither a column). The idle reports' listing
//! is per server, of no chooser (whether the server told anyone), and
//! hedging's observed latencies and `Member.typical` are per chooser, of
//! no server, so none is a column of this store. The design they move to:
//! - one store, entry `(chooser, server)`, stride the run's server count;
//!   a server added grows every chooser's stride once (`grow`), and a pool
//!   change re-indexes nothing: an entry whose server leaves a chooser's
//!   pool is reset to its column's fresh value as it leaves, so that a
//!   server coming back starts afresh, as it does here today (the golden
//!   hashes hold only so);
//! - columns registered when the run is built: the signals' (`known`,
//!   `work`, `round_trips`, `connections`) by the policy kind, as here, and
//!   each feature's by its own line (`ByServer<T>` it reads through the
//!   view and writes through an action, or owns when no other reads it);
//!   an absent column costs nothing, as an empty one here;
//! - policies keep reading by position: the view hands them the member's
//!   pool (position → server) beside the columns, and `entries` becomes an
//!   indexed read through it. That indirection is on the hot path of every
//!   pick (P2C's two reads, least-request's scan), so it moves only with
//!   callgrind before and after on `benchmark --duration 10` and
//!   `theory-supermarket --duration 60` within 3%; under subsets the store
//!   holds `choosers × servers` entries where the table holds the pools'
//!   sum, which the same measurement must show affordable (else the pool's
//!   own order keeps a dense index into the server's entry).
//!
//! It is not affordable for these columns: the scenario caps the pools'
//! sum at `MAX_KNOWLEDGE_ENTRIES`, 4 million entries (64 MB of `Known`,
//! 16 bytes each), which 100,000 clients each drawing 40 of 10,000
//! servers reach and `lbsim run` accepts; one entry per chooser and
//! server would be a thousand million, 16 GB. So `known`, `work` and
//! `round_trips` move only in the second shape: a chooser keeps its
//! entries in slots that never move, its pool holds each position's slot
//! (the position itself for a pool of every server), and a server that
//! leaves the pool has its slot reset for the next to take. (A feature's
//! column may stay `ByServer`: it is written only for the servers a
//! feature acts on, and empty otherwise.)
//!
//! Order of the moves, each its own commit with every hash held: the
//! features' columns first (they are off the hot path; done: FoundationDB's
//! monitors and models, ejection's runs, hold-outs and rates), then
//! `round_trips` and `work`, then `known` and `connections`, in slots,
//! with the measurement above (not begun).

use super::super::connections::Connections;
use super::super::huge_pages;
use crate::policy::{Column, Known, PeakAverage, RoundTrips};

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
    ) -> (Column<'_, Known>, Column<'_, f32>, RoundTrips<'_>) {
        let known = Column::dense(&self.known[start..start + len]);
        let work = Column::dense(self.work.get(start..start + len).unwrap_or(&[]));
        let each = Column::dense(self.round_trips.get(start..start + len).unwrap_or(&[]));
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
