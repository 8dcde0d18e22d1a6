//! One event at a time, told in words: for stepping through a simulation
//! ("request 2/10 of session 41 (client 7) is sent back by server 3 after
//! 100 ms in its queue") and for highlighting what it involved.

use super::lengths::SessionLengths;
use super::session::{Fate, Session, Stage};
use super::Outcome;
use super::{Event, Simulation};
use crate::time::Time;
use serde::Serialize;

/// An event that just happened, in words, with what it involved.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Told {
    pub time_ms: f64,
    pub text: String,
    pub session: Option<u32>,
    pub client: Option<u32>,
    pub balancer: Option<u32>,
    pub server: Option<u32>,
}

/// What the event's session looked like, before and after.
#[derive(Clone, Copy)]
struct SessionState {
    client: u32,
    balancer: Option<u32>,
    number: u32,
    /// 1-based position of the request in the session, of `length`.
    request: u32,
    length: u32,
    server: u32,
    stage: Stage,
    created: Time,
    fate: Fate,
    outcome: Outcome,
}

impl SessionState {
    fn of(session: &Session, lengths: &SessionLengths) -> SessionState {
        let length = lengths.of(session.number);
        SessionState {
            client: session.client,
            balancer: session.balancer(),
            number: session.number,
            request: length - u32::from(session.remaining),
            length,
            server: session.request.server,
            stage: session.request.stage,
            created: session.request.created,
            fate: session.fate,
            outcome: session.outcome,
        }
    }

    fn request(&self) -> String {
        let length = self.length;
        format!("request {}/{length} of session {} (client {})", self.request, self.number, self.client)
    }
}

