//! Loading ahead what soon-due events will touch.
//!
//! A large simulation keeps more state than the processor's caches hold:
//! 12,000 requests in flight, and with 1,000 clients choosing among 1,000 servers
//! a million entries of per-server knowledge. Each event touches a request
//! and often one of those entries, at effectively random places, so most of
//! the time an event takes would be spent waiting for memory. The next events
//! are known, though: they wait at the fronts of the FIFO lanes and of the
//! wheel's due list. Before each event we ask the processor to start
//! loading the request of an event a little further back, and for an event a
//! little closer (its request loaded by then) the server it arrives at or
//! leaves, or for a response the chooser's knowledge of that server.
//! This changes nothing but timing. Only x86_64 gets the hint; elsewhere
//! (WebAssembly has no prefetch), and in small simulations, the lookups are
//! skipped too.

use super::flight::Flight;
use super::{Event, Simulation};

/// How far behind each queue's front to load requests, and then what the
/// request points to (its server, or its chooser's knowledge of the server).
const REQUEST_DISTANCE: usize = 16;
const NEAR_DISTANCE: usize = 8;
/// With fewer places for requests than this (256 KB of them) a simulation's state
/// mostly stays in the caches, and looking ahead costs more than it saves.
const REQUESTS_WORTH_IT: usize = 4096;

/// Hints that `value` will be read soon.
pub(super) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch has no effect on the program's state and never
    // faults, whatever the address; SSE is part of the x86_64 baseline.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

impl Simulation {
    /// Called once per event, after its queue moved on by one.
    pub(super) fn prefetch(&self) {
        if !cfg!(target_arch = "x86_64") || self.requests.places() < REQUESTS_WORTH_IT {
            return;
        }
        let request_ahead =
            self.events.ahead(REQUEST_DISTANCE).and_then(Event::flight).and_then(Flight::place);
        if let Some(place) = request_ahead.and_then(|id| self.requests.place(id)) {
            prefetch(place);
        }
        let Some(event) = self.events.ahead(NEAR_DISTANCE) else { return };
        let Some(kept) = event.flight().and_then(Flight::place).and_then(|id| self.requests.get(id)) else {
            return;
        };
        match event {
            Event::ArriveAtServer { .. } | Event::ServiceDone { .. } => {
                if let Some(server) = self.servers.get(kept.request.server as usize) {
                    prefetch(server);
                }
            }
            Event::ResponseAtClient { .. }
            | Event::ResponseAtBalancer { .. }
            | Event::BounceArrives { .. } => {
                let chooser = self.choosers.member(kept.chooser(), kept.request.class);
                if let Some(position) = self.choosers.position_of(chooser, kept.request.server) {
                    self.choosers.prefetch(chooser, position);
                }
            }
            _ => {}
        }
    }
}
