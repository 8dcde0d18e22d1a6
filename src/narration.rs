//! One step of a simulation told in words: for stepping through a run
//! ("request 2/10 of session 41 (client 7) is sent back by server 3 after
//! 100 ms in its queue") and for highlighting what the step involved. The
//! engine notes what happened in the step as data (its journal, see
//! [`Happening`]); the words are all here.

use crate::engine::{Event, Flight, Happening, Outcome, Reply, SendBack, Step, Whose};
use crate::fdb::Action;
use crate::scenario::{Change, Scenario};
use crate::time::Time;
use crate::Simulation;
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

/// Processes exactly one event of `sim` and tells what it was; `None` when
/// no event is left or the simulation has halted.
pub fn step_told(sim: &mut Simulation) -> Option<Told> {
    let step = sim.step_journaled()?;
    Some(tell(&step, sim.scenario()))
}

/// `step`, of a simulation of `scenario`, in words.
pub fn tell(step: &Step, scenario: &Scenario) -> Told {
    let mut told = Told {
        time_ms: step.time.as_ms(),
        session: step.event.flight().and_then(Flight::place),
        ..Told::default()
    };
    told.text = Teller { step, told: &mut told }.text(scenario);
    told
}

/// Words for a step, noting what it involved in `told` as it goes.
struct Teller<'a> {
    step: &'a Step,
    told: &'a mut Told,
}

