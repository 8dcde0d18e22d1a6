//! Load signals: what a policy compares.

use super::{ChooserView, Measure};
use crate::time::Time;

/// A server's load as one comparable number: requests queued first, busy
/// slots as the tie-break (the essay's load metric).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Load(pub u64);

impl Load {
    pub fn new(queued: u32, busy: u32) -> Load {
        Load(u64::from(queued) << 32 | u64::from(busy))
    }
    pub fn queued(self) -> u32 {
        (self.0 >> 32) as u32
    }
    pub fn busy(self) -> u32 {
        self.0 as u32
    }
    /// Requests at the server, queued and in service.
    pub fn requests(self) -> f64 {
        f64::from(self.queued()) + f64::from(self.busy())
    }
    /// The load after one more request arrives at a server with `slots` slots.
    pub fn plus_one(self, slots: u32) -> Load {
        if self.queued() == 0 && self.busy() < slots {
            Load::new(0, self.busy() + 1)
        } else {
            Load::new(self.queued().saturating_add(1), self.busy())
        }
    }
}

/// What one chooser knows about one server of its pool: 16 bytes, aligned so
/// that four share a cache line and none straddles two (with every client
/// choosing among 1,000 servers this table is the simulation's largest, and
/// the smaller it is the more of it the caches hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(16))]
pub struct Known {
    /// Requests this chooser has sent there that have not come back.
    pub in_flight: u32,
    /// The load the server last reported, plus this chooser's sends since.
    reported: PackedLoad,
    /// When the server measured `reported`; `Time::NEVER` before any
    /// response (an `Option<Time>` would take twice the room).
    measured_at: Time,
}

/// Busy slots take the low bits of a packed load: up to 1,023, and a
/// scenario allows at most 1,000 slots.
const BUSY_BITS: u32 = 10;
const BUSY_MASK: u32 = (1 << BUSY_BITS) - 1;
/// Queued requests take the other 22 bits and stop counting at 4,194,303.
const MAX_QUEUED: u32 = u32::MAX >> BUSY_BITS;

/// A [`Load`] in 32 bits, for tables and requests where room counts. A
/// queue longer than 4,194,303 requests is kept as that long: a chooser
/// comparing two such servers sees a tie.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedLoad(u32);

impl From<Load> for PackedLoad {
    fn from(load: Load) -> PackedLoad {
        PackedLoad(load.queued().min(MAX_QUEUED) << BUSY_BITS | load.busy().min(BUSY_MASK))
    }
}

impl PackedLoad {
    pub fn load(self) -> Load {
        Load::new(self.0 >> BUSY_BITS, self.0 & BUSY_MASK)
    }
}

impl Default for Known {
    fn default() -> Known {
        Known { in_flight: 0, reported: PackedLoad::default(), measured_at: Time::NEVER }
    }
}

impl Known {
    /// The load last reported plus the sends since (packed: see [`PackedLoad`]).
    pub fn reported(&self) -> Load {
        self.reported.load()
    }

    /// When the server measured the load last reported, if it ever did.
    pub fn measured_at(&self) -> Option<Time> {
        (self.measured_at != Time::NEVER).then_some(self.measured_at)
    }

    /// This chooser sent the server a request: assume it adds one to the
    /// load of a server with `slots` slots.
    pub fn sent(&mut self, slots: u32) {
        self.in_flight += 1;
        self.reported = self.reported().plus_one(slots).into();
    }

    /// Takes a load the server measured at `at`, unless a later measurement
    /// already arrived (responses can overtake one another).
    pub fn learn(&mut self, reported: impl Into<PackedLoad>, at: Time) {
        if self.measured_at == Time::NEVER || self.measured_at <= at {
            self.reported = reported.into();
            self.measured_at = at;
        }
    }
}

/// True loads by server index.
#[derive(Clone, Copy)]
pub enum Board<'a> {
    /// Read straight from the servers (no staleness).
    Live(&'a dyn Fn(usize) -> Load),
    /// As of the last periodic refresh.
    Stale(&'a [u64]),
}

impl Board<'_> {
    pub fn load(&self, server: usize) -> Load {
        match self {
            Board::Live(read) => read(server),
            Board::Stale(loads) => Load(loads[server]),
        }
    }
}