impl Simulation {
    /// Processes exactly one event and tells what it was; `None` when no
    /// event is left or the simulation has halted.
    pub fn step_told(&mut self) -> Option<Told> {
        if self.halt.is_some() {
            return None;
        }
        let (time, event) = self.events.pop_until(Time::NEVER)?;
        let seen =
            |sim: &Simulation, id: u32| sim.sessions.get(id).map(|s| SessionState::of(s, &sim.lengths));
        let before = event.session().and_then(|id| seen(self, id));
        let (counts, timed_out) = (self.metrics.counts, self.timeout_front(event));
        let queued_before = before.map_or(0, |s| self.servers[s.server as usize].queued());
        let changes_before = self.changes_made();
        self.keep_what_balancers_do(true);
        self.process(time, event);
        let after = event.session().and_then(|id| seen(self, id));
        let now = self.metrics.counts;
        let mut told = Told { time_ms: time.as_ms(), session: event.session(), ..Told::default() };
        let involve = |told: &mut Told, s: &SessionState, server: bool| {
            told.client = Some(s.client);
            told.balancer = s.balancer;
            told.server = server.then_some(s.server);
        };
        told.text = match (event, before) {
            (Event::SessionArrival { .. } | Event::ClientStarts { .. }, _) => {
                if now.sessions_started == counts.sessions_started {
                    "a scheduled arrival is dropped: the load changed since it was scheduled".into()
                } else {
                    let number = counts.sessions_started as u32;
                    let new = self.sessions.iter().map(|(_, s)| s).find(|s| s.number == number);
                    match new.map(|s| SessionState::of(s, &self.lengths)) {
                        Some(s) => {
                            involve(&mut told, &s, false);
                            let to = match (s.balancer, self.balancers_did()) {
                                (Some(b), _) => format!(", the first sent through balancer {b}"),
                                (None, Some(did)) => format!("; its FoundationDB balancer {did}"),
                                (None, None) => format!(", the first sent to server {}", s.server),
                            };
                            format!(
                                "session {number} starts at client {}: {} requests{to}",
                                s.client, s.length
                            )
                        }
                        None => format!("session {number} starts"),
                    }
                }
            }
            (
                Event::ResponseAtBalancer { .. }
                | Event::ResponseAtClient { .. }
                | Event::BounceArrives { .. },
                Some(s),
            ) if s.fate == Fate::Attempt => {
                involve(&mut told, &s, false);
                let chooser = s.balancer.map_or(format!("client {}", s.client), |b| format!("balancer {b}"));
                let reply = match (s.stage, s.outcome) {
                    (Stage::Bounced, _) => "the request sent back",
                    (_, Outcome::Ok) => "a reply",
                    (_, Outcome::Error(_)) => "an error",
                };
                let did = self.balancers_did().unwrap_or_else(|| {
                    "does nothing more: the request is answered, or its other attempt is still out".into()
                });
                format!(
                    "{chooser}'s FoundationDB balancer hears {reply} from server {} for {}: it {did}",
                    s.server,
                    s.request()
                )
            }
            (_, Some(s)) if matches!(s.fate, Fate::Lost | Fate::Cancelled) => {
                involve(&mut told, &s, true);
                format!("a copy of {} that lost its race ends at server {}", s.request(), s.server)
            }
            (Event::HedgeDue { .. }, Some(s)) => {
                involve(&mut told, &s, false);
                let chooser = s.balancer.map_or(format!("client {}", s.client), |b| format!("balancer {b}"));
                if now.hedged > counts.hedged {
                    let waited = (time - s.created).as_ms();
                    format!("{chooser} has no response to {} after {waited:.1} ms and sends a copy to another server", s.request())
                } else {
                    format!(
                        "no copy of {} is sent: its hedge is void or its response is on its way",
                        s.request()
                    )
                }
            }
            (Event::ArriveAtBalancer { .. }, Some(s)) => {
                let a = after.unwrap_or(s);
                involve(&mut told, &a, true);
                let balancer = a.balancer.unwrap_or(0);
                match self.balancers_did() {
                    Some(did) => format!(
                        "{} reaches balancer {balancer}, whose FoundationDB balancer {did}",
                        s.request()
                    ),
                    None => {
                        format!(
                            "{} reaches balancer {balancer}, which sends it to server {}",
                            s.request(),
                            a.server
                        )
                    }
                }
            }
            (Event::ArriveAtServer { .. }, Some(s)) => {
                involve(&mut told, &s, true);
                let waiting = self.servers[s.server as usize].queued();
                match after.map(|a| (a.stage, a.outcome)) {
                    Some((_, Outcome::Error(_))) => {
                        format!(
                            "server {} is down and refuses {}: the error heads back",
                            s.server,
                            s.request()
                        )
                    }
                    Some((Stage::InService, _)) => {
                        format!("{} reaches server {} and takes a free slot", s.request(), s.server)
                    }
                    _ => format!(
                        "{} reaches server {} and joins its queue ({waiting} waiting)",
                        s.request(),
                        s.server
                    ),
                }
            }
            (Event::QueueTimeout { server }, _) => {
                told.server = Some(server);
                let sent_back = now.bounces - counts.bounces;
                let timeout = self.timing.queue_timeout.map_or(0.0, |t| t.as_ms());
                match (sent_back, timed_out) {
                    (0, _) => {
                        format!("server {server} checks its queue: nothing has waited {timeout} ms yet")
                    }
                    (1, Some(s)) => {
                        involve(&mut told, &s, true);
                        format!(
                            "{} is sent back by server {server} after {timeout} ms in its queue",
                            s.request()
                        )
                    }
                    (n, _) => format!(
                        "server {server} sends back {n} requests that waited {timeout} ms in its queue"
                    ),
                }
            }
            (Event::ServiceDone { .. }, Some(s)) => {
                involve(&mut told, &s, true);
                let next = if self.servers[s.server as usize].queued() < queued_before {
                    "; the oldest queued request takes the slot"
                } else {
                    ""
                };
                let to = if s.balancer.is_some() { "its balancer" } else { "the client" };
                let what = if s.outcome == Outcome::Ok { "the response" } else { "an error" };
                format!("server {} finishes {}; {what} heads back to {to}{next}", s.server, s.request())
            }
            (Event::BounceArrives { .. }, Some(s)) => {
                involve(&mut told, &s, false);
                let chooser = s.balancer.map_or(format!("client {}", s.client), |b| format!("balancer {b}"));
                match after {
                    Some(a) => {
                        told.server = Some(a.server);
                        format!(
                            "{} is back at {chooser}, which sends it to server {} instead",
                            s.request(),
                            a.server
                        )
                    }
                    None => {
                        format!("{} is back at {chooser} and fails: its retry budget is spent", s.request())
                    }
                }
            }
            (Event::ResponseAtBalancer { .. } | Event::ResponseAtClient { .. }, Some(s))
                if s.outcome != Outcome::Ok =>
            {
                involve(&mut told, &s, false);
                let chooser = s.balancer.map_or(format!("client {}", s.client), |b| format!("balancer {b}"));
                let heard = format!("{chooser} hears an error from server {} for {}", s.server, s.request());
                match after {
                    Some(a) if a.stage == Stage::BackingOff => format!("{heard}: it retries after a backoff"),
                    Some(a) if a.stage == Stage::ToServer => {
                        format!("{heard}: it retries at server {}", a.server)
                    }
                    Some(_) => {
                        format!("{heard}: its retry budget is spent, and the error goes on to the client")
                    }
                    None => format!("{heard}: its retry budget is spent, and the request fails"),
                }
            }
            (Event::ResponseAtBalancer { .. }, Some(s)) => {
                involve(&mut told, &s, false);
                format!(
                    "the response to {} passes balancer {} on its way to the client",
                    s.request(),
                    s.balancer.unwrap_or(0)
                )
            }
            (Event::ResponseAtClient { .. }, Some(s)) => {
                involve(&mut told, &s, false);
                let latency = (time - s.created).as_ms();
                match after {
                    Some(a) => format!(
                        "client {} has the response to {} after {latency:.1} ms and sends request {}/{}",
                        s.client,
                        s.request(),
                        a.request,
                        a.length
                    ),
                    None => format!(
                        "client {} has the response to {} after {latency:.1} ms: session {} is complete",
                        s.client,
                        s.request(),
                        s.number
                    ),
                }
            }
            (Event::BoardRefresh { generation }, _) => match self.board.is_current(generation) {
                true => "the load board is copied from the servers".into(),
                false => "a board refresh from an earlier period is dropped".into(),
            },
            (Event::Sample, _) => "a point is added to the live charts".into(),
            (Event::SpeedChange { change }, _) => match self.scenario.speed_changes.get(change as usize) {
                Some(c) => {
                    told.server = Some(c.server);
                    format!("server {} now runs at speed {}", c.server, c.speed)
                }
                None => "a speed change no longer in the scenario is dropped".into(),
            },
            (Event::MembershipChange { change }, _) => match self.scenario.membership.get(change as usize) {
                Some(scheduled) if self.changes_made() > changes_before => {
                    told.server = self.membership_changes().last().map(|r| r.server);
                    super::membership::describe(scheduled.change)
                }
                Some(scheduled) => format!(
                    "the scheduled change {} is dropped: a change made live has made it impossible",
                    scheduled.change.text()
                ),
                None => "a membership change no longer in the scenario is dropped".into(),
            },
            (Event::TableUpdate { member }, _) => {
                format!("chooser {} takes the new version of the mapping table", member)
            }
            (Event::FailureDue { entry }, _) => match self.scenario.failures.get(entry as usize) {
                Some(due) => {
                    told.server = Some(due.server);
                    match due.failure {
                        Some(failure) => format!("server {} fails: {}", due.server, failure.text()),
                        None => format!("server {} recovers", due.server),
                    }
                }
                None => "a failure no longer in the scenario is dropped".into(),
            },
            (Event::FailureTurn { server }, _) => {
                told.server = Some(server);
                match self.features.faults.of(server as usize) {
                    Some(failure) => format!("server {server} fails on: {}", failure.text()),
                    None => format!("server {server} is healthy"),
                }
            }
            (Event::RetryDue { .. }, Some(s)) => {
                involve(&mut told, &s, false);
                format!("the backoff of {} is over: it is placed again", s.request())
            }
            (Event::HealthCheck, _) => "every server is health-checked".into(),
            (Event::EjectionEnds { member }, _) => {
                format!("chooser {member} readmits the servers whose ejection is over")
            }
            (Event::BalancerTimer { .. }, _) => match self.balancers_did() {
                Some(did) => format!("a FoundationDB balancer's timer is due: it {did}"),
                None => "a FoundationDB balancer's timer is due, but the balancer has moved on".into(),
            },
            (_, None) => "an event for a session that has already ended".into(),
        };
        self.keep_what_balancers_do(false);
        Some(told)
    }

