//! What a feature asks of the core, and what came of it.

use super::FeatureId;
use crate::engine::journal::Happening;
use crate::engine::marks::Mark;
use crate::engine::Outcome;
use crate::metrics::FailureReason;
use crate::rng::SimRng;
use crate::scenario::Change;
use crate::time::Time;

/// What a feature asks the core to do.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::engine) enum Action {
    /// Tell the feature at `at`, with `payload` (a timer of its own).
    Timer { at: Time, payload: u32 },
    /// `server` serves at `speed` from now on.
    SetSpeed { server: u32, speed: f64 },
    /// `server`'s speed is scaled.
    ScaleSpeed { server: u32, by: SpeedBy },
    /// `server` treats the requests that reach it as `mark` says; one
    /// that refused and no longer does is seen up by whoever watches
    /// (FoundationDB's monitors).
    Mark { server: u32, mark: Mark },
    /// A server joins or leaves: `change` is made (a server added with
    /// the next index, restored, removed, or crashed with the requests it
    /// held sent back to be placed again), and every chooser's pool is
    /// drawn anew over `members`, its policy and key placements rebuilt.
    /// The feature hears [`Report::MembersChanged`].
    ChangeMembers { change: Change, members: Vec<u32> },
    /// Note a happening in the journal.
    Note(Happening),
    /// `chooser` ejects `server` from its pool until `until`, unless that
    /// would hold more than `max_fraction` of its pool out (or leave it
    /// empty), which `always_one` lets pass while it holds no outlier out;
    /// the feature hears [`Report::Ejected`] if it did.
    Eject { chooser: u32, server: u32, until: Time, max_fraction: f64, always_one: bool },
    /// `chooser` readmits the servers whose ejection is over.
    Readmit { chooser: u32 },
    /// `chooser` readmits `server` at once, if it holds it out.
    ReadmitNow { chooser: u32, server: u32 },
    /// Place `place`'s request, back at its chooser, is tried again as
    /// try `tries` (counted as a retry): placed by its chooser at once
    /// (see `place_again` for the server it came back from), or, after `wait`, held
    /// there until the feature asks [`Action::Release`].
    Retry { place: u32, tries: u16, wait: Option<Time> },
    /// Place `place`'s request, held at its chooser, is placed again as a
    /// retry at once is, unless it ended while held.
    Release { place: u32 },
    /// `server` tells a chooser drawn at random that it is idle; the
    /// feature hears [`Report::Listed`].
    ReportIdle { server: u32 },
    /// Every chooser holds `server` out of its pool while it is not
    /// healthy, and readmits it once it is.
    SetHealth { server: u32, healthy: bool },
    /// Place `place`'s chooser makes a copy of its request, which races it
    /// (the first to finish service answers), if the request is still out
    /// and the pool has another server; the race's loser in service is
    /// cancelled at once if `cancels_in_service`, else left to finish. The
    /// feature hears [`Report::Copied`].
    MakeCopy { place: u32, cancels_in_service: bool },
    /// The copy at place `copy` leaves its chooser for a server other than
    /// `avoid`, its original's.
    SendCopy { copy: u32, avoid: u32 },
    /// Chooser `member` takes the newer versions of its mapping table due
    /// by now.
    TakeTables { member: u32 },
    /// Every chooser with fewer than `percent` of its pool's servers in
    /// routes to all of them (held out or not) until enough are back.
    PanicBelow { percent: f64 },
    /// The weighted policies read `weight` for `server` from now on.
    SetWeight { server: u32, weight: f64 },
    /// Place `place`'s request, about to leave its chooser for `server`,
    /// waits there instead until the feature asks [`Action::SendTo`].
    Hold { place: u32, server: u32 },
    /// Place `place`'s request, at its chooser (held there, or about to be
    /// placed), leaves for `server` (or, if its chooser's pool no longer
    /// holds it, where its policy picks).
    SendTo { place: u32, server: u32 },
    /// Place `place`'s request fails at its chooser, for `reason`.
    Fail { place: u32, reason: FailureReason },
    /// Place `place`'s request waits at its chooser while the feature
    /// works for it, sending attempts of its own ([`Action::SendAttempt`])
    /// until it asks [`Action::Answer`] or [`Action::Fail`].
    Keep { place: u32 },
    /// Chooser `chooser` sends attempt `index` (from 0) of place `place`'s
    /// request to `server`, unless its pool no longer holds the server;
    /// the feature names it `token` and hears [`Report::Replied`] when its
    /// reply (or its bounce) is back. An attempt after the first counts as
    /// a retry, sent or not.
    SendAttempt { place: u32, chooser: u32, server: u32, index: u16, token: u64 },
    /// Place `place`'s request, kept at its chooser, is answered as if
    /// `server` had answered it: the answer goes on to its client.
    Answer { place: u32, server: u32 },
}

/// How a speed is scaled: multiplied, or divided (which undoes the
/// multiplication exactly where multiplying by the inverse would not).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::engine) enum SpeedBy {
    Times(f64),
    Over(f64),
}

impl Action {
    /// Whether it takes place `place`'s request from the core's hands.
    pub fn takes(&self, place: u32) -> bool {
        match *self {
            Action::Retry { place: p, .. }
            | Action::Hold { place: p, .. }
            | Action::SendTo { place: p, .. }
            | Action::Fail { place: p, .. }
            | Action::Keep { place: p } => p == place,
            _ => false,
        }
    }
}

/// What came of an action, told to the feature that asked for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::engine) enum Report {
    /// The chooser ejected the server until `until`.
    Ejected { chooser: u32, server: u32, until: Time },
    /// Whether the chooser `server` told it is idle listed it (a server
    /// outside its pool is not).
    Listed { server: u32, listed: bool },
    /// Place `place`'s request was copied to place `copy`, or, its
    /// response already on its way back, the copy was made and cancelled
    /// at once (none); `request` is its session's number and the requests
    /// to follow it.
    Copied { place: u32, copy: Option<u32>, request: (u32, u16) },
    /// The attempt named `token` is back at chooser `chooser` from
    /// `server`: sent back (`bounced`), or answered with `outcome`, the
    /// server having `queued` requests waiting as it left.
    Replied { token: u64, chooser: u32, server: u32, bounced: bool, outcome: Outcome, queued: u32 },
    /// The members changed: under a key-placing policy, the share of the
    /// counted keys that moved, the share that had to, and the share on
    /// the server concerned (see `ChangeReport`); and the requests a crash
    /// sent back.
    MembersChanged {
        keys_moved: Option<f64>,
        keys_ideal: Option<f64>,
        server_keys: Option<f64>,
        crash_replaced: u64,
    },
}

/// What the features ask at a point: the core's list, each action with
/// the feature that asked, and the routing stream, which a feature that
/// decides where requests go draws from as the choosers' policies do.
pub(in crate::engine) struct Outbox<'a> {
    pub(in crate::engine) list: &'a mut Vec<(FeatureId, Action)>,
    pub(in crate::engine) routing: &'a mut SimRng,
}

/// Where one feature puts the actions it asks for at a point.
pub(in crate::engine) struct Asks<'a, 'b> {
    pub(super) id: FeatureId,
    pub(super) list: &'a mut Outbox<'b>,
}

impl Asks<'_, '_> {
    #[inline]
    pub fn push(&mut self, action: Action) {
        self.list.list.push((self.id, action));
    }

    /// The routing stream, drawn from now, between the choosers' draws.
    pub fn routing(&mut self) -> &mut SimRng {
        self.list.routing
    }
}
