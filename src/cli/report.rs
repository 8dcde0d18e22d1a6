//! Readable summaries for people.

use lbsim::engine::Comparison;
use lbsim::metrics::{Distribution, Interval};
use lbsim::theory::Theory;
use lbsim::{Scenario, Summary};
use std::fmt::Write;

/// A run's figures for people; `replayed`, its requests were a trace's,
/// so the header names no load of the scenario's (the trace set it).
pub fn summary(scenario: &Scenario, summary: &Summary, wall_s: f64, replayed: bool) -> String {
    let mut out = String::new();
    let c = &summary.counts;
    let load =
        if replayed { "arrivals from the trace".to_string() } else { format!("load {}", scenario.load) };
    let _ = writeln!(
        out,
        "policy {} · {} servers × {} slots · {} clients · {} balancers · {load} · seed {}",
        summary.policy, scenario.servers, scenario.slots, scenario.clients, scenario.balancers, summary.seed
    );
    let _ = writeln!(
        out,
        "simulated {} s ({} s measured after warm-up) · {} events in {:.2} s wall ({:.1} M events/s)",
        seconds(summary.simulated_s),
        seconds(summary.measured_s),
        summary.events,
        wall_s,
        summary.events as f64 / wall_s.max(1e-9) / 1e6
    );
    let _ = writeln!(
        out,
        "requests: {} created, {} completed, {} failed, {} in flight · {} bounces · {:.1} completed/s",
        c.created, c.completed, c.failed, summary.in_flight, c.bounces, summary.throughput
    );
    for (reason, count) in &summary.failures {
        let _ = writeln!(out, "  failed ({reason}): {count}");
    }
    if c.refused + c.server_errors + c.retried > 0 {
        let errors: Vec<String> = summary.errors.iter().map(|(kind, n)| format!("{n} {kind:?}")).collect();
        let _ = writeln!(
            out,
            "errors heard: {} · {} retries · {} attempts per request · availability {} · {} ejections",
            if errors.is_empty() { "none".into() } else { errors.join(", ") },
            summary.retries,
            summary.attempts_per_request.map_or("n/a".into(), |a| format!("{a:.3}")),
            summary.availability.map_or("n/a (no request ended)".into(), |a| format!("{:.4}%", 100.0 * a)),
            c.outliers.ejections
        );
    }
    if let Some(share) = summary.local_share() {
        let _ = writeln!(
            out,
            "across datacenters: {:.2}% of {} sends stayed in the sender's own",
            100.0 * share,
            summary.counts.locality.sent_local + summary.counts.locality.sent_remote
        );
    }
    let _ = writeln!(
        out,
        "waited in a queue: {:.2}% of {} requests that reached a slot",
        100.0 * summary.waited_share,
        summary.queue_ms.count
    );
    for warning in &summary.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
    let _ = writeln!(
        out,
        "\n{:<12}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}{:>10}",
        "ms", "mean", "p0", "p50", "p90", "p99", "p99.9", "p100", "count"
    );
    for (name, d) in [
        ("latency", &summary.latency_ms),
        ("queue time", &summary.queue_ms),
        ("session", &summary.session_ms),
    ] {
        let _ = writeln!(out, "{}", row(name, d));
    }
    if summary.failure_latency_ms.count > 0 {
        let _ = writeln!(out, "{}", row("failures", &summary.failure_latency_ms));
    }
    if summary.decision_staleness_ms.count > 0 {
        let _ = writeln!(out, "{}", row("staleness", &summary.decision_staleness_ms));
    }
    for (i, class) in summary.classes.iter().enumerate() {
        let _ = writeln!(
            out,
            "class {i} ({:.2}% of requests, mean service {:.2} ms, priority {}): queue time mean {:.2} p50 {:.2} p99 {:.2} · latency p50 {:.2} p99 {:.2} ms · {:.4} timeouts per request",
            100.0 * class.share,
            class.mean_service_ms,
            class.priority,
            class.queue_ms.mean,
            class.queue_ms.p50,
            class.queue_ms.p99,
            class.latency_ms.p50,
            class.latency_ms.p99,
            class.timeouts_per_request
        );
    }
    if let Some(h) = &summary.hedging {
        let _ = writeln!(
            out,
            "hedging: {:.2}% of requests sent a copy, {:.1}% of races won by the copy · extra work {:.2}% of the service that answered",
            100.0 * h.hedge_rate,
            100.0 * h.copies_won,
            100.0 * h.extra_work
        );
    }
    if let Some(ratio) = summary.starvation {
        let _ =
            writeln!(out, "starvation: the lowest priority's mean queue time is {ratio:.2}× the highest's");
    }
    let _ = write!(out, "{}", membership(summary));
    let _ = write!(out, "{}", confidence(summary));
    if let Some(theory) = &summary.theory {
        let _ = write!(out, "{}", theory_beside(theory, summary));
    }
    let per_server = &summary.completed_per_server;
    if let (Some(min), Some(max)) = (per_server.iter().min(), per_server.iter().max()) {
        let _ = writeln!(
            out,
            "\ncompleted per server: min {min}, max {max} · mean load cv {:.3} · trace {}",
            summary.mean_load_cv, summary.trace_hash
        );
        let i = &summary.imbalance;
        let _ = writeln!(
            out,
            "imbalance of work across servers per 250 ms: cv {:.3}, {:.0}% persistent, {:.0}% temporal · lag-1 autocorrelation {:.2}",
            i.cv,
            100.0 * i.persistent_share,
            100.0 * (1.0 - i.persistent_share),
            i.autocorrelation
        );
    }
    out
}

