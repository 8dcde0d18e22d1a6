//! Numbers and lists as the sentences say them: "12,345", "4.1 ms",
//! "29.8%", "0.27× (0.24–0.29)", "Servers 2, 5 and 7".

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

/// Milliseconds for reading: "0.40 ms", "4.1 ms", "72 ms", "1.2 s".
pub fn ms(x: f64) -> String {
    match x {
        // An unstable queue's theoretical wait, worded as the command line words it.
        f64::INFINITY => "infinite".into(),
        x if x >= 1000.0 => format!("{} s", grouped(x / 1000.0, 1)),
        x if x >= 100.0 => format!("{x:.0} ms"),
        x if x >= 1.0 => format!("{x:.1} ms"),
        x => format!("{x:.2} ms"),
    }
}

/// A share as a percentage: "29.8%", and to the hundredth near either end,
/// so that 0.02% of requests failing still shows ("99.98%").
pub fn percent(share: f64) -> String {
    match share {
        0.0 => "0%".to_string(),
        1.0 => "100%".to_string(),
        x if (0.01..=0.99).contains(&x) => format!("{:.1}%", 100.0 * x),
        x => format!("{:.2}%", 100.0 * x),
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

/// "a", "a and b", "a, b and c".
pub fn and_list(items: impl IntoIterator<Item = String>) -> String {
    listed(items, "and")
}

/// "a", "a or b", "a, b or c".
pub fn or_list(items: impl IntoIterator<Item = String>) -> String {
    listed(items, "or")
}

fn listed(items: impl IntoIterator<Item = String>, last_word: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {last_word} {last}", rest.join(", ")),
        None => String::new(),
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

/// 12345 as "12,345".
pub fn thousands(n: u64) -> String {
    group_digits(&n.to_string())
}

/// `x` to `decimals` places with its whole part grouped in threes
/// ("15,080.4"): the one way a number is written in a sentence or a
/// readout, where "15080" reads as a code rather than a count.
pub fn grouped(x: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", x.abs());
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, format!(".{fraction}")),
        None => (text.as_str(), String::new()),
    };
    // A negative that rounds to zero is written "0", not "-0".
    let sign = if x < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') { "-" } else { "" };
    format!("{sign}{}{fraction}", group_digits(whole))
}

/// Commas between each three of a run of digits, from the right.
fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
