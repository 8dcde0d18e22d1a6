//! What the core tells a feature at its points, and its timers as the
//! core's event holds them.

use super::{FeatureId, Owned};
use crate::engine::marks::Mark;
use crate::engine::Outcome;
use crate::policy::Pick;
use crate::time::Time;

/// Which of the points on the path of every request a feature hears (or
/// the run's features hear, together).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::engine) struct Points(u16);

impl Points {
    pub const NONE: Points = Points(0);
    pub const PICKED: Points = Points(1);
    pub const SENT: Points = Points(2);
    pub const HOP: Points = Points(4);
    pub const HEARD: Points = Points(8);
    pub const RETURNED: Points = Points(16);
    pub const ARRIVED: Points = Points(32);
    pub const FREED: Points = Points(64);
    pub const CREATED: Points = Points(128);
    pub const COMPLETED: Points = Points(256);
    pub const SENDING: Points = Points(512);
    pub const CAME_BACK: Points = Points(1024);
    pub const PLACING: Points = Points(2048);

    pub const fn and(self, other: Points) -> Points {
        Points(self.0 | other.0)
    }

    #[inline(always)]
    pub const fn has(self, point: Points) -> bool {
        self.0 & point.0 != 0
    }
}

/// A feature's timer as the core's event holds it: which feature, in the
/// top bits, and the feature's payload below, one word as every event's
/// payload is (a payload across two fields made the event loop's code
/// carry the whole event in one register and test it again; see
/// `Owned`'s registry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureTimer(u32);

/// The bits of a feature's timer that hold its payload: enough for a
/// request's place (the core holds at most 2^24 requests).
pub(super) const PAYLOAD_BITS: u32 = 27;
const _: () = assert!(1 << PAYLOAD_BITS >= crate::engine::MAX_IN_FLIGHT);

impl FeatureTimer {
    pub(in crate::engine) fn new(id: FeatureId, payload: u32) -> FeatureTimer {
        debug_assert!(payload < 1 << PAYLOAD_BITS, "a feature's timer payload {payload} is too large");
        FeatureTimer((id as u32) << PAYLOAD_BITS | payload)
    }

    pub fn feature(self) -> FeatureId {
        FeatureId::ALL[(self.0 >> PAYLOAD_BITS) as usize]
    }

    pub fn payload(self) -> u32 {
        self.0 & ((1 << PAYLOAD_BITS) - 1)
    }

    /// Its kind of event in the trace hash, and its payload: the trace
    /// names a request by its identity, the rest by the payload itself.
    pub(in crate::engine) fn traced(self) -> (u64, u32) {
        Owned::trace(self.feature(), self.payload())
    }

    /// The place of the request it is for, when its feature's timers are
    /// each for a request (see `Feature::TIMERS_NAME_PLACES`).
    #[inline]
    pub fn place(self) -> Option<u32> {
        Owned::timers_name_places(self.feature()).then(|| self.payload())
    }
}

/// A chooser's pick, as `picked` is told it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Picked {
    pub chooser: usize,
    /// The server that sent the request back, which the pick avoided.
    pub avoid: Option<u32>,
    /// The request's key, for a policy that reads it.
    pub key: Option<u64>,
    pub pick: Pick,
}

/// A response (or an error) a chooser heard from a server, as `heard` is
/// told it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Heard {
    pub chooser: usize,
    pub server: u32,
    pub outcome: Outcome,
    /// How long after its creation the request was answered, for a
    /// response to a request on its first try.
    pub round_trip: Option<Time>,
}

/// A request reached `server`, as `arrived` is told it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Arrived {
    pub server: u32,
}

/// A slot of `server` freed (and a request queued there, if any, took
/// it), as `freed` is told it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Freed {
    pub server: u32,
}

/// Place `place` holds a request just created, as `created` is told it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Created {
    pub place: u32,
}

/// Place `place`'s request completed at its client, as `completed` is
/// told it: `request` is its session's number and the requests to follow
/// it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Completed {
    pub place: u32,
    pub request: (u32, u16),
}

/// A request sent from a chooser to a server, as `sent` is told it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Sent {
    /// The place of the request, when the core keeps it (a balancer's
    /// attempt has none).
    pub place: Option<u32>,
    /// What the hop adds to its tier's delay (see `Feature::hop`).
    pub extra: Option<Time>,
}

/// A try that came back to its chooser with nothing it can pass on, as
/// `returned` is told it: sent back by its server, or answered with an
/// error.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Returned {
    /// The place of the request, which its chooser holds now.
    pub place: u32,
    pub why: Back,
    /// The tries it made so far (a send-back counts its own at once; an
    /// error counts when it is tried again), and the request's session
    /// number and the requests to follow it, which key its own draws.
    pub tries: u16,
    pub request: (u32, u16),
}

/// Why a try came back (see [`Returned`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) enum Back {
    /// Its server sent it back (a queue timeout).
    SentBack,
    /// Its server answered with an error.
    Error,
}

/// A request about to leave chooser `chooser` for `server`, as `sending`
/// is told it: a feature may hold it at the chooser, or fail it there.
/// (A hedged copy is not told.)
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Sending {
    pub place: u32,
    pub chooser: usize,
    pub server: u32,
}

/// Place `place`'s request is about to be placed by chooser `chooser`'s
/// policy, as `placing` is told it: a feature may send it itself.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Placing {
    pub place: u32,
    pub chooser: usize,
}

/// Chooser `chooser` heard back from `server`, by a response, an error or
/// a request sent back, as `came_back` is told it: what it has out there
/// is one fewer.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct CameBack {
    pub chooser: usize,
    pub server: u32,
}

/// How `server` treats the requests that reach it changed from `before`
/// to `mark`, as `marked` is told it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Marked {
    pub server: u32,
    pub before: Mark,
    pub mark: Mark,
}
