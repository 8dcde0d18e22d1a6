//! `basicLoadBalance` (`fdbrpc/include/fdbrpc/LoadBalance.actor.h`): one
//! request at a time, to a random best alternative first and then to the
//! others in the order of the [`Walk`]; a broken connection moves on to the
//! next alternative, with a backoff once every alternative has had a try;
//! any other error goes to the caller. FoundationDB uses it for the proxies,
//! whose list is always fresh, so with every alternative down it waits for
//! one to come back however long that takes.
//!
//! The seed's flowchart draws both that wait and the backoff as "Backoff";
//! the source waits for a server to come up when none is healthy (and then
//! forgets the attempts so far), and backs off between attempts.
//!
//! The source picks the best alternative with probabilities it adjusts from
//! the proxies' reported busyness (`ModelInterface`); they start equal, and
//! this model keeps them so: the best is uniform.

use super::{grown_backoff, Action, Alternatives, Context, ErrorKind, Event, Walk};
use crate::rng::Draw;
use crate::time::Time;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// There were no alternatives: the request never completes.
    Never,
    /// Every alternative is failed; waiting for one to come up.
    Waiting,
    /// Backing off before sending to this alternative.
    BackingOff { alt: usize },
    /// Sent to this alternative; waiting for its reply.
    Sent { alt: usize },
    /// The caller has its reply or its error.
    Done,
}

/// One request under `basicLoadBalance`.
#[derive(Clone, Debug)]
pub struct BasicLoadBalance {
    alternatives: Arc<Alternatives>,
    walk: Walk,
    /// The request must not run twice: a connection broken after sending is
    /// the caller's to judge.
    at_most_once: bool,
    attempts: usize,
    backoff: Time,
    stage: Stage,
}

impl BasicLoadBalance {
    /// Starts the request, and says what to do first.
    pub fn start(
        alternatives: Arc<Alternatives>,
        at_most_once: bool,
        cx: &mut Context,
    ) -> (Self, Vec<Action>) {
        let size = alternatives.len();
        let (walk, stage) = if size == 0 {
            // Never walked: a walk needs an alternative.
            (Walk::new(1, 0, 0), Stage::Never)
        } else {
            let best = cx.rng.index(size);
            (Walk::random_from(size, best, cx.rng), Stage::Waiting)
        };
        let mut balancer =
            BasicLoadBalance { alternatives, walk, at_most_once, attempts: 0, backoff: Time::ZERO, stage };
        let mut actions = Vec::new();
        if stage != Stage::Never {
            balancer.attempt(cx, &mut actions);
        }
        (balancer, actions)
    }

    /// True once the caller has a reply or an error.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// True when there were no alternatives: nothing will ever happen.
    pub fn is_never(&self) -> bool {
        self.stage == Stage::Never
    }

    pub fn on(&mut self, event: Event, cx: &mut Context) -> Vec<Action> {
        let mut actions = Vec::new();
        match (self.stage, event) {
            (Stage::Waiting, Event::AlternativeUp) if self.alternatives.any_up(cx.monitor) => {
                self.attempts = 0;
                self.walk.advance();
                self.attempt(cx, &mut actions);
            }
            (Stage::BackingOff { alt }, Event::BackoffDone) => self.send(alt, &mut actions),
            (Stage::Sent { alt }, Event::Reply { server, error, .. })
                if server == self.alternatives.server(alt) =>
            {
                match error {
                    None => self.finish(Action::Deliver { server }, &mut actions),
                    Some(ErrorKind::BrokenPromise | ErrorKind::RequestMaybeDelivered)
                        if self.at_most_once =>
                    {
                        self.finish(Action::Fail(ErrorKind::RequestMaybeDelivered), &mut actions)
                    }
                    Some(ErrorKind::BrokenPromise | ErrorKind::RequestMaybeDelivered) => {
                        self.attempts += 1;
                        if self.attempts >= self.alternatives.len() {
                            self.backoff = grown_backoff(self.backoff);
                        }
                        self.walk.advance();
                        self.attempt(cx, &mut actions);
                    }
                    Some(kind) => self.finish(Action::Fail(kind), &mut actions),
                }
            }
            _ => {}
        }
        actions
    }

    /// The top of the source's loop: the first alternative of the walk that
    /// the failure monitor believes up, after the backoff if there is one.
    fn attempt(&mut self, cx: &Context, actions: &mut Vec<Action>) {
        let up = (0..self.alternatives.len()).find_map(|_| {
            let alt = self.walk.current();
            let up = !cx.monitor.is_failed(self.alternatives.server(alt));
            if !up {
                self.walk.advance();
            }
            up.then_some(alt)
        });
        match up {
            None => {
                self.stage = Stage::Waiting;
                actions.push(Action::Wait { until: Time::NEVER });
            }
            Some(alt) if self.backoff > Time::ZERO => {
                self.stage = Stage::BackingOff { alt };
                actions.push(Action::Backoff { until: cx.now + self.backoff });
            }
            Some(alt) => self.send(alt, actions),
        }
    }

    fn send(&mut self, alt: usize, actions: &mut Vec<Action>) {
        self.stage = Stage::Sent { alt };
        actions.push(Action::Send { server: self.alternatives.server(alt) });
    }