/// What a [`Signal`] ranks a server by, least first: a load's order
/// (queued requests, then busy slots), a count of requests in flight, or
/// work in flight in microseconds of mean service. A policy compares one
/// signal, so ranks of different kinds never meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank(u64);

impl Rank {
    fn load(load: Load) -> Rank {
        Rank(load.0)
    }
    fn count(requests: u32) -> Rank {
        Rank(u64::from(requests))
    }
    fn work(ms: f32) -> Rank {
        Rank((f64::from(ms) * 1000.0) as u64)
    }
}

/// Which knowledge a policy compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The servers' true load from the board.
    Board,
    /// The chooser's own count of requests in flight.
    InFlight,
    /// Load reported on responses, updated optimistically on sends.
    Piggyback,
    /// The chooser's own work in flight: its requests weighted by their
    /// class's mean service time (requests, with one class).
    Work,
}

impl Signal {
    /// What the chooser ranks the server at `position` by.
    pub fn rank(self, view: &ChooserView, position: usize) -> Rank {
        match self {
            Signal::Board => Rank::load(view.board.load(view.server(position))),
            Signal::InFlight => Rank::count(view.known[position].in_flight),
            Signal::Piggyback => Rank::load(view.known[position].reported()),
            Signal::Work => match view.work.get(position) {
                Some(&ms) => Rank::work(ms),
                None => Rank::count(view.known[position].in_flight),
            },
        }
    }

    /// What [`Signal::amount`] counts.
    pub fn measure(self) -> Measure {
        match self {
            Signal::Board => Measure::Load,
            Signal::InFlight => Measure::InFlight,
            Signal::Piggyback => Measure::Reported,
            Signal::Work => Measure::Work,
        }
    }

    /// The signal at a pool position in plain units: requests (queued and
    /// in service, or in flight), or ms of work.
    pub fn amount(self, view: &ChooserView, position: usize) -> f64 {
        match self {
            Signal::Work if !view.work.is_empty() => f64::from(view.work[position]),
            Signal::Work | Signal::InFlight => f64::from(view.known[position].in_flight),
            Signal::Board => view.board.load(view.server(position)).requests(),
            Signal::Piggyback => view.known[position].reported().requests(),
        }
    }

    /// How old the signal is at a pool position: `None` for signals that are
    /// always current, `Some(None)` for a counter never learned.
    pub fn age(self, view: &ChooserView, position: usize) -> Option<Option<Time>> {
        match self {
            Signal::Piggyback => Some(view.known[position].measured_at().map(|t| view.now - t)),
            Signal::Board | Signal::InFlight | Signal::Work => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_length_outranks_busy_slots() {
        assert!(Load::new(0, 9) < Load::new(1, 0));
        assert!(Load::new(2, 3) < Load::new(2, 4));
    }

    #[test]
    fn a_later_measurement_wins() {
        let mut known = Known::default();
        assert_eq!(known.measured_at(), None);
        known.learn(Load::new(2, 0), Time(10));
        known.learn(Load::new(5, 0), Time(7));
        assert_eq!((known.reported(), known.measured_at()), (Load::new(2, 0), Some(Time(10))));
        known.learn(Load::new(1, 0), Time(10));
        assert_eq!(known.reported(), Load::new(1, 0));
        assert_eq!(std::mem::size_of::<Known>(), 16);
    }

    #[test]
    fn packed_loads_keep_every_slot_count_and_cap_long_queues() {
        let mut known = Known::default();
        for load in [Load::new(0, 0), Load::new(0, 1_000), Load::new(7, 3), Load::new(MAX_QUEUED, 1_000)] {
            known.learn(load, Time(1));
            assert_eq!(known.reported(), load);
        }
        known.learn(Load::new(u32::MAX, 2), Time(2));
        assert_eq!(known.reported(), Load::new(MAX_QUEUED, 2));
        known.sent(2);
        assert_eq!((known.reported(), known.in_flight), (Load::new(MAX_QUEUED, 2), 1));
    }

    #[test]
    fn plus_one_fills_slots_then_queue() {
        assert_eq!(Load::new(0, 2).plus_one(3), Load::new(0, 3));
        assert_eq!(Load::new(0, 3).plus_one(3), Load::new(1, 3));
        assert_eq!(Load::new(4, 3).plus_one(3), Load::new(5, 3));
    }
}
