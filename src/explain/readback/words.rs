//! Numbers and lists as only the sentences say them: "0.27× (0.24–0.29)",
//! "Servers 2, 5 and 7", "twice"; how any number is written ("12,345",
//! "4.1 ms", "29.8%") is `crate::format`'s.

use crate::format::{and_list, grouped, thousands};
use crate::metrics::Interval;
use crate::scenario::Change;

/// A ratio within this factor of 1 reads as "about the same".
const SAME_WITHIN: f64 = 1.05;

/// Simulated seconds for reading: "0.4", "7.5", "30".
pub(super) fn seconds(s: f64) -> String {
    match s < 10.0 {
        true => format!("{s:.1}"),
        false => grouped(s, 0),
    }
}

/// "3.8× lower than with random", "1.4× higher", "about the same as with
/// random (0.98×)"; `than` names what `reference` is (or is empty).
pub(super) fn compare(value: f64, reference: f64, than: &str) -> String {
    let (than, as_) = match than.is_empty() {
        true => (String::new(), String::new()),
        false => (format!(" than {than}"), format!(" as {than}")),
    };
    if value <= 0.0 || reference <= 0.0 {
        return match (value > 0.0, reference > 0.0) {
            (false, false) => format!("zero, the same{as_}"),
            (false, true) => format!("zero, lower{than}"),
            _ => format!("higher{than}, where that is zero"),
        };
    }
    let ratio = value / reference;
    if ratio < 1.0 / SAME_WITHIN {
        format!("{:.1}× lower{than}", 1.0 / ratio)
    } else if ratio > SAME_WITHIN {
        format!("{ratio:.1}× higher{than}")
    } else {
        format!("about the same{as_} ({ratio:.2}×)")
    }
}

/// "0.27× (0.24–0.29)": a ratio and its 95% interval, when there is one.
pub(super) fn times(ratio: &Interval) -> String {
    match ratio.bounds() {
        Some((low, high)) => format!("{:.2}× ({low:.2}–{high:.2})", ratio.estimate),
        None => format!("{:.2}×", ratio.estimate),
    }
}

/// "Server 0", "Servers 2 and 5", "Servers 0, 1 and 2", "7 servers".
pub(super) fn named(servers: &[usize]) -> String {
    match servers {
        [one] => format!("Server {one}"),
        [_, _] | [_, _, _] => format!("Servers {}", and_list(servers.iter().map(usize::to_string))),
        _ => format!("{} servers", servers.len()),
    }
}

/// "once", "twice", "3 times".
pub(super) fn times_said(n: u64) -> String {
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{} times", thousands(n)),
    }
}

/// A membership change in a few words, done and to come: ("a server
/// joined", "a server joins").
pub(super) fn change_words(change: Change) -> (String, String) {
    let (server, done, coming) = match change {
        Change::Add => return ("a server joined".into(), "a server joins".into()),
        Change::Remove(s) => (s, "left", "leaves"),
        Change::Crash(s) => (s, "crashed", "crashes"),
        Change::Restore(s) => (s, "came back", "comes back"),
    };
    (format!("server {server} {done}"), format!("server {server} {coming}"))
}

/// "no bounce yet", "1 bounce", "1,024 bounces".
pub(super) fn bounces(n: u64) -> String {
    match n {
        0 => "no bounce yet".to_string(),
        1 => "1 bounce".to_string(),
        n => format!("{} bounces", thousands(n)),
    }
}

/// How often requests bounced, as a reader takes it in: "1.8 for every
/// request" once there are more bounces than requests (a request can
/// bounce several times, and "1,796.3 for every thousand" reads as more
/// than all of them), else "12.3 for every thousand requests".
pub(super) fn bounce_rate(bounces: u64, requests: u64) -> String {
    let per_request = bounces as f64 / requests.max(1) as f64;
    match per_request >= 1.0 {
        true => format!("{} for every request", grouped(per_request, 1)),
        false => format!("{:.1} for every thousand requests", 1000.0 * per_request),
    }
}
