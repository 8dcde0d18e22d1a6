//! What happens to a request at its server: it arrives and takes a slot
//! or joins the queue, may time out there or be sent back, is served, and
//! its response leaves for the tier that sent it; a slot freed takes the
//! next queued request.

use super::feature::{Arrived, Freed};
use super::flight::{in_store, Flight};
use super::journal::Happening;
use super::requests::Stage;
use super::{Event, Simulation};
use crate::time::Time;

/// Why a server sends a request back to its chooser to be placed again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendBack {
    /// It waited in the queue past `queue_timeout_ms` (uses the retry budget).
    QueueTimeout,
    /// The server crashed (or had, when the request reached it).
    Crash,
}

impl Simulation {
    pub(super) fn arrive_at_server(&mut self, id: Flight) {
        if self.ended_under_way(id) {
            return;
        }
        let Some(server) = self.in_flight(id).map(|f| f.request.server as usize) else { return };
        self.tell_arrived(Arrived { server: server as u32 });
        if self.refused_at_server(id, server) {
            return;
        }
        if self.servers[server].has_free_slot() {
            self.start_service(id, server);
            return;
        }
        if self.servers[server].is_down() {
            self.send_back(id, server, SendBack::Crash);
            return;
        }
        let now = self.now;
        let Some((request, _)) = self.in_flight_mut(id) else { return };
        request.travel(Stage::Queued, now, now);
        request.queued_at(now);
        let class = request.class;
        let level = self.work.level(class);
        self.servers[server].queue.push(level, id);
        if self.journal.is_some() {
            let waiting = self.servers[server].queued();
            self.note_request(id, |request| Happening::Queued { request, server: server as u32, waiting });
        }
        if let Some(timeout) = self.timing.queue_timeout {
            if self.servers[server].timeout_due().is_none() {
                self.arm_queue_timeout(server, self.now + timeout);
            }
        }
    }

    /// Schedules `server`'s one pending timeout event; any earlier one is now stale.
    pub(super) fn arm_queue_timeout(&mut self, server: usize, due: Time) {
        self.servers[server].set_timeout_due(Some(due));
        self.events.push(due, Event::QueueTimeout { server: server as u32 });
    }

    fn start_service(&mut self, id: Flight, server: usize) {
        if self.journal.is_some() {
            self.note_service_started(id, server as u32);
        }
        let cut_short = self.service_cut_short(id, server);
        let (now, speed) = (self.now, self.servers[server].speed);
        let Some((request, _)) = self.in_flight_mut(id) else { return };
        let queue_time = request.queue_time(now);
        let duration =
            cut_short.unwrap_or_else(|| Time(libm::round(f64::from(request.demand) / speed) as u64));
        request.travel(Stage::InService, now, now + duration);
        let class = request.class;
        self.servers[server].busy += 1;
        self.metrics.on_service_start(now, server, queue_time, class);
        self.events.push(now + duration, Event::ServiceDone { flight: id });
    }

    /// Sends back every request at the front of a level of `server`'s queue
    /// whose timeout has passed, then arms the timeout of the oldest one left.
    pub(super) fn queue_timeout(&mut self, server: usize) {
        if self.servers[server].timeout_due() != Some(self.now) {
            return;
        }
        self.servers[server].set_timeout_due(None);
        let Some(timeout) = self.timing.queue_timeout else { return };
        let mut next = Time::NEVER;
        for level in 0..self.servers[server].queue.levels() {
            while let Some(oldest) = self.servers[server].queue.front(level) {
                let due = self.joined(oldest) + timeout;
                if due > self.now {
                    next = next.min(due);
                    break;
                }
                self.servers[server].queue.pop_front(level);
                self.send_back(oldest, server, SendBack::QueueTimeout);
            }
        }
        if next != Time::NEVER {
            self.arm_queue_timeout(server, next);
        }
    }

    /// When the request `id` names joined the queue it waits in.
    fn joined(&self, id: Flight) -> Time {
        self.in_flight(id).map_or(self.now, |f| f.request.departs)
    }

    /// When the oldest request waiting at `server` joined its queue.
    pub(super) fn oldest_queued(&self, server: usize) -> Option<Time> {
        self.servers[server].queue.fronts().map(|id| self.joined(id)).min()
    }

    /// Sends the request `id` names back from `server` to its chooser, who
    /// places it again, unless a feature drops it instead. Returns whether
    /// it was sent back.
    pub(super) fn send_back(&mut self, id: Flight, server: usize, why: SendBack) -> bool {
        if self.dropped_instead_of_sent_back(id) {
            return false;
        }
        if self.journal.is_some() {
            let waited = self.in_flight(id).map_or(Time::ZERO, |f| self.now - f.request.departs);
            let server = server as u32;
            self.note_request(id, |request| Happening::SentBack { request, server, why, waited });
        }
        let load = self.servers[server].load();
        let (now, timing, owned) = (self.now, &self.timing, &self.owned);
        let Some((origin, request, _)) = in_store(&mut self.requests, &mut self.attempts, id) else {
            return false;
        };
        let (delay, lane) = timing.server_hop(origin.balancer().is_some());
        let extra = owned.hop(|| origin.chooser(), server as u32);
        request.reported = load.into();
        request.travel(Stage::Bounced, now, now + delay + extra.unwrap_or_default());
        match why {
            SendBack::QueueTimeout => {
                request.retries = request.retries.saturating_add(1);
                self.metrics.on_bounce(now, server);
            }
            SendBack::Crash => self.metrics.counts.crash_replaced += 1,
        }
        self.events.push_hop(lane, now + delay, extra, Event::BounceArrives { flight: id });
        true
    }

    pub(super) fn service_done(&mut self, id: Flight) {
        if self.service_end_void(id) {
            return;
        }
        let Some(seen) = self.in_flight(id) else { return };
        let (server, outcome) = (seen.request.server, seen.outcome);
        if self.journal.is_some() {
            self.note_request(id, |request| Happening::ServiceEnded { request, server, outcome });
        }
        let server = server as usize;
        self.free_slot(server);
        if self.ended_after_service(id) {
            return;
        }
        self.respond(id, server);
    }

    /// The response (or error) to the request `id` names leaves `server`
    /// for the tier that sent the request.
    pub(super) fn respond(&mut self, id: Flight, server: usize) {
        let load = self.servers[server].load();
        let (now, timing, owned) = (self.now, &self.timing, &self.owned);
        let Some((origin, request, _)) = in_store(&mut self.requests, &mut self.attempts, id) else {
            return;
        };
        let (delay, lane) = timing.server_hop(origin.balancer().is_some());
        let extra = owned.hop(|| origin.chooser(), server as u32);
        let (stage, event) = match origin.balancer() {
            Some(_) => (Stage::ResponseToBalancer, Event::ResponseAtBalancer { flight: id }),
            None => (Stage::ResponseToClient, Event::ResponseAtClient { flight: id }),
        };
        request.reported = load.into();
        request.travel(stage, now, now + delay + extra.unwrap_or_default());
        self.events.push_hop(lane, now + delay, extra, event);
    }

    /// A slot of `server` frees: the next queued request takes it.
    #[inline]
    pub(super) fn free_slot(&mut self, server: usize) {
        self.servers[server].busy -= 1;
        if let Some(next) = self.servers[server].queue.pop_next() {
            self.start_service(next, server);
        }
        self.tell_freed(Freed { server: server as u32 });
    }
}
