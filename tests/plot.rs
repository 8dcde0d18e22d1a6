//! `lbsim plot`, run as a user would run it: each chart's SVG file, parsed,
//! has its axis titles, its lines or bars, their names, and axis numbers
//! that fit what the run measured.

use roxmltree::{Document, Node};

#[path = "common/command.rs"]
mod command;

use command::lbsim;

/// Runs `lbsim plot` with `args` into `name.svg`; returns the file's text.
fn plot(name: &str, args: &[&str]) -> String {
    std::fs::create_dir_all(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = format!("{}/{name}.svg", env!("CARGO_TARGET_TMPDIR"));
    let out = lbsim(&[&["plot"], args, &["--out", &path]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("wrote {path}")), "{stderr}");
    std::fs::read_to_string(&path).unwrap()
}

/// The palette's light colours, as plotters writes them.
const INK: &str = "#1D232B";
const MUTED: &str = "#5C6470";
const REQUEST: &str = "#0072B2";
const P90: &str = "#E69F00";
const P99: &str = "#D55E00";

fn elements<'a>(svg: &'a Document, tag: &'a str) -> impl Iterator<Item = Node<'a, 'a>> {
    svg.descendants().filter(move |n| n.has_tag_name(tag))
}

/// Every text's words.
fn texts(svg: &Document) -> Vec<String> {
    elements(svg, "text").filter_map(|t| t.text()).map(|t| t.trim().to_string()).collect()
}

/// The texts in `colour`.
fn texts_in(svg: &Document, colour: &str) -> Vec<String> {
    let coloured = elements(svg, "text").filter(|t| t.attribute("fill") == Some(colour));
    coloured.filter_map(|t| t.text()).map(|t| t.trim().to_string()).collect()
}

/// The numbers of one axis's tick labels, in order: the y axis's are
/// anchored at their end, the x axis's at their middle.
fn ticks(svg: &Document, anchor: &str) -> Vec<f64> {
    let labels = elements(svg, "text")
        .filter(|t| t.attribute("fill") == Some(MUTED) && t.attribute("text-anchor") == Some(anchor));
    // Ticks are written as sentences write numbers: "1,200".
    labels.filter_map(|t| t.text()?.trim().replace(',', "").parse().ok()).collect()
}

/// Each polyline drawn in `colour`, `width` pixels wide, as its points.
fn lines(svg: &Document, colour: &str, width: &str) -> Vec<Vec<(f64, f64)>> {
    let drawn = elements(svg, "polyline")
        .filter(|l| l.attribute("stroke") == Some(colour) && l.attribute("stroke-width") == Some(width));
    drawn
        .map(|l| {
            let points = l.attribute("points").unwrap_or_default().split_whitespace();
            let point = |xy: &str| {
                let (x, y) = xy.split_once(',').expect("x,y");
                (x.parse().unwrap(), y.parse().unwrap())
            };
            points.map(point).collect()
        })
        .collect()
}

/// The longest of `lines`' point counts: a solid line is one polyline, a
/// dashed one a polyline per dash.
fn longest(lines: &[Vec<(f64, f64)>]) -> usize {
    lines.iter().map(Vec::len).max().unwrap_or(0)
}

/// The mean height on the page of `lines`' points (larger is lower).
fn mean_y(lines: &[Vec<(f64, f64)>]) -> f64 {
    let ys: Vec<f64> = lines.iter().flatten().map(|(_, y)| *y).collect();
    ys.iter().sum::<f64>() / ys.len() as f64
}

fn rising(numbers: &[f64]) -> bool {
    numbers.first() == Some(&0.0) && numbers.windows(2).all(|w| w[0] < w[1])
}