    fn finish(&mut self, action: Action, actions: &mut Vec<Action>) {
        self.stage = Stage::Done;
        actions.push(action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fdb::testing::{answered, broken, sent_to, servers, value, Bench, APPENDIX, MS};
    use crate::rng::SimRng;

    #[test]
    fn no_alternatives_never_completes() {
        let mut bench = Bench::new(1);
        let (mut balancer, actions) = bench.basic(&servers(0), false);
        assert!(actions.is_empty());
        assert!(balancer.is_never());
        for event in [Event::AlternativeUp, Event::BackoffDone, value(0)] {
            assert!(bench.on_basic(&mut balancer, event).is_empty());
        }
        assert!(!balancer.is_done());
    }

    #[test]
    fn a_healthy_pick_is_sent_and_its_reply_delivered() {
        let mut bench = Bench::new(1);
        let (mut balancer, actions) = bench.basic(&servers(3), false);
        let server = sent_to(&actions);
        // A reply from a server it did not ask changes nothing.
        assert!(bench.on_basic(&mut balancer, value((server + 1) % 3)).is_empty());
        assert_eq!(bench.on_basic(&mut balancer, value(server)), [Action::Deliver { server }]);
        assert!(balancer.is_done());
    }

    #[test]
    fn an_exception_is_passed_to_the_caller() {
        for kind in [ErrorKind::Exception, ErrorKind::FutureVersion, ErrorKind::ProcessBehind] {
            let mut bench = Bench::new(2);
            let (mut balancer, actions) = bench.basic(&servers(3), false);
            let reply = answered(sent_to(&actions), kind);
            assert_eq!(bench.on_basic(&mut balancer, reply), [Action::Fail(kind)]);
            assert!(balancer.is_done());
        }
    }

    #[test]
    fn a_broken_connection_leads_to_the_next_alternative_then_a_backoff_and_a_retry() {
        let mut bench = Bench::new(3);
        let (mut balancer, actions) = bench.basic(&servers(2), false);
        let first = sent_to(&actions);
        // One alternative tried of two: straight on to the other.
        let other = sent_to(&bench.on_basic(&mut balancer, broken(first)));
        assert_eq!(other, 1 - first);
        // Both tried: 10 ms of backoff, then the first again; then 20 ms.
        bench.now = Time(7 * MS.0);
        assert_eq!(
            bench.on_basic(&mut balancer, broken(other)),
            [Action::Backoff { until: Time(17 * MS.0) }]
        );
        assert_eq!(bench.on_basic(&mut balancer, Event::BackoffDone), [Action::Send { server: first }]);
        assert_eq!(
            bench.on_basic(&mut balancer, broken(first)),
            [Action::Backoff { until: Time(27 * MS.0) }]
        );
        assert_eq!(bench.on_basic(&mut balancer, Event::BackoffDone), [Action::Send { server: other }]);
        assert_eq!(bench.on_basic(&mut balancer, value(other)), [Action::Deliver { server: other }]);
    }

    #[test]
    fn a_request_that_may_run_once_gives_the_caller_maybe_delivered() {
        let mut bench = Bench::new(4);
        let (mut balancer, actions) = bench.basic(&servers(3), true);
        let reply = broken(sent_to(&actions));
        assert_eq!(bench.on_basic(&mut balancer, reply), [Action::Fail(ErrorKind::RequestMaybeDelivered)]);
    }

    #[test]
    fn with_no_healthy_alternative_it_waits_for_one_to_come_up() {
        let mut bench = Bench::new(5);
        for server in 0..3 {
            bench.monitor.set_failed(server, true);
        }
        let (mut balancer, actions) = bench.basic(&servers(3), false);
        assert_eq!(actions, [Action::Wait { until: Time::NEVER }]);
        // Some other server coming up does not end the wait.
        bench.monitor.set_failed(7, false);
        assert!(bench.on_basic(&mut balancer, Event::AlternativeUp).is_empty());
        bench.monitor.set_failed(2, false);
        assert_eq!(bench.on_basic(&mut balancer, Event::AlternativeUp), [Action::Send { server: 2 }]);
    }

    #[test]
    fn failed_alternatives_are_passed_over_in_the_walk() {
        let mut bench = Bench::new(6);
        bench.monitor.set_failed(1, true);
        let (mut balancer, actions) = bench.basic(&servers(3), false);
        let mut sent = vec![sent_to(&actions)];
        for _ in 0..2 {
            let last = *sent.last().unwrap();
            sent.push(sent_to(&bench.on_basic(&mut balancer, broken(last))));
        }
        // The two up alternate; the third attempt (of three alternatives) starts the backoff.
        assert!(!sent.contains(&1));
        assert_eq!(sent[0], sent[2]);
        let backoff = bench.on_basic(&mut balancer, broken(sent[2]));
        assert_eq!(backoff, [Action::Backoff { until: Time(10 * MS.0) }]);
    }

    /// A generator seed whose first two draws over `size` alternatives are
    /// `best` and the walk's `draw`, as the appendix script drew them.
    fn seed_drawing(size: usize, best: usize, draw: usize) -> u64 {
        (0..)
            .find(|&seed| {
                let mut rng = SimRng::new(seed);
                rng.index(size) == best && rng.index(size - 1) == draw
            })
            .unwrap()
    }

    #[test]
    fn the_alternatives_are_tried_in_the_order_the_appendix_prints() {
        for run in APPENDIX {
            let (size, order) = (run.size, run.order);
            let mut bench = Bench::new(seed_drawing(size, run.best_alt, run.draw));
            let (mut balancer, actions) = bench.basic(&servers(size), false);
            let mut sent = vec![sent_to(&actions)];
            // Every connection breaks: one pass round, then a backoff and the next.
            while sent.len() < 2 * size {
                let mut actions = bench.on_basic(&mut balancer, broken(*sent.last().unwrap()));
                if let [Action::Backoff { .. }] = actions[..] {
                    actions = bench.on_basic(&mut balancer, Event::BackoffDone);
                }
                sent.push(sent_to(&actions));
            }
            assert_eq!(&sent[..size], order);
            assert_eq!(&sent[size..], order);
        }
    }
}