impl Teller<'_> {
    fn find<T>(&self, what: impl Fn(&Happening) -> Option<T>) -> Option<T> {
        self.step.happened.iter().find_map(what)
    }

    fn involve(&mut self, request: &Whose, server: Option<u32>) {
        self.told.client = Some(request.client);
        self.told.balancer = request.balancer;
        self.told.server = server;
    }

    /// Where the request went next: the first send of the step.
    fn sent(&self) -> Option<u32> {
        self.find(|h| match h {
            Happening::Sent { server, .. } => Some(*server),
            _ => None,
        })
    }

    fn forwarded(&self) -> bool {
        self.find(|h| matches!(h, Happening::Forwarded { .. }).then_some(())).is_some()
    }

    fn backed_off(&self) -> Option<Time> {
        self.find(|h| match h {
            Happening::BackingOff { wait, .. } => Some(*wait),
            _ => None,
        })
    }

    /// The place of the event's own request ended, its race lost (rather
    /// than a copy dropped): at which server.
    fn lost_race(&self) -> Option<(Whose, u32)> {
        let place = self.step.event.flight()?;
        let dropped = self.find(|h| match h {
            Happening::CopyDropped { request, .. } if request.place == place => Some(()),
            _ => None,
        });
        if dropped.is_some() {
            return None;
        }
        self.find(|h| match h {
            Happening::Discarded { request, server } if request.place == place => Some((*request, *server)),
            _ => None,
        })
    }

    /// What FoundationDB's balancers did in the step, in words.
    fn balancers_did(&self) -> Option<String> {
        did_words(&self.step.happened, self.step.time)
    }

    fn text(&mut self, scenario: &Scenario) -> String {
        let event = self.step.event;
        if let Some((request, server, reply)) = self.find(|h| match h {
            Happening::Heard { request, server, reply, attempt: true } => Some((*request, *server, *reply)),
            _ => None,
        }) {
            return self.attempt_heard(&request, server, reply);
        }
        if let Some((request, server)) = self.lost_race() {
            self.involve(&request, Some(server));
            return format!("a copy of {} that lost its race ends at server {server}", words(&request));
        }
        match event {
            Event::SessionArrival { .. } | Event::ClientStarts { .. } => self.session_start(),
            Event::HedgeDue { .. } => self.hedge(),
            Event::ArriveAtBalancer { .. } => self.at_balancer(),
            Event::ArriveAtServer { .. } => self.at_server(),
            Event::QueueTimeout { server } => self.queue_timeout(server, scenario),
            Event::ServiceDone { .. } => self.service_done(),
            Event::BounceArrives { .. }
            | Event::ResponseAtBalancer { .. }
            | Event::ResponseAtClient { .. } => self.back_at_chooser(),
            Event::RetryDue { .. } => self.retry_due(),
            Event::BalancerTimer { .. } => match self.balancers_did() {
                Some(did) => format!("a FoundationDB balancer's timer is due: it {did}"),
                None => "a FoundationDB balancer's timer is due, but the balancer has moved on".into(),
            },
            Event::TableUpdate { member } => {
                format!("chooser {member} takes the new version of the mapping table")
            }
            Event::HealthCheck => "every server is health-checked".into(),
            Event::EjectionEnds { member } => {
                format!("chooser {member} readmits the servers whose ejection is over")
            }
            Event::BoardRefresh { .. }
            | Event::Sample
            | Event::SpeedChange { .. }
            | Event::MembershipChange { .. }
            | Event::FailureDue { .. }
            | Event::FailureTurn { .. } => self.scheduled(),
        }
    }

    fn session_start(&mut self) -> String {
        let started = self.find(|h| match h {
            Happening::SessionStarted { request } => Some(*request),
            _ => None,
        });
        let Some(request) = started else {
            return match self.step.happened.first() {
                Some(Happening::Halted) => {
                    "no session starts: too many requests are in flight, and the simulation halts".into()
                }
                _ => "a scheduled arrival is dropped: the load changed since it was scheduled".into(),
            };
        };
        self.involve(&request, None);
        let to = match (request.balancer, self.balancers_did(), self.sent()) {
            (Some(b), ..) => format!(", the first sent through balancer {b}"),
            (None, Some(did), _) => format!("; its FoundationDB balancer {did}"),
            (None, None, Some(server)) => format!(", the first sent to server {server}"),
            (None, None, None) => String::new(),
        };
        format!(
            "session {} starts at client {}: {} requests{to}",
            request.session, request.client, request.length
        )
    }

    fn attempt_heard(&mut self, request: &Whose, server: u32, reply: Reply) -> String {
        self.involve(request, None);
        let reply = match reply {
            Reply::SentBack => "the request sent back",
            Reply::Response => "a reply",
            Reply::Error => "an error",
        };
        // Delivering the reply may complete the request, and the session's
        // next request start under a balancer of its own.
        let (now, happened) = (self.step.time, self.step.happened.as_slice());
        let answered = happened.iter().position(|h| matches!(h, Happening::Completed { .. }));
        let (before, after) = happened.split_at(answered.unwrap_or(happened.len()));
        let did = did_words(before, now).unwrap_or_else(|| {
            "does nothing more: the request is answered, or its other attempt is still out".into()
        });
        let next = match after {
            [Happening::Completed { last: true, .. }, ..] => {
                format!("; session {} is complete", request.session)
            }
            [Happening::Completed { last: false, .. }, rest @ ..] => {
                let next = format!("; request {}/{} goes out", request.request + 1, request.length);
                match did_words(rest, now) {
                    Some(did) => format!("{next}, and its FoundationDB balancer {did}"),
                    None => next,
                }
            }
            _ => String::new(),
        };
        format!(
            "{}'s FoundationDB balancer hears {reply} from server {server} for {}: it {did}{next}",
            chooser(request),
            words(request)
        )
    }

    fn hedge(&mut self) -> String {
        let hedged = self.find(|h| match h {
            Happening::Hedged { request, waited, cancelled_en_route } => {
                Some((*request, *waited, *cancelled_en_route))
            }
            _ => None,
        });
        let Some((request, waited, cancelled_en_route)) = hedged else {
            return "a hedge falls due, but no copy is sent: it is void, or the request is no longer at a server"
                .into();
        };
        let copy_to = self.sent();
        self.involve(&request, copy_to);
        let (waited, asked) =
            (waited.as_ms(), format!("{} has no response to {}", chooser(&request), words(&request)));
        match copy_to.filter(|_| !cancelled_en_route) {
            Some(server) => format!("{asked} after {waited:.1} ms and sends a copy to server {server}"),
            None => format!(
                "{asked} after {waited:.1} ms and sends a copy, which the response already on its way cancels"
            ),
        }
    }

    fn at_balancer(&mut self) -> String {
        let reached = self.find(|h| match h {
            Happening::ReachedBalancer { request } => Some(*request),
            _ => None,
        });
        let Some(request) = reached else { return ended() };
        let balancer = request.balancer.unwrap_or(0);
        let sent = self.sent();
        self.involve(&request, sent);
        match (self.balancers_did(), sent) {
            (Some(did), _) => {
                format!("{} reaches balancer {balancer}, whose FoundationDB balancer {did}", words(&request))
            }
            (None, Some(server)) => {
                format!("{} reaches balancer {balancer}, which sends it to server {server}", words(&request))
            }
            (None, None) => format!("{} reaches balancer {balancer}", words(&request)),
        }
    }

    fn refused_a_copy(&self) -> bool {
        let refused = self.find(|h| matches!(h, Happening::Refused { .. }).then_some(())).is_some();
        refused && self.find(|h| matches!(h, Happening::CopyDropped { .. }).then_some(())).is_some()
    }

    fn at_server(&mut self) -> String {
        let place = self.step.event.flight();
        for happening in &self.step.happened {
            let (request, server) = match happening {
                Happening::Refused { request, server } => (request, *server),
                Happening::ServiceStarted { request, server, .. } if Some(request.place) == place => {
                    (request, *server)
                }
                Happening::Queued { request, server, .. } | Happening::SentBack { request, server, .. } => {
                    (request, *server)
                }
                Happening::CopyDropped { request, server } => (request, *server),
                _ => continue,
            };
            self.involve(request, Some(server));
            let request_words = words(request);
            return match happening {
                Happening::Refused { .. } if self.refused_a_copy() => {
                    format!("server {server} is down and refuses a copy of {request_words}: the copy is dropped")
                }
                Happening::Refused { .. } => {
                    format!("server {server} is down and refuses {request_words}: the error heads back")
                }
                Happening::ServiceStarted { .. } => {
                    format!("{request_words} reaches server {server} and takes a free slot")
                }
                Happening::Queued { waiting, .. } => {
                    format!("{request_words} reaches server {server} and joins its queue ({waiting} waiting)")
                }
                Happening::CopyDropped { .. } => {
                    format!("a copy of {request_words} reaches server {server}, which is down: the copy is dropped")
                }
                _ => format!(
                    "{request_words} reaches server {server}, which is down: it goes back to its chooser to be placed again"
                ),
            };
        }
        ended()
    }

    fn queue_timeout(&mut self, server: u32, scenario: &Scenario) -> String {
        self.told.server = Some(server);
        let timeout = scenario.queue_timeout_ms.map_or(0.0, |ms| Time::from_ms(ms).as_ms());
        let sent_back: Vec<Whose> = self
            .step
            .happened
            .iter()
            .filter_map(|h| match h {
                Happening::SentBack { request, why: SendBack::QueueTimeout, .. } => Some(*request),
                _ => None,
            })
            .collect();
        let dropped =
            self.step.happened.iter().filter(|h| matches!(h, Happening::CopyDropped { .. })).count();
        match (sent_back.as_slice(), dropped) {
            ([], 0) => format!("server {server} checks its queue: nothing has waited {timeout} ms yet"),
            ([request], 0) => {
                self.involve(request, Some(server));
                format!("{} is sent back by server {server} after {timeout} ms in its queue", words(request))
            }
            (requests, 0) => format!(
                "server {server} sends back {} requests that waited {timeout} ms in its queue",
                requests.len()
            ),
            (requests, dropped) => format!(
                "server {server} sends back {} and drops {} that waited {timeout} ms in its queue",
                counted(requests.len(), "request"),
                counted(dropped, "hedged copy")
            ),
        }
    }

    fn service_done(&mut self) -> String {
        let service = self.find(|h| match h {
            Happening::ServiceEnded { request, server, outcome } => Some((*request, *server, *outcome)),
            _ => None,
        });
        let Some((request, server, outcome)) = service else {
            return match self.step.happened.first() {
                Some(Happening::ServiceVoided { .. }) => {
                    "a service end is void: its server crashed, and the request went back to be placed again"
                        .into()
                }
                _ => ended(),
            };
        };
        self.involve(&request, Some(server));
        let next_starts = self.find(|h| match h {
            Happening::ServiceStarted { server: s, .. } if *s == server => Some(()),
            _ => None,
        });
        let next = if next_starts.is_some() { "; the oldest queued request takes the slot" } else { "" };
        let to = if request.balancer.is_some() { "its balancer" } else { "the client" };
        let what = if outcome == Outcome::Ok { "the response" } else { "an error" };
        format!("server {server} finishes {}; {what} heads back to {to}{next}", words(&request))
    }

    fn back_at_chooser(&mut self) -> String {
        let heard = self.find(|h| match h {
            Happening::Heard { request, server, reply, .. } => Some((*request, *server, *reply)),
            _ => None,
        });
        let Some((request, server, reply)) = heard else { return self.at_client() };
        let chooser = chooser(&request);
        let request_words = words(&request);
        self.involve(&request, None);
        match reply {
            Reply::SentBack => match (self.sent(), self.backed_off()) {
                (Some(to), _) => {
                    self.told.server = Some(to);
                    format!("{request_words} is back at {chooser}, which sends it to server {to} instead")
                }
                (None, Some(wait)) => format!(
                    "{request_words} is back at {chooser}, which sends it again after a backoff of {:.1} ms",
                    wait.as_ms()
                ),
                (None, None) => {
                    format!("{request_words} is back at {chooser} and fails: its retry budget is spent")
                }
            },
            Reply::Error => {
                let heard = format!("{chooser} hears an error from server {server} for {request_words}");
                match (self.backed_off(), self.sent()) {
                    (Some(_), _) => format!("{heard}: it retries after a backoff"),
                    (None, Some(to)) => format!("{heard}: it retries at server {to}"),
                    _ if self.forwarded() => {
                        format!("{heard}: its retry budget is spent, and the error goes on to the client")
                    }
                    _ => format!("{heard}: its retry budget is spent, and the request fails"),
                }
            }
            Reply::Response if self.forwarded() => format!(
                "the response to {request_words} passes balancer {} on its way to the client",
                request.balancer.unwrap_or(0)
            ),
            Reply::Response => self.at_client(),
        }
    }

    /// A response (or error) reaches its client.
    fn at_client(&mut self) -> String {
        let completed = self.find(|h| match h {
            Happening::Completed { request, latency, last } => Some((*request, *latency, *last)),
            _ => None,
        });
        if let Some((request, latency, last)) = completed {
            self.involve(&request, None);
            let (client, latency) = (request.client, latency.as_ms());
            let has =
                format!("client {client} has the response to {} after {latency:.1} ms", words(&request));
            return match last {
                true => format!("{has}: session {} is complete", request.session),
                false => format!("{has} and sends request {}/{}", request.request + 1, request.length),
            };
        }
        let failed = self.find(|h| match h {
            Happening::Failed { request, .. } => Some(*request),
            _ => None,
        });
        match failed {
            Some(request) => {
                self.involve(&request, None);
                format!("client {} has an error for {}: the request fails", request.client, words(&request))
            }
            None => ended(),
        }
    }

    fn retry_due(&mut self) -> String {
        let sent = self.find(|h| match h {
            Happening::Sent { request, server } => Some((*request, *server)),
            _ => None,
        });
        let Some((request, server)) = sent else { return ended() };
        self.involve(&request, None);
        format!("the backoff of {} is over: it is placed again, at server {server}", words(&request))
    }

    /// A step of the scenario's schedules, or of the simulation's own clocks.
    fn scheduled(&mut self) -> String {
        let Some(happening) = self.step.happened.first() else {
            return match self.step.event {
                Event::BoardRefresh { .. } => "a board refresh finds nothing to do".into(),
                _ => "a scheduled change no longer in the scenario is dropped".into(),
            };
        };
        match *happening {
            Happening::BoardRefreshed { current: true } => "the load board is copied from the servers".into(),
            Happening::BoardRefreshed { current: false } => {
                "a board refresh from an earlier period is dropped".into()
            }
            Happening::Sampled => "a point is added to the live charts".into(),
            Happening::SpeedChanged { server, speed } => {
                self.told.server = Some(server);
                format!("server {server} now runs at speed {speed}")
            }
            Happening::MembershipChanged { change, server } => {
                self.told.server = Some(server);
                change_words(change, server)
            }
            Happening::ChangeDropped { change } => format!(
                "the scheduled change {} is dropped: a change made live has made it impossible",
                change.text()
            ),
            Happening::FailureStarted { server, failure } => {
                self.told.server = Some(server);
                format!("server {server} fails: {}", failure.text())
            }
            Happening::Recovered { server } => {
                self.told.server = Some(server);
                format!("server {server} recovers")
            }
            Happening::FailureTurned { server, failing } => {
                self.told.server = Some(server);
                match failing {
                    Some(failure) => format!("server {server} fails on: {}", failure.text()),
                    None => format!("server {server} is healthy"),
                }
            }
            _ => ended(),
        }
    }
}