/// A line per membership change (keys moved against the ideal, requests
/// sent where a lagging table no longer says), and the spread of key
/// shares and loads under a key-placing policy.
fn membership(summary: &Summary) -> String {
    let mut out = String::new();
    for c in &summary.membership {
        let _ = write!(
            out,
            "membership at {} s: {} server {} ({} → {} members)",
            seconds(c.at_s),
            match c.change {
                lbsim::scenario::Change::Add => "add",
                lbsim::scenario::Change::Remove(_) => "remove",
                lbsim::scenario::Change::Crash(_) => "crash",
                lbsim::scenario::Change::Restore(_) => "restore",
            },
            c.server,
            c.members_before,
            c.members_after
        );
        if let (Some(moved), Some(ideal)) = (c.keys_moved, c.keys_ideal) {
            let _ = write!(out, " · keys moved {moved:.4} (ideal {ideal:.4})");
        }
        if c.crash_replaced > 0 {
            let _ = write!(out, " · {} requests placed again", c.crash_replaced);
        }
        if c.routed_during_lag > 0 {
            let _ = write!(
                out,
                " · during the table's lag {} of {} requests went elsewhere than the table says",
                c.misrouted, c.routed_during_lag
            );
        }
        let _ = writeln!(out);
    }
    if let Some(k) = &summary.key_spread {
        let over = k.chooser_pool.map_or("members".into(), |n| {
            format!("chooser 0's pool of {n} server{}", if n == 1 { "" } else { "s" })
        });
        let _ = writeln!(
            out,
            "key share across {over} ({}): sd/mean {:.3}, max/mean {:.3} · completed requests: sd/mean {:.3}, max/mean {:.3}",
            k.keys, k.key_share_cv, k.key_share_max_over_mean, k.load_cv, k.load_max_over_mean
        );
    }
    out
}

/// The headline figures with their 95% intervals.
fn confidence(summary: &Summary) -> String {
    let c = &summary.confidence;
    if c.batches < 2 {
        return format!(
            "95% intervals need at least 2 batches of {} s after the warm-up; this run has {}\n",
            seconds(c.batch_s),
            c.batches
        );
    }
    format!(
        "95% intervals (batch means, {} batches of {} s): queue time mean {} ms, p99 {} ms · latency p99 {} ms · {} completed/s\n",
        c.batches,
        seconds(c.batch_s),
        plus_minus(&c.queue_ms.mean),
        plus_minus(&c.queue_ms.p99),
        plus_minus(&c.latency_ms.p99),
        plus_minus(&c.throughput),
    )
}