/// A summary figure of the same run, from `lbsim run --json`.
fn measured(args: &[&str], pointer: &str) -> f64 {
    let out = lbsim(&[&["run"], args, &["--json"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json.pointer(pointer).and_then(|v| v.as_f64()).expect(pointer)
}

/// Twenty simulated seconds: 80 samples of the live series.
const RUN: [&str; 5] = ["continuous-random", "--duration", "20", "--seed", "3"];

#[test]
fn percentiles_draw_p50_p90_and_p99_over_the_whole_run() {
    let text = plot("percentiles", &[&RUN[..], &["--chart", "percentiles"]].concat());
    let svg = Document::parse(&text).unwrap();
    // Random routing is near M/M/10 at each server: theory's mean wait is drawn as a level.
    let theory =
        lbsim::theory::of(&lbsim::presets::Preset::find("continuous-random").unwrap().scenario().unwrap())
            .unwrap()
            .mean_wait_ms;
    let level = format!("theory: mean wait {theory:.1} ms");
    // The level is named in a legend above the chart, where no curve covers it.
    assert_eq!(texts_in(&svg, INK), [level.as_str(), "queue time (ms)", "simulated time (s)"]);
    for name in ["p50", "p90", "p99"] {
        assert!(texts(&svg).iter().any(|t| t == name), "{name} is named");
    }
    // p99 solid, a point per sample; p90 dashed and p50 dotted, in pieces.
    assert_eq!(longest(&lines(&svg, P99, "3")), 80);
    assert!(lines(&svg, P90, "3").len() > 20);
    assert!(lines(&svg, REQUEST, "3").len() > 20);
    let (x, y) = (ticks(&svg, "middle"), ticks(&svg, "end"));
    assert!(rising(&x) && (15.0..=21.2).contains(x.last().unwrap()), "{x:?}");
    // Queue time never exceeds the 100 ms queue timeout by much.
    assert!(rising(&y) && (10.0..=150.0).contains(y.last().unwrap()), "{y:?}");
}

#[test]
fn a_replayed_trace_gets_no_theory_level() {
    // Theory describes the scenario's own arrivals, not a trace's: the
    // summary leaves it out of a replay, and so does the chart.
    let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/traces/on-off.csv");
    let args = [&RUN[..], &["--chart", "percentiles", "--trace", trace, "--trace-speed", "50"]].concat();
    let svg_text = plot("percentiles-trace", &args);
    let svg = Document::parse(&svg_text).unwrap();
    assert_eq!(texts_in(&svg, INK), ["queue time (ms)", "simulated time (s)"]);
    assert!(!svg_text.contains("theory"));
}

#[test]
fn percentiles_mark_failures_recoveries_and_servers_joining_and_leaving() {
    let args = [
        &RUN[..],
        &[
            "--chart",
            "percentiles",
            "--set",
            "failures=5s:down:3:for=4s",
            "--set",
            "membership=14s:add,17s:remove:1",
        ],
    ]
    .concat();
    let text = plot("events", &args);
    let svg = Document::parse(&text).unwrap();
    let marked = texts_in(&svg, MUTED);
    for label in ["server 3 down", "server 3 recovers", "server 10 joins", "server 1 leaves"] {
        assert!(marked.iter().any(|t| t == label), "{label} in {marked:?}");
    }
}

#[test]
fn percentiles_of_latency_on_their_own_axis() {
    let text = plot("latency", &[&RUN[..], &["--chart", "percentiles", "--metric", "latency"]].concat());
    let svg = Document::parse(&text).unwrap();
    assert_eq!(texts_in(&svg, INK), ["latency (ms)", "simulated time (s)"]);
    assert_eq!(longest(&lines(&svg, P99, "3")), 80);
    // Latency holds the service time (20 ms mean) and the network's.
    let y = ticks(&svg, "end");
    assert!(rising(&y) && *y.last().unwrap() >= 40.0, "{y:?}");
}

#[test]
fn percentiles_of_session_time_on_their_own_axis() {
    let text = plot("session", &[&RUN[..], &["--chart", "percentiles", "--metric", "session"]].concat());
    let svg = Document::parse(&text).unwrap();
    assert_eq!(texts_in(&svg, INK), ["session time (ms)", "simulated time (s)"]);
    assert_eq!(longest(&lines(&svg, P99, "3")), 80);
    // A session is ten requests one after another: hundreds of milliseconds.
    let y = ticks(&svg, "end");
    assert!(rising(&y) && *y.last().unwrap() >= 400.0, "{y:?}");
}

#[test]
fn clients_draw_session_time_from_p0_to_p100() {
    let text = plot("clients", &[&RUN[..], &["--chart", "clients"]].concat());
    let svg = Document::parse(&text).unwrap();
    assert_eq!(texts_in(&svg, INK), ["session time (ms)", "percentile of sessions (p0 fastest)"]);
    let curves = lines(&svg, REQUEST, "3");
    assert_eq!(curves.len(), 1);
    assert_eq!(curves[0].len(), 101, "p0 to p100");
    let x = ticks(&svg, "middle");
    assert!(rising(&x) && x.last() == Some(&100.0), "{x:?}");
    // The axis reaches past half the slowest session and not far beyond it.
    let slowest = measured(&RUN, "/summary/session_ms/p100");
    let top = *ticks(&svg, "end").last().unwrap();
    assert!(top >= slowest / 2.0 && top <= slowest * 1.6, "top tick {top}, slowest {slowest}");
}

#[test]
fn load_draws_a_bar_pair_per_server_and_its_legend() {
    let text = plot("load", &[&RUN[..], &["--chart", "load", "--set", "servers=12"]].concat());
    let svg = Document::parse(&text).unwrap();
    let ink = texts_in(&svg, INK);
    assert_eq!(
        ink,
        ["in service", "queued", "slots per server", "requests at server", "servers, busiest first"]
    );
    let filled = |colour| elements(&svg, "rect").filter(|r| r.attribute("fill") == Some(colour)).count();
    // A bar of each colour per server, and the legend's swatch.
    assert_eq!((filled(REQUEST), filled(P90)), (13, 13));
    // The x axis counts servers up to the twelfth.
    let x = ticks(&svg, "middle");
    assert!(rising(&x) && (6.0..=12.0).contains(x.last().unwrap()), "{x:?}");
    // The y axis reaches the ten slots' line.
    let y = ticks(&svg, "end");
    assert!(rising(&y) && *y.last().unwrap() >= 10.0, "{y:?}");
}

#[test]
fn compare_overlays_a_and_b_named_by_their_settings() {
    let args = [&RUN[..], &["--chart", "compare", "--vs", "policy=power-of-d"]].concat();
    let svg_text = plot("compare", &args);
    let svg = Document::parse(&svg_text).unwrap();
    let ink = texts_in(&svg, INK);
    assert_eq!(
        ink,
        [
            "A: policy=random",
            "B: policy=power-of-d",
            "common random numbers: both seed 3",
            "queue time (ms)",
            "simulated time (s)"
        ]
    );
    assert!(texts(&svg).iter().any(|t| t == "A p99") && texts(&svg).iter().any(|t| t == "B p99"));
    // B solid, a point per sample; A dashed, and higher: power of two
    // choices cuts random's p99 queue time.
    let (a, b) = (lines(&svg, MUTED, "3"), lines(&svg, REQUEST, "3"));
    assert_eq!(longest(&b), 80);
    assert!(a.len() > 20);
    let b_line: Vec<_> = b.into_iter().filter(|l| l.len() == 80).collect();
    assert!(mean_y(&a) < mean_y(&b_line), "A's p99 is drawn above B's");
}

/// The figure says which seeds A and B ran, as `lbsim compare` does: the
/// same (common random numbers) unless `--independent-seeds` gives B the
/// next.
#[test]
fn compare_names_the_seeds_each_side_ran() {
    let args =
        [&RUN[..], &["--chart", "compare", "--vs", "policy=power-of-d", "--independent-seeds"]].concat();
    let svg = plot("compare-independent", &args);
    let ink = texts_in(&Document::parse(&svg).unwrap(), INK);
    assert_eq!(ink[..3], ["A: policy=random", "B: policy=power-of-d", "independent seeds: A 3, B 4"]);
}

#[test]
fn compare_of_sessions_overlays_both_client_experience_curves() {
    let args =
        [&RUN[..], &["--chart", "compare", "--vs", "policy=power-of-d", "--metric", "session"]].concat();
    let svg_text = plot("compare-sessions", &args);
    let svg = Document::parse(&svg_text).unwrap();
    let ink = texts_in(&svg, INK);
    assert_eq!(
        ink,
        [
            "A: policy=random",
            "B: policy=power-of-d",
            "common random numbers: both seed 3",
            "session time (ms)",
            "percentile of sessions (p0 fastest)"
        ]
    );
    assert_eq!(longest(&lines(&svg, REQUEST, "3")), 101);
    assert!(lines(&svg, MUTED, "3").len() > 20, "A is dashed");
}

#[test]
fn the_dark_theme_draws_on_the_dark_panel() {
    let text = plot("dark", &[&RUN[..], &["--chart", "clients", "--theme", "dark"]].concat());
    let svg = Document::parse(&text).unwrap();
    let background = elements(&svg, "rect").next().unwrap();
    assert_eq!(background.attribute("fill"), Some("#1B1F25"));
    assert_eq!(lines(&svg, "#B3E0FF", "3").len(), 1);
}

#[test]
fn a_wrong_option_is_one_line_naming_it_and_what_it_allows() {
    let path = format!("{}/never.svg", env!("CARGO_TARGET_TMPDIR"));
    for (args, message) in [
        (vec!["--chart", "pie"], "lbsim: --chart takes percentiles, waits, clients, load or compare, not `pie`\n"),
        (vec![], "lbsim: plot needs --chart percentiles, waits, clients, load or compare\n"),
        (
            vec!["--chart", "compare"],
            "lbsim: --chart compare needs at least one --vs key=value, or --vs-preset NAME: what B changes from A\n",
        ),
    ] {
        let out = lbsim(&[&["plot", "default", "--out", &path], &args[..]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), message);
        assert!(!std::path::Path::new(&path).exists());
    }
}
