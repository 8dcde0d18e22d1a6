//! Readable summaries for people.

use lbsim::metrics::Distribution;
use lbsim::{Scenario, Summary};
use std::fmt::Write;

pub fn summary(scenario: &Scenario, summary: &Summary, wall_s: f64) -> String {
    let mut out = String::new();
    let c = &summary.counts;
    let _ = writeln!(
        out,
        "policy {} · {} servers × {} slots · {} clients · {} balancers · load {} · seed {}",
        summary.policy,
        scenario.servers,
        scenario.slots,
        scenario.clients,
        scenario.balancers,
        scenario.load,
        summary.seed
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
        let _ = writeln!(out, "  failed ({reason:?}): {count}");
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
    if summary.decision_staleness_ms.count > 0 {
        let _ = writeln!(out, "{}", row("staleness", &summary.decision_staleness_ms));
    }
    let per_server = &summary.completed_per_server;
    if let (Some(min), Some(max)) = (per_server.iter().min(), per_server.iter().max()) {
        let _ = writeln!(
            out,
            "\ncompleted per server: min {min}, max {max} · mean load cv {:.3} · trace {}",
            summary.mean_load_cv, summary.trace_hash
        );
    }
    out
}

/// Simulated seconds to a tenth, or to a millisecond below ten seconds.
fn seconds(s: f64) -> String {
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
        let live = if field.live { " (live)" } else { "" };
        let _ = writeln!(
            out,
            "{}{live}\n    {}\n    default {}; {}",
            field.key,
            field.help,
            field.default_text(),
            field.allowed()
        );
    }
    out
}

/// The same, as the Markdown table in the README.
pub fn fields_markdown() -> String {
    let mut out = String::from("| field | default | allowed | live | meaning |\n|---|---|---|---|---|\n");
    for field in lbsim::scenario::FIELDS {
        let live = if field.live { "yes" } else { "" };
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {} | {live} | {} |",
            field.key,
            field.default_text(),
            field.allowed(),
            field.help
        );
    }
    out
}

pub fn policies() -> String {
    lbsim::scenario::PolicyKind::ALL.iter().map(|p| format!("{:<20}{}\n", p.name(), p.describe())).collect()
}
