//! How a view opens: at once, or (`first=one`) with one request's trip at
//! a pace a reader can follow (out to the server, into a slot or the
//! queue, and back), then everything else at the view's own speed. A
//! reader who meets twenty clients at full speed sees a swarm; one trip
//! first shows what each dot of the swarm is doing. The trip's pace is a
//! share of real time, not of the view's speed, so that a view slowed to
//! let its dots travel (chapter 1) walks its first trip no slower.

use crate::engine::{Hop, RequestView};

/// The speed (simulated time per wall time) at which the first request
/// travels, unless the view's own is slower: its trip of about 30
/// simulated ms (the hop out, 20 ms of service, the hop back) takes about
/// 3 s.
pub const WALKING_PACE: f64 = 1.0 / 100.0;

/// The speed while the view waits for the first request, unless its own
/// is slower: slow enough that a frame does not carry it past the
/// request's start.
pub const WAITING_PACE: f64 = 1.0 / 10.0;

/// Simulated ms after which the opening gives up following a trip that
/// does not end (a slow server, a long queue): the view must not crawl.
pub const LONGEST_TRIP_MS: f64 = 1_000.0;

/// Where a view's opening stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opening {
    /// No request setting out yet: the view plays at [`WAITING_PACE`].
    Waiting,
    /// Following `client`'s first request since `since_ms` (simulated);
    /// `connecting` while its client opens a connection (a handshake, at
    /// [`WAITING_PACE`]: at a walking pace chapter 1's two round trips
    /// took two seconds of a square beside the client, unexplained, before
    /// the request set out: reader 17); `returning` once the answer is on
    /// its way back.
    Following { client: u32, since_ms: f64, connecting: bool, returning: bool },
    /// The view plays at its own speed.
    Over,
}

/// What the view does as the opening moves on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// Follow this client: its first request is the one to watch.
    Follow(u32),
    /// The trip is over: stop following it, and play on.
    Release(u32),
}

impl Opening {
    pub fn new(one_first: bool) -> Opening {
        match one_first {
            true => Opening::Waiting,
            false => Opening::Over,
        }
    }

    /// The speed to play at now, in a view of speed `view_speed`.
    pub fn speed(self, view_speed: f64) -> f64 {
        match self {
            Opening::Following { connecting: false, .. } => WALKING_PACE.min(view_speed),
            Opening::Following { connecting: true, .. } | Opening::Waiting => WAITING_PACE.min(view_speed),
            Opening::Over => view_speed,
        }
    }

    /// The client whose first trip is being shown, while it is.
    pub fn following(self) -> Option<u32> {
        match self {
            Opening::Following { client, .. } => Some(client),
            Opening::Waiting | Opening::Over => None,
        }
    }

    /// Whether the view may run ahead to its point: not before the trip
    /// has been shown.
    pub fn is_over(self) -> bool {
        self == Opening::Over
    }

    /// Told the requests drawn at simulated time `now_ms`, moves on, and
    /// says what the view should do.
    pub fn observe(&mut self, now_ms: f64, requests: &[RequestView]) -> Option<Cue> {
        match *self {
            Opening::Over => None,
            Opening::Waiting => {
                let first = requests.iter().find(|r| setting_out(r.hop))?;
                let connecting = first.hop == Hop::Handshake;
                *self = Opening::Following {
                    client: first.client,
                    since_ms: now_ms,
                    connecting,
                    returning: false,
                };
                Some(Cue::Follow(first.client))
            }
            Opening::Following { client, since_ms, returning, .. } => {
                let hop = requests.iter().find(|r| r.client == client).map(|r| r.hop);
                let back = hop.is_some_and(|hop| matches!(hop, Hop::ServerToClient | Hop::BalancerToClient));
                let ended = (returning && !back) || hop.is_none() || now_ms - since_ms > LONGEST_TRIP_MS;
                match ended {
                    true => {
                        *self = Opening::Over;
                        Some(Cue::Release(client))
                    }
                    false => {
                        let connecting = hop == Some(Hop::Handshake);
                        *self =
                            Opening::Following { client, since_ms, connecting, returning: returning || back };
                        None
                    }
                }
            }
        }
    }
}

/// What the view's sentence says while it shows the first request's trip,
/// in a view of speed `view_speed`. Other clients' requests start
/// meanwhile, and the server's slots and the chart count them (a reader
/// saw two busy slots and "2 requests" under words that said "one
/// request"): the words say only its dot is drawn.
pub fn words(view_speed: f64) -> String {
    format!(
        "One request's trip first, at {} and the only dot drawn: out to the server, into a slot (ringed, the \
         arc round it filling as it is served) or the queue, and back. Others start meanwhile, counted by the \
         slots and the chart. Then everyone, at {}.",
        of_real_time(WALKING_PACE.min(view_speed)),
        of_real_time(view_speed)
    )
}

/// A speed in words: "real time", "a tenth of real time", "0.3× real
/// time".
pub fn of_real_time(speed: f64) -> String {
    let share =
        [(1.0, "real time"), (0.5, "half"), (0.25, "a quarter"), (0.1, "a tenth"), (0.01, "a hundredth")]
            .into_iter()
            .find(|(share, _)| (speed - share).abs() < 1e-9);
    match share {
        Some((_, "real time")) => "real time".to_string(),
        Some((_, words)) => format!("{words} of real time"),
        None => format!("{}× real time", crate::scenario::fields::format_number(speed)),
    }
}

/// Whether a request on `hop` is at the start of its trip: opening its
/// connection or on its way out to a balancer or server.
fn setting_out(hop: Hop) -> bool {
    matches!(hop, Hop::Handshake | Hop::ClientToBalancer | Hop::ClientToServer)
}

#[cfg(test)]
mod tests;