/// The model's mean wait and probability of waiting beside the measured ones.
fn theory_beside(theory: &Theory, summary: &Summary) -> String {
    let mut out = String::new();
    let exactly = if theory.caveats.is_empty() { "exactly" } else { "near" };
    let _ = writeln!(out, "\ntheory: this scenario is {exactly} {}", theory.model);
    // An unstable queue's wait is infinite, which `{:.1}` would print as `inf`.
    let wait = match theory.mean_wait_ms {
        w if !w.is_finite() => "infinite".into(),
        w if w >= 100.0 => format!("{w:.1} ms"),
        w => format!("{w:.3} ms"),
    };
    let _ = writeln!(
        out,
        "  mean queue time: theory {wait} · measured {} ms",
        plus_minus(&summary.confidence.queue_ms.mean)
    );
    if let Some(share) = theory.waited_share {
        let _ =
            writeln!(out, "  share that waited: theory {share:.4} · measured {:.4}", summary.waited_share);
    }
    for caveat in &theory.caveats {
        let _ = writeln!(out, "  near, not exact: {caveat}");
    }
    out
}

/// `12.34 ± 0.56`, with the digits the interval justifies (at least two).
fn plus_minus(interval: &Interval) -> String {
    match interval.half_width {
        Some(h) if h > 0.0 => {
            let decimals = (1 - h.log10().floor() as i32).clamp(0, 6) as usize;
            format!("{:.*} ± {:.*}", decimals, interval.estimate, decimals, h)
        }
        _ => format!("{:.2}", interval.estimate),
    }
}

/// B over A, figure by figure.
pub fn comparison(vs: &[(String, String)], a: &Summary, b: &Summary, c: &Comparison) -> String {
    let mut out = String::new();
    let changes: Vec<String> = vs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(out, "B ({}) over A · {}", changes.join(", "), seeds(a.seed, b.seed));
    let _ = match c.batches {
        0 | 1 => writeln!(
            out,
            "no intervals: they need at least 2 batches of {} s after the warm-up in both runs; run longer\n",
            seconds(c.batch_s)
        ),
        k => writeln!(
            out,
            "95% intervals by batch means over {k} batches of {} s, paired batch by batch\n",
            seconds(c.batch_s)
        ),
    };
    let _ = writeln!(out, "{:<20}{:>12}{:>12}{:>22}{:>22}", "", "A", "B", "B / A", "95% interval");
    let rows = [
        ("queue time p99 ms", a.queue_ms.p99, b.queue_ms.p99, c.queue_p99),
        ("queue time mean ms", a.queue_ms.mean, b.queue_ms.mean, c.queue_mean),
        ("latency p99 ms", a.latency_ms.p99, b.latency_ms.p99, c.latency_p99),
        ("completed/s", a.throughput, b.throughput, c.throughput),
    ];
    for (name, a, b, ratio) in rows {
        let bounds = ratio.bounds().map_or("–".into(), |(low, high)| format!("{low:.3} to {high:.3}"));
        let _ = writeln!(out, "{name:<20}{a:>12.2}{b:>12.2}{:>22}{bounds:>22}", ratio_text(&ratio));
    }
    let bounces = c.bounces.map_or("– (none in A)".into(), |r| format!("{r:.3}"));
    let (a_bounces, b_bounces) = c.measured_bounces;
    let _ = writeln!(
        out,
        "{:<20}{a_bounces:>12}{b_bounces:>12}{bounces:>22}{:>22}",
        "bounces", "(not per batch)"
    );
    out
}

/// The seeds A and B ran: one for both (common random numbers), or each its own.
pub fn seeds(a: u64, b: u64) -> String {
    if a == b {
        format!("common random numbers: both seed {a}")
    } else {
        format!("independent seeds: A {a}, B {b}")
    }
}

fn ratio_text(ratio: &Interval) -> String {
    if ratio.estimate.is_nan() {
        "– (A is zero)".into()
    } else {
        format!("{:.3}", ratio.estimate)
    }
}

/// Simulated seconds to a tenth, or to a millisecond below ten seconds.
pub fn seconds(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.3}")
    } else {
        format!("{s:.1}")
    }
}

fn row(name: &str, d: &Distribution) -> String {
    format!(
        "{:<12}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>10}",
        name, d.mean, d.p0, d.p50, d.p90, d.p99, d.p999, d.p100, d.count
    )
}

pub fn sweep_header(key: &str) -> String {
    format!(
        "{:<16}{:>12}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}{:>9}",
        key,
        "completed/s",
        "lat p50",
        "lat p99",
        "queue p50",
        "queue p99",
        "sess p50",
        "sess p99",
        "bounces",
        "failed"
    )
}