/// "request 2/10 of session 41 (client 7)".
fn words(request: &Whose) -> String {
    let Whose { request: r, length, session, client, .. } = request;
    format!("request {r}/{length} of session {session} (client {client})")
}

/// Who chose the request's server: its balancer, or its client.
fn chooser(request: &Whose) -> String {
    match request.balancer {
        Some(b) => format!("balancer {b}"),
        None => format!("client {}", request.client),
    }
}

fn counted(n: usize, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (_, "hedged copy") => format!("{n} hedged copies"),
        _ => format!("{n} {what}s"),
    }
}

fn ended() -> String {
    "an event for a session that has already ended".into()
}

/// What FoundationDB's balancers did in `happened`, in words, at `now`;
/// `None` when they did nothing.
fn did_words(happened: &[Happening], now: Time) -> Option<String> {
    let actions = happened.iter().flat_map(|h| match h {
        Happening::BalancerActed { actions } => actions.as_slice(),
        _ => &[],
    });
    let phrases: Vec<String> = actions.map(|&action| action_words(action, now)).collect();
    match phrases.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        [most @ .., last] => Some(format!("{}, and {last}", most.join(", "))),
    }
}

/// What a FoundationDB balancer does, in words, at `now` ("sends it to
/// server 3", "a second request goes out after 12.5 ms if no reply has come").
fn action_words(action: Action, now: Time) -> String {
    match action {
        Action::Send { server } => format!("sends it to server {server}"),
        Action::Backoff { until } => format!("backs off for {:.1} ms", (until - now).as_ms()),
        Action::Wait { until: Time::NEVER } => "waits for a server to come back up".to_string(),
        Action::Wait { until } => {
            format!("waits up to {:.1} ms for a server to come back up", (until - now).as_ms())
        }
        Action::SecondRequestAt { at } => {
            format!("a second request goes out after {:.1} ms if no reply has come", (at - now).as_ms())
        }
        Action::Deliver { server } => format!("gives the client server {server}'s reply"),
        Action::Fail(kind) => format!("fails the request with {}", kind.name()),
    }
}

