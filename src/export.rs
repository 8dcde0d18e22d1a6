//! Figures to take away, as CSV: the live series (percentiles, throughput,
//! bounces, availability, errors, failures and spread over time) and each server's share of the work. The
//! command line and the browser write the same files, named after the
//! scenario, its seed and the version of lbsim that made them.

use crate::metrics::SamplePoint;
use crate::Summary;
use std::fmt::Write;

/// `continuous-random_seed-7_lbsim-0.1.0_series.csv` for `series.csv`: what a
/// file holds, and where it came from. Characters other than letters,
/// digits, `-` and `_` in the scenario's name become `-`.
pub fn file_name(scenario: &str, seed: u64, what: &str) -> String {
    let scenario: String = scenario
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect();
    format!("{scenario}_seed-{seed}_lbsim-{}_{what}", env!("CARGO_PKG_VERSION"))
}

pub const SERIES_HEADER: &str = "time_s,queue_p50_ms,queue_p90_ms,queue_p99_ms,latency_p50_ms,latency_p90_ms,latency_p99_ms,session_p50_ms,session_p90_ms,session_p99_ms,completed_per_s,bounces_per_s,load_cv,busy_slots,queued,availability,errors_per_s,failed_per_s";

/// One row per sample (every 250 simulated ms); percentiles, availability,
/// error responses per second and failed requests per second (the lab's
/// "errors/s" under bounces and "failed/s" under availability) over the
/// second before the sample (availability NaN when no request ended in
/// it), the other rates over the 250 ms before it.
pub fn series_csv<'a>(points: impl IntoIterator<Item = &'a SamplePoint>) -> String {
    let mut out = format!("{SERIES_HEADER}\n");
    for p in points {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{:.6},{},{},{},{},{}",
            p.time_ms / 1000.0,
            p.queue_p50,
            p.queue_p90,
            p.queue_p99,
            p.latency_p50,
            p.latency_p90,
            p.latency_p99,
            p.session_p50,
            p.session_p90,
            p.session_p99,
            p.throughput,
            p.bounce_rate,
            p.load_cv,
            p.busy_slots,
            p.queued,
            p.availability,
            p.error_rate,
            p.failure_rate
        );
    }
    out
}

pub const SERVERS_HEADER: &str = "server,completed,mean_busy_slots,mean_queued";

/// One row per server: requests completed after the warm-up, and busy slots
/// and queue length averaged over the samples after it.
pub fn servers_csv(summary: &Summary) -> String {
    let mut out = format!("{SERVERS_HEADER}\n");
    let rows = summary
        .completed_per_server
        .iter()
        .zip(&summary.mean_busy_per_server)
        .zip(&summary.mean_queued_per_server);
    for (server, ((completed, busy), queued)) in rows.enumerate() {
        let _ = writeln!(out, "{server},{completed},{busy:.6},{queued:.6}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation, Time};

    #[test]
    fn files_are_named_after_their_origin() {
        assert_eq!(
            file_name("p2c stale/2", 7, "series.csv"),
            format!("p2c-stale-2_seed-7_lbsim-{}_series.csv", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn one_row_per_sample_and_per_server_under_a_header() {
        let mut sim = Simulation::new(&Scenario::default()).unwrap();
        sim.advance_to(Time::from_secs(2.0), u64::MAX);
        let series = series_csv(&sim.metrics().series);
        let lines: Vec<&str> = series.lines().collect();
        assert_eq!(lines[0], SERIES_HEADER);
        assert_eq!(lines.len(), 1 + 8);
        assert!(lines[8].starts_with("2,"), "{}", lines[8]);
        assert!(lines.iter().all(|l| l.split(',').count() == 18));
        let servers = servers_csv(&sim.summary());
        assert_eq!(servers.lines().count(), 1 + Scenario::default().servers as usize);
        assert!(servers.lines().nth(1).unwrap().starts_with("0,"));
    }
}