pub fn sweep_row(value: &str, s: &Summary) -> String {
    format!(
        "{:<16}{:>12.1}{:>10.2}{:>10.2}{:>10.2}{:>10.2}{:>10.2}{:>10.2}{:>10}{:>9}",
        value,
        s.throughput,
        s.latency_ms.p50,
        s.latency_ms.p99,
        s.queue_ms.p50,
        s.queue_ms.p99,
        s.session_ms.p50,
        s.session_ms.p99,
        s.counts.bounces,
        s.counts.failed
    )
}

pub fn fields() -> String {
    let mut out = String::new();
    for field in lbsim::scenario::FIELDS {
        let live = if field.is_live() { " (live)" } else { "" };
        let _ = writeln!(
            out,
            "{}{live}\n    {}\n    default {}; {}",
            field.key,
            field.help.text(),
            field.default_text(),
            field.allowed()
        );
    }
    out
}

/// The same, as the Markdown table in docs/model.md.
pub fn fields_markdown() -> String {
    let mut out = String::from("| field | default | allowed | live | meaning |\n|---|---|---|---|---|\n");
    for field in lbsim::scenario::FIELDS {
        let live = if field.is_live() { "yes" } else { "" };
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {} | {live} | {} |",
            field.key,
            field.default_text(),
            field.allowed(),
            field.help.text()
        );
    }
    out
}

pub fn policies() -> String {
    use lbsim::scenario::PolicyKind;
    let width = PolicyKind::NAMES.iter().map(|name| name.len()).max().unwrap_or(0) + 2;
    PolicyKind::ALL.iter().map(|p| format!("{:<width$}{}\n", p.name(), p.describe())).collect()
}

/// Every preset, with what it shows, under the name of the system it
/// stands for (lbsim's own first), a blank line between systems.
pub fn presets() -> String {
    let groups = lbsim::presets::by_system().into_iter().map(|(system, presets)| {
        let heading =
            system.map_or("lbsim's own scenarios".to_string(), |name| format!("{name} (docs/proxies.md)"));
        let entries: String =
            presets.iter().map(|p| format!("  {}\n      {}\n", p.name, p.description())).collect();
        format!("{heading}\n{entries}")
    });
    groups.collect::<Vec<_>>().join("\n")
}

/// The capacity table, then each policy's load-versus-p99 points.
pub fn capacity(
    base: &Scenario,
    objective: &lbsim::capacity::Objective,
    outcomes: &[lbsim::capacity::Outcome],
    wall_s: f64,
    threads: usize,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "effective capacity at {} · seed {} · {} s per probe (4× when the p99's interval straddles the target) · {wall_s:.1} s wall on {threads} threads\n",
        objective.describe(),
        base.seed,
        seconds(base.duration_s)
    );
    let _ = writeln!(
        out,
        "{:<22}{:>10}{:>12}{:>22}{:>8}",
        "policy", "capacity", "req/s", "p99 there (ms)", "probes"
    );
    for o in outcomes {
        let at = o.capacity.and_then(|c| o.probes.iter().find(|p| p.load == c));
        let p99 = at.and_then(|p| p.p99_ms).map_or("–".into(), |p| plus_minus(&p));
        let capacity = match o.capacity {
            Some(c) if c >= 1.0 => "1 (all)".into(),
            Some(c) => format!("{c:.3}"),
            None => "< 0.05".into(),
        };
        let rate = o.requests_per_sec.map_or("–".into(), |r| format!("{r:.0}"));
        let _ = writeln!(out, "{:<22}{capacity:>10}{rate:>12}{p99:>22}{:>8}", o.policy, o.probes.len());
    }
    let _ = writeln!(out, "\nload → p99 (ms), per probe:");
    for o in outcomes {
        let points: Vec<String> = o
            .probes
            .iter()
            .map(|p| {
                format!(
                    "{:.3}→{}",
                    p.load,
                    p.p99_ms.map_or("halted".into(), |i| format!("{:.1}", i.estimate))
                )
            })
            .collect();
        let _ = writeln!(out, "  {}: {}", o.policy, points.join(", "));
    }
    out
}