/// A membership change concerning `server`, in words.
fn change_words(change: Change, server: u32) -> String {
    match change {
        Change::Add => format!("server {server} is added"),
        Change::Remove(s) => {
            format!("server {s} is removed: it finishes what it holds and takes nothing new")
        }
        Change::Crash(s) => format!("server {s} crashes: what it held goes back to be placed again"),
        Change::Restore(s) => format!("server {s} is restored"),
    }
}

#[cfg(test)]
mod tests {
    use super::step_told;
    use crate::{Scenario, Simulation};

    /// Asserts that some step says each of `phrases`.
    fn says(texts: &[String], phrases: &[&str]) {
        for words in phrases {
            assert!(texts.iter().any(|t| t.contains(words)), "no step says `{words}`");
        }
    }

    #[test]
    fn each_step_is_one_event_told_in_words() {
        let mut scenario = Scenario::default();
        scenario.set_many([("load", "1.2"), ("queue_timeout_ms", "20"), ("servers", "3")]).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        let mut texts = Vec::new();
        for _ in 0..20_000 {
            let before = sim.events_processed();
            let told = step_told(&mut sim).unwrap();
            assert_eq!(sim.events_processed(), before + 1);
            assert!(!told.text.is_empty());
            texts.push(told.text);
        }
        says(
            &texts,
            &[
                "starts at client",
                "and takes a free slot",
                "and joins its queue",
                "is sent back by server",
                "which sends it to server",
                "the response heads back to the client",
                "and sends request 2/10",
                "a point is added to the live charts",
            ],
        );
        assert!(sim.books().balanced());
    }

