//! Attempts: requests a feature sends for its own while the request it
//! works for waits at its chooser (FoundationDB's balancers send them,
//! `feature/fdb/`). An attempt travels, queues and is served like any
//! request, named by a [`Flight`] of its own; its reply goes back to the
//! feature that sent it ([`Report::Replied`]), not on to the client.
//!
//! [`Report::Replied`]: super::feature::Report

use super::feature::FeatureId;
use super::flight::Flight;
use super::requests::{Origin, Request};
use super::Outcome;

/// A request a feature sent for its own.
pub struct Attempt {
    /// The feature that sent it, which hears its reply.
    pub feature: FeatureId,
    /// What the feature named it by, given back with its reply.
    pub token: u64,
    /// Which of its request's attempts it is, from 0.
    pub index: u16,
    pub origin: Origin,
    pub outcome: Outcome,
    pub request: Request,
}

/// The attempts out, by place; freed places are reused.
#[derive(Default)]
pub struct Attempts {
    out: Vec<Option<Attempt>>,
    free: Vec<u32>,
}

impl Attempts {
    /// Keeps `attempt`; returns its place.
    pub fn send(&mut self, attempt: Attempt) -> u32 {
        match self.free.pop() {
            Some(place) => {
                self.out[place as usize] = Some(attempt);
                place
            }
            None => {
                self.out.push(Some(attempt));
                (self.out.len() - 1) as u32
            }
        }
    }

    /// Takes the attempt at `place` out, its reply back.
    pub fn take(&mut self, place: u32) -> Option<Attempt> {
        let attempt = self.out.get_mut(place as usize)?.take()?;
        self.free.push(place);
        Some(attempt)
    }

    pub fn get(&self, place: u32) -> Option<&Attempt> {
        self.out.get(place as usize)?.as_ref()
    }

    pub fn get_mut(&mut self, place: u32) -> Option<&mut Attempt> {
        self.out.get_mut(place as usize)?.as_mut()
    }

    /// The attempts out, each as its flight.
    pub fn flights(&self) -> impl Iterator<Item = Flight> + '_ {
        let out = self.out.iter().enumerate().filter(|(_, a)| a.is_some());
        out.map(|(place, _)| Flight::attempt(place as u32))
    }

    /// How many attempts are out.
    pub fn count(&self) -> u64 {
        (self.out.len() - self.free.len()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::requests::Outstanding;
    use crate::time::Time;

    fn attempt(token: u64) -> Attempt {
        let session = Outstanding::first(0, None, 0, 1, Time::ZERO, (0, 1.0));
        let request = Request::new(Time::ZERO, (0, 1.0));
        let origin = session.origin();
        Attempt { feature: FeatureId::Fdb, token, index: 0, origin, outcome: Outcome::Ok, request }
    }

    #[test]
    fn a_place_freed_by_a_reply_is_sent_again_and_counted_once() {
        let mut attempts = Attempts::default();
        let (first, second) = (attempts.send(attempt(1)), attempts.send(attempt(2)));
        assert_eq!(attempts.take(first).map(|a| a.token), Some(1));
        assert!(attempts.take(first).is_none());
        assert_eq!(attempts.send(attempt(3)), first);
        assert_eq!(attempts.count(), 2);
        let flights: Vec<Flight> = attempts.flights().collect();
        assert_eq!(flights, [Flight::attempt(first), Flight::attempt(second)]);
    }
}
