//! The words the steps are told in: a request, its chooser, counts, and
//! what FoundationDB's balancers and membership changes did.

use crate::engine::{Happening, Whose};
use crate::fdb::Action;
use crate::scenario::Change;
use crate::time::Time;

/// "request 2/10 of session 41 (client 7)".
pub(super) fn words(request: &Whose) -> String {
    let Whose { request: r, length, session, client, .. } = request;
    format!("request {r}/{length} of session {session} (client {client})")
}

/// Who chose the request's server: its balancer, or its client.
pub(super) fn chooser(request: &Whose) -> String {
    match request.balancer {
        Some(b) => format!("balancer {b}"),
        None => format!("client {}", request.client),
    }
}

pub(super) fn counted(n: usize, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (_, "hedged copy") => format!("{n} hedged copies"),
        _ => format!("{n} {what}s"),
    }
}

pub(super) fn ended() -> String {
    "an event for a session that has already ended".into()
}

/// What FoundationDB's balancers did in `happened`, in words, at `now`;
/// `None` when they did nothing.
pub(super) fn did_words(happened: &[Happening], now: Time) -> Option<String> {
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
pub(super) fn action_words(action: Action, now: Time) -> String {
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
pub(super) fn change_words(change: Change, server: u32) -> String {
    match change {
        Change::Add => format!("server {server} is added"),
        Change::Remove(s) => {
            format!("server {s} is removed: it finishes what it holds and takes nothing new")
        }
        Change::Crash(s) => format!("server {s} crashes: what it held goes back to be placed again"),
        Change::Restore(s) => format!("server {s} is restored"),
    }
}
