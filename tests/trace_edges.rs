//! A trace's edges: the rate over time of a trace too short for one or
//! cut short at its end.

use lbsim::trace::{Report, TraceOptions};

fn report(text: &str) -> String {
    Report::read("t.csv", text.as_bytes(), TraceOptions::default(), |_| {}).unwrap().text(None)
}

#[test]
fn a_rate_needs_two_rows_and_a_last_bin_is_divided_by_its_own_width() {
    let one = report("time_s\n0.5\n");
    assert!(one.starts_with("trace t.csv: 1 request, at 0.500 s; a rate needs two rows or more\n"), "{one}");
    assert!(!one.contains("rate over time"), "{one}");
    let instant = report("time_s\n0.5\n0.5\n");
    assert!(
        instant
            .starts_with("trace t.csv: 2 requests, all at 0.500 s; a rate needs rows at two times or more\n"),
        "{instant}"
    );
    assert!(!instant.contains("rate over time"), "{instant}");
    // 100 a second for 12.33 s: bins of 0.2 s, the last from 12.2 s ending
    // a mean gap (10 ms) after the last arrival, so 0.14 s wide.
    let steady: String = (0..1234).map(|i| format!("{}.{:02}\n", i / 100, i % 100)).collect();
    let text = report(&format!("time_s\n{steady}"));
    assert!(
        text.contains("rate over time, a second, in 62 bins of 0.2 s, the last 0.140 s to a mean gap past the last arrival: 100.0 to 100.0\n"),
        "{text}"
    );
}
