//! Each kind of event, told: what the step's happenings say it did.

use super::words::{change_words, chooser, counted, did_words, ended, words};
use super::Teller;
use crate::engine::{Event, Happening, Outcome, Reply, SendBack, Whose};
use crate::scenario::Scenario;
use crate::time::Time;

impl Teller<'_> {
    pub(super) fn session_start(&mut self) -> String {
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

    pub(super) fn attempt_heard(&mut self, request: &Whose, server: u32, reply: Reply) -> String {
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

    pub(super) fn hedge(&mut self) -> String {
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

    pub(super) fn at_balancer(&mut self) -> String {
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

    pub(super) fn refused_a_copy(&self) -> bool {
        let refused = self.find(|h| matches!(h, Happening::Refused { .. }).then_some(())).is_some();
        refused && self.find(|h| matches!(h, Happening::CopyDropped { .. }).then_some(())).is_some()
    }

    pub(super) fn at_server(&mut self) -> String {
        let place = self.step.flight();
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

    pub(super) fn queue_timeout(&mut self, server: u32, scenario: &Scenario) -> String {
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

    pub(super) fn service_done(&mut self) -> String {
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

    pub(super) fn back_at_chooser(&mut self) -> String {
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
    pub(super) fn at_client(&mut self) -> String {
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

    pub(super) fn retry_due(&mut self) -> String {
        let sent = self.find(|h| match h {
            Happening::Sent { request, server } => Some((*request, *server)),
            _ => None,
        });
        let Some((request, server)) = sent else { return ended() };
        self.involve(&request, None);
        format!("the backoff of {} is over: it is placed again, at server {server}", words(&request))
    }

    /// A step of the scenario's schedules, or of the simulation's own clocks.
    pub(super) fn scheduled(&mut self) -> String {
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