    #[test]
    fn failures_and_retries_are_told() {
        let mut scenario = Scenario::default();
        let failures = "0s:down:0, 0s:fast-fail:1:p=1, 0s:down:2:for=1s";
        scenario.set_many([("servers", "3"), ("failures", failures), ("retry_backoff_ms", "1")]).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        let texts: Vec<String> = (0..5_000).map(|_| step_told(&mut sim).unwrap().text).collect();
        says(
            &texts,
            &[
                "server 0 fails: down",
                "is down and refuses",
                "an error heads back to the client",
                "hears an error from server",
                "it retries after a backoff",
                "is placed again",
                "server 2 is healthy",
            ],
        );
    }

    #[test]
    fn hedges_and_their_races_are_told() {
        let mut scenario = Scenario::default();
        let pairs = [
            ("hedge_after_ms", "5"),
            ("queue_timeout_ms", "30"),
            ("failures", "0.2s:down:1:for=0.5s"),
            ("balancers", "2"),
        ];
        scenario.set_many(pairs).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        let texts: Vec<String> = (0..40_000).map(|_| step_told(&mut sim).unwrap().text).collect();
        says(
            &texts,
            &[
                "ms and sends a copy to server",
                "which the response already on its way cancels",
                "that lost its race ends at server",
                "the copy is dropped",
                "passes balancer",
            ],
        );
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
                texts.push(step_told(&mut sim).unwrap().text);
            }
            assert!(sim.books().balanced(), "{:?}", sim.books());
        }
        says(
            &texts,
            &[
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
            ],
        );
    }
}