    /// Before a queue timeout: the oldest request at the front of a level
    /// of the server's queue.
    fn timeout_front(&self, event: Event) -> Option<SessionState> {
        let Event::QueueTimeout { server } = event else { return None };
        let queue = &self.servers[server as usize].queue;
        let id = queue.fronts().min_by_key(|&id| self.sessions.get(id).map(|s| s.request.departs))?;
        self.sessions.get(id).map(|s| SessionState::of(s, &self.lengths))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Scenario, Simulation};

    #[test]
    fn each_step_is_one_event_told_in_words() {
        let mut scenario = Scenario::default();
        scenario.set_many([("load", "1.2"), ("queue_timeout_ms", "20"), ("servers", "3")]).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        let mut texts = Vec::new();
        for _ in 0..20_000 {
            let before = sim.events_processed();
            let told = sim.step_told().unwrap();
            assert_eq!(sim.events_processed(), before + 1);
            assert!(!told.text.is_empty());
            texts.push(told.text);
        }
        for words in [
            "starts at client",
            "and takes a free slot",
            "and joins its queue",
            "is sent back by server",
            "which sends it to server",
            "the response heads back to the client",
            "and sends request 2/10",
            "a point is added to the live charts",
        ] {
            assert!(texts.iter().any(|t| t.contains(words)), "no step says `{words}`");
        }
        assert!(sim.books().balanced());
    }

    #[test]
    fn failures_and_retries_are_told() {
        let mut scenario = Scenario::default();
        let failures = "0s:down:0, 0s:fast-fail:1:p=1, 0s:down:2:for=1s";
        scenario.set_many([("servers", "3"), ("failures", failures), ("retry_backoff_ms", "1")]).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        let texts: Vec<String> = (0..5_000).map(|_| sim.step_told().unwrap().text).collect();
        for words in [
            "server 0 fails: down",
            "is down and refuses",
            "an error heads back to the client",
            "hears an error from server",
            "it retries after a backoff",
            "is placed again",
            "server 2 is healthy",
        ] {
            assert!(texts.iter().any(|t| t.contains(words)), "no step says `{words}`");
        }
    }

    #[test]
    fn what_foundationdb_balancers_do_is_told() {
        // A slow server for second requests, one that goes down and comes
        // back for broken connections, then all four down for backoffs and
        // all_alternatives_failed.
        let failures = "0s:slow:0:x=0.05, 1s:down:1:for=1s, 3s:down:0:for=2s, 3s:down:1:for=2s, 3s:down:2:for=2s, 3s:down:3:for=2s";
        let mut texts = Vec::new();
        for policy in ["fdb-load-balance", "fdb-basic"] {
            let mut scenario = Scenario::default();
            let pairs = [
                ("servers", "4"),
                ("clients", "4"),
                ("load", "0.5"),
                ("failures", failures),
                ("policy", policy),
            ];
            scenario.set_many(pairs).unwrap();
            let mut sim = Simulation::new(&scenario).unwrap();
            while sim.now().as_secs() < 6.0 {
                texts.push(sim.step_told().unwrap().text);
            }
            assert!(sim.books().balanced(), "{:?}", sim.books());
        }
        for words in [
            "; its FoundationDB balancer sends it to server",
            "a second request goes out after",
            "FoundationDB balancer hears a reply from server",
            ": it gives the client server",
            "FoundationDB balancer hears an error from server",
            "a FoundationDB balancer's timer is due: it sends it to server",
            "waits up to",
            "fails the request with all_alternatives_failed",
            "waits for a server to come back up",
            "backs off for",
        ] {
            assert!(texts.iter().any(|t| t.contains(words)), "no step says `{words}`");
        }
    }
}
