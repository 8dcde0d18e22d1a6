//! The charts at the sizes a page gives them, drawn to SVG and read back:
//! no text is clipped or drawn over. A short chart (an explainer's queue
//! time, about 80 px tall) shortens its axis titles rather than clip them;
//! the names at the lines' ends stay inside a live chart whose time axis
//! scrolls; the theory level's name sits clear of the curves; marks of
//! changes never overprint; a legend wraps rather than drop an entry.
#![cfg(feature = "cli")]

use lbsim::capacity::{Objective, Outcome, Probe};
use lbsim::charts::{self, ChartStyle, Marker, Palette, SeriesMetric, Span};
use lbsim::metrics::Interval;
use lbsim::metrics::SamplePoint;
use lbsim::{Scenario, Simulation, Time};
use plotters::prelude::*;
use roxmltree::Document;

const STYLE: ChartStyle = ChartStyle { palette: Palette::LIGHT, scale: 1.0, type_scale: 1.0 };

/// A text of the SVG: its words, where it is anchored, how, its size and
/// whether it is turned on its side.
#[derive(Debug)]
struct Text {
    words: String,
    x: f64,
    y: f64,
    anchor: String,
    /// How it is shifted across its line ("0.76em": it hangs from its
    /// anchor; "0.5ex": centred on it; "-0.5ex": it stands on it).
    dy: String,
    size: f64,
    upright: bool,
}

impl Text {
    /// Its extent along its line, estimated at 0.6 of its size a character.
    fn length(&self) -> f64 {
        self.words.chars().count() as f64 * self.size * 0.6
    }

    /// Where it starts and ends along its line.
    fn extent(&self, at: f64) -> (f64, f64) {
        match self.anchor.as_str() {
            "middle" => (at - self.length() / 2.0, at + self.length() / 2.0),
            "end" => (at - self.length(), at),
            _ => (at, at + self.length()),
        }
    }

    /// Where it lies across its line, given its anchor there.
    fn across(&self, at: f64) -> (f64, f64) {
        match self.dy.as_str() {
            "0.76em" => (at, at + self.size),
            "0.5ex" => (at - self.size / 2.0, at + self.size / 2.0),
            _ => (at - self.size, at),
        }
    }

    /// Its box on the page: left, top, right, bottom.
    fn bounds(&self) -> (f64, f64, f64, f64) {
        match self.upright {
            true => {
                let ((left, right), (top, bottom)) = (self.extent(self.x), self.across(self.y));
                (left, top, right, bottom)
            }
            // Turned a quarter anticlockwise: it reads upwards, and what
            // hangs below its line lies to the right.
            false => {
                let ((left, right), (top, bottom)) = (self.across(self.x), self.extent(self.y));
                (left, top, right, bottom)
            }
        }
    }
}

fn texts_of(svg: &str) -> Vec<Text> {
    let document = Document::parse(svg).unwrap();
    let number =
        |node: roxmltree::Node, name| node.attribute(name).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    document
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| Text {
            words: n.text().unwrap_or_default().trim().to_string(),
            x: number(n, "x"),
            y: number(n, "y"),
            anchor: n.attribute("text-anchor").unwrap_or("start").to_string(),
            dy: n.attribute("dy").unwrap_or_default().to_string(),
            size: number(n, "font-size"),
            upright: n.attribute("transform").is_none(),
        })
        .collect()
}

/// The y of every point of every polyline at least `width` wide.
fn line_ys(svg: &str, width: &str) -> Vec<f64> {
    let document = Document::parse(svg).unwrap();
    let lines = document
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some(width));
    let points: Vec<String> = lines.map(|l| l.attribute("points").unwrap_or_default().to_string()).collect();
    points
        .iter()
        .flat_map(|p| p.split_whitespace())
        .filter_map(|xy| xy.split_once(',').and_then(|(_, y)| y.parse().ok()))
        .collect()
}

/// Draws with `draw` on an SVG of `size`; returns its text.
fn svg(size: (u32, u32), draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>)) -> String {
    let mut text = String::new();
    {
        let area = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&area);
        area.present().unwrap();
    }
    text
}

/// The live series of `seconds` simulated seconds of `scenario`.
fn series(scenario: &Scenario, seconds: f64) -> Vec<SamplePoint> {
    let mut sim = Simulation::new(scenario).unwrap();
    sim.advance_to(Time::from_secs(seconds), u64::MAX);
    sim.metrics().series.iter().copied().collect()
}

fn assert_inside(texts: &[Text], (width, height): (u32, u32)) {
    for text in texts {
        let (left, top, right, bottom) = text.bounds();
        let inside = left >= -0.5
            && top >= -0.5
            && right <= f64::from(width) + 0.5
            && bottom <= f64::from(height) + 0.5;
        assert!(inside, "{:?} lies at {:?}, outside {width} × {height}", text.words, text.bounds());
    }
}

#[test]
fn a_short_chart_shortens_its_axis_titles_rather_than_clip_them() {
    let series = series(&Scenario::default(), 20.0);
    let size = (420, 80);
    let drawn = svg(size, |area| {
        let theory = Some(12.0);
        charts::percentiles(area, &series, (SeriesMetric::QueueTime, theory), Span::Live, &[], &STYLE)
            .unwrap();
    });
    let texts = texts_of(&drawn);
    let words: Vec<&str> = texts.iter().map(|t| t.words.as_str()).collect();
    assert!(!words.contains(&"queue time (ms)") && !words.contains(&"simulated time (s)"), "{words:?}");
    assert!(words.contains(&"ms"), "the y axis keeps its unit: {words:?}");
    assert_inside(&texts, size);
    // At an ordinary height the titles are whole.
    let tall = svg((420, 260), |area| {
        charts::percentiles(area, &series, (SeriesMetric::QueueTime, None), Span::Live, &[], &STYLE).unwrap();
    });
    let words: Vec<String> = texts_of(&tall).into_iter().map(|t| t.words).collect();
    assert!(
        words.contains(&"queue time (ms)".to_string()) && words.contains(&"simulated time (s)".to_string())
    );
}

#[test]
fn a_narrow_chart_in_large_type_shortens_its_x_title_rather_than_clip_it() {
    // The presenter's client-experience chart in a compare column at
    // 1280 × 720: 330 px wide, its type 1.32 times larger, cut its title
    // at "percentile of sessions (p0 fastest".
    let curve: Vec<f64> = (0..=100).map(|p| 200.0 + 4.0 * f64::from(p)).collect();
    let size = (330, 240);
    let style = ChartStyle { type_scale: ChartStyle::type_scale_for(330.0, true), ..STYLE };
    let drawn = svg(size, |area| {
        charts::clients(area, &curve, None, &style).unwrap();
    });
    let texts = texts_of(&drawn);
    assert_inside(&texts, size);
    assert!(texts.iter().any(|t| t.words == "percentile of sessions"), "{texts:?}");
}

#[test]
fn the_lines_names_stay_inside_a_live_chart_whose_axis_scrolls() {
    // Past half a minute the newest sample is at the right of the axis.
    let series = series(&Scenario::default(), 75.0);
    for size in [(320, 200), (480, 240), (900, 300)] {
        let drawn = svg(size, |area| {
            charts::percentiles(area, &series, (SeriesMetric::QueueTime, None), Span::Live, &[], &STYLE)
                .unwrap();
        });
        let texts = texts_of(&drawn);
        let names: Vec<&Text> =
            texts.iter().filter(|t| ["p50", "p90", "p99"].contains(&t.words.as_str())).collect();
        assert_eq!(names.len(), 3, "{size:?}");
        assert_inside(&texts, size);
        // Never on top of each other.
        for (a, b) in names.iter().zip(names.iter().skip(1)) {
            assert!((a.y - b.y).abs() >= a.size, "{size:?}: {} and {} overprint", a.words, b.words);
        }
    }
}

/// At a phone's width the three names sat 13 px apart in 12 px type, so
/// a "p" hanging below its line touched the digits of the name under it
/// wherever the curves ran close: names are a line (1.2 of their size)
/// apart, whatever the curves, the chart's size or its type. (The browser's
/// canvas writes a name at the size the chart gives; plotters' SVG writes
/// that size over 1.24, which `CANVAS_PX` undoes.)
/// A text's size in the browser's canvas for each unit of its SVG size.
const CANVAS_PX: f64 = 1.24;

#[test]
fn the_lines_names_of_curves_that_meet_stand_a_line_apart() {
    let level = |ms: f64| {
        (0..=40).map(move |i| SamplePoint {
            time_ms: f64::from(i) * 250.0,
            queue_p50: ms,
            queue_p90: ms + 0.5,
            queue_p99: ms + 1.0,
            ..SamplePoint::default()
        })
    };
    for ms in [0.0, 20.0, 40.0] {
        let series: Vec<SamplePoint> = level(ms).collect();
        for (size, type_scale) in [((337, 200), 1.0), ((320, 160), 1.0), ((600, 240), 1.3)] {
            let style = ChartStyle { type_scale, ..STYLE };
            let drawn = svg(size, |area| {
                charts::percentiles(
                    area,
                    &series,
                    (SeriesMetric::QueueTime, Some(40.0)),
                    Span::Live,
                    &[],
                    &style,
                )
                .unwrap();
            });
            let texts = texts_of(&drawn);
            assert_inside(&texts, size);
            let mut names: Vec<&Text> =
                texts.iter().filter(|t| ["p50", "p90", "p99"].contains(&t.words.as_str())).collect();
            assert_eq!(names.len(), 3, "{size:?}");
            names.sort_by(|a, b| a.y.total_cmp(&b.y));
            for pair in names.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let (apart, type_px) = (b.y - a.y, a.size * CANVAS_PX);
                assert!(
                    apart >= 1.2 * type_px,
                    "{size:?} at {ms} ms: {} and {} are {apart} px apart in {type_px:.1} px type",
                    a.words,
                    b.words,
                );
            }
        }
    }
}

/// Compare mode's percentile chart of A's and B's queue times, at `size`:
/// its SVG and the names of the lines it drew.
fn compare_chart(
    sides: &[Vec<SamplePoint>; 2],
    size: (u32, u32),
    style: &ChartStyle,
) -> (String, Vec<String>) {
    let mut drawn_names = Vec::new();
    let drawn = svg(size, |area| {
        let plotted = (SeriesMetric::QueueTime, None);
        drawn_names =
            charts::compare_percentiles(area, [&sides[0], &sides[1]], plotted, Span::Live, &[], style)
                .unwrap();
    });
    (drawn, drawn_names)
}

#[test]
fn compare_mode_draws_both_runs_lines_each_named_with_its_side() {
    let mut power = Scenario::default();
    power.set("policy", "power-of-d").unwrap();
    let sides = [series(&power, 20.0), series(&Scenario::default(), 20.0)];
    let size = (480, 260);
    let (drawn, mut drawn_names) = compare_chart(&sides, size, &STYLE);
    drawn_names.sort_unstable();
    assert_eq!(drawn_names, ["A p50", "A p90", "A p99", "B p50", "B p90", "B p99"]);
    let texts = texts_of(&drawn);
    assert_inside(&texts, size);
    let mut names: Vec<&Text> = texts.iter().filter(|t| drawn_names.contains(&t.words)).collect();
    assert_eq!(names.len(), 6);
    names.sort_by(|a, b| a.y.total_cmp(&b.y));
    for (a, b) in names.iter().zip(names.iter().skip(1)) {
        assert!(b.y - a.y >= a.size, "{} and {} overprint", a.words, b.words);
    }
    // A's lines are 2.5 px wide, B's thinner (1.5 px, drawn 2 px wide).
    assert!(!line_ys(&drawn, "3").is_empty() && !line_ys(&drawn, "2").is_empty());
}

/// Under an embed's two pictures (chapter 5: power of two beside random)
/// the chart draws each run's p50 and p99, four lines named by the run
/// they belong to ("power of two choices p99", "random p99"), or, where a
/// chart is too narrow for those names beside its plot, by the run's
/// letter, as the pictures' titles give it ("A p99"): at every size each
/// name lies inside the chart, on no other text.
#[test]
fn a_twins_chart_names_each_runs_p50_and_p99_by_its_run_inside_the_chart() {
    let mut power = Scenario::default();
    power.set_many([("policy", "power-of-d"), ("load", "0.9")]).unwrap();
    let mut random = power.clone();
    random.set("policy", "random").unwrap();
    let sides = [series(&power, 20.0), series(&random, 20.0)];
    let full = ["power of two choices p50", "power of two choices p99", "random p50", "random p99"];
    for (size, named) in [((800, 300), true), ((620, 260), true), ((480, 220), true), ((340, 200), false)] {
        let mut drawn_names = Vec::new();
        let drawn = svg(size, |area| {
            let sides = [("power of two choices", &sides[0]), ("random", &sides[1])];
            let plotted = (SeriesMetric::QueueTime, None);
            drawn_names = charts::twin_percentiles(area, sides, plotted, Span::Live, &[], &STYLE).unwrap();
        });
        drawn_names.sort_unstable();
        match named {
            true => assert_eq!(drawn_names, full, "{size:?}"),
            false => assert_eq!(drawn_names, ["A p50", "A p99", "B p50", "B p99"], "{size:?}"),
        }
        let texts = texts_of(&drawn);
        assert_inside(&texts, size);
        let (names, others): (Vec<&Text>, Vec<&Text>) =
            texts.iter().partition(|t| drawn_names.contains(&t.words));
        assert_eq!(names.len(), 4, "{size:?}");
        for (i, name) in names.iter().enumerate() {
            for other in others.iter().chain(&names[i + 1..]) {
                assert_apart(name, other, size);
            }
        }
    }
}

/// A line's name and another text of a chart of `size` share no area.
fn assert_apart(name: &Text, other: &Text, size: (u32, u32)) {
    assert!(
        !overlap(name.bounds(), other.bounds()),
        "{size:?}: {:?} at {:?} overprints {:?} at {:?}",
        name.words,
        name.bounds(),
        other.words,
        other.bounds()
    );
}

/// Whether two texts' boxes (left, top, right, bottom) share any area.
fn overlap(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

#[test]
fn the_lines_names_crowded_near_zero_stay_above_the_axis_and_its_ticks() {
    // Three seconds in, A's lines (power of two) all lie near zero: their
    // six names, moved apart, spread below the axis onto the tick "10"
    // in a presenter's chart 330 × 200 (its type 1.32 times larger).
    let mut power = Scenario::default();
    power.set("policy", "power-of-d").unwrap();
    let sides = [series(&power, 3.0), series(&Scenario::default(), 3.0)];
    for (size, presenting) in [
        ((330, 200), true),
        ((360, 220), true),
        ((330, 260), true),
        ((440, 250), true),
        ((360, 240), false),
        ((300, 200), false),
    ] {
        let style =
            ChartStyle { type_scale: ChartStyle::type_scale_for(f64::from(size.0), presenting), ..STYLE };
        let (drawn, drawn_names) = compare_chart(&sides, size, &style);
        let texts = texts_of(&drawn);
        assert_inside(&texts, size);
        let (names, others): (Vec<&Text>, Vec<&Text>) =
            texts.iter().partition(|t| drawn_names.contains(&t.words));
        assert_eq!(names.len(), 6);
        for name in &names {
            for other in &others {
                assert_apart(name, other, size);
            }
        }
    }
}

#[test]
fn the_theory_level_is_named_above_the_curves() {
    let series = series(&Scenario::default(), 20.0);
    let drawn = svg((800, 450), |area| {
        let theory = Some(13.4);
        charts::percentiles_figure(
            area,
            &series,
            (SeriesMetric::QueueTime, theory),
            Span::Whole,
            &[],
            &STYLE,
        )
        .unwrap();
    });
    let texts = texts_of(&drawn);
    let label = texts.iter().find(|t| t.words == "theory: mean wait 13.4 ms").expect("named");
    let highest = line_ys(&drawn, "3").into_iter().fold(f64::INFINITY, f64::min);
    assert!(
        label.bounds().3 < highest,
        "the label (bottom {}) is above every curve (top {highest})",
        label.bounds().3
    );
    // Only queue time has a theory level; the canvas's own chart leaves its name to the page's legend.
    for (metric, figure) in [(SeriesMetric::Latency, true), (SeriesMetric::QueueTime, false)] {
        let drawn = svg((800, 450), |area| {
            let theory = (metric, Some(13.4));
            match figure {
                true => charts::percentiles_figure(area, &series, theory, Span::Whole, &[], &STYLE),
                false => charts::percentiles(area, &series, theory, Span::Whole, &[], &STYLE),
            }
            .unwrap();
        });
        assert!(!drawn.contains("theory"), "{metric:?}");
    }
}

/// A live queue-time chart of `size` over `series` with `marks`: its SVG
/// and its texts, every one inside it.
fn marked(series: &[SamplePoint], marks: &[Marker], size: (u32, u32)) -> (String, Vec<Text>) {
    let drawn = svg(size, |area| {
        charts::percentiles(area, series, (SeriesMetric::QueueTime, None), Span::Live, marks, &STYLE)
            .unwrap();
    });
    let texts = texts_of(&drawn);
    assert_inside(&texts, size);
    (drawn, texts)
}

#[test]
fn marks_of_changes_are_named_without_overprinting() {
    let mut scenario = Scenario::default();
    scenario.set("failures", "10s:down:3:for=2s, 14s:slow:1:x=0.5").unwrap();
    scenario.set("membership", "11s:add, 13s:remove:2").unwrap();
    let series = series(&scenario, 30.0);
    let events = charts::server_events(&scenario, 30.0);
    assert_eq!(events.len(), 5);
    let size = (480, 240);
    let (_, texts) = marked(&series, &events, size);
    let labels: Vec<&Text> = texts.iter().filter(|t| t.words.starts_with("server ")).collect();
    assert!(labels.len() >= 3, "{labels:?}");
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            let (a, b) = (a.bounds(), b.bounds());
            let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 + 1.0 || b.3 <= a.1 + 1.0;
            assert!(apart, "{a:?} and {b:?} overprint");
        }
    }
    // A mark at the newest instant is named to the left of its line.
    let late = [Marker { time_s: 29.9, label: "policy → power-of-d".to_string() }];
    let drawn = svg(size, |area| {
        charts::percentiles(area, &series, (SeriesMetric::QueueTime, None), Span::Live, &late, &STYLE)
            .unwrap();
    });
    assert!(drawn.contains("policy → power-of-d"));
    assert_inside(&texts_of(&drawn), size);
}

#[test]
fn the_capacity_legend_wraps_rather_than_drop_a_policy() {
    let probe = |load: f64, ms: f64| Probe {
        load,
        p99_ms: Some(Interval { estimate: ms, half_width: Some(ms * 0.1) }),
        simulated_s: 10.0,
        halted: false,
        holds: ms <= 50.0,
    };
    let outcome = |policy: &str, scale: f64| Outcome {
        policy: policy.to_string(),
        capacity: Some(0.6),
        requests_per_sec: None,
        probes: (1..10).map(|k| probe(f64::from(k) / 10.0, f64::from(k) * scale)).collect(),
    };
    let outcomes = [outcome("random", 12.0), outcome("round-robin", 9.0), outcome("power-of-d", 6.0)];
    for size in [(360, 260), (800, 260)] {
        let drawn = svg(size, |area| {
            charts::capacity(area, &outcomes, Objective { latency: false, ms: 50.0 }, &STYLE).unwrap();
        });
        let texts = texts_of(&drawn);
        for policy in ["random", "round-robin", "power-of-d"] {
            assert!(texts.iter().any(|t| t.words == policy), "{size:?}: {policy} is named");
        }
        assert_inside(&texts, size);
    }
}

/// The rectangles of the SVG filled with `fill` (`#rrggbb`) no taller
/// than `tallest`, as boxes (left, top, right, bottom): the chart's own
/// background, the whole area, is left out.
fn filled_rects(svg: &str, fill: &str, tallest: f64) -> Vec<(f64, f64, f64, f64)> {
    let document = Document::parse(svg).unwrap();
    let number =
        |node: roxmltree::Node, name| node.attribute(name).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    let rects = document.descendants().filter(|n| {
        n.has_tag_name("rect") && n.attribute("fill").is_some_and(|f| f.eq_ignore_ascii_case(fill))
    });
    let boxes = rects.map(|n| {
        let (x, y) = (number(n, "x"), number(n, "y"));
        (x, y, x + number(n, "width"), y + number(n, "height"))
    });
    boxes.filter(|b| b.3 - b.1 <= tallest).collect()
}

/// The x of each dashed vertical line drawn in `stroke`: the marks' lines
/// (a dash is a polyline of two points one above the other, shorter than
/// `longest`, which leaves out the axis; a line has several, where a tick
/// has one).
fn dashed_xs(svg: &str, stroke: &str, longest: f64) -> Vec<f64> {
    let document = Document::parse(svg).unwrap();
    let dashes: Vec<f64> = document
        .descendants()
        .filter(|n| {
            n.has_tag_name("polyline")
                && n.attribute("stroke").is_some_and(|s| s.eq_ignore_ascii_case(stroke))
        })
        .filter_map(|n| {
            let points: Vec<(f64, f64)> = n
                .attribute("points")?
                .split_whitespace()
                .filter_map(|xy| {
                    xy.split_once(',').and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                })
                .collect();
            match points[..] {
                [(x1, y1), (x2, y2)] if x1 == x2 && (y1 - y2).abs() < longest => Some(x1),
                _ => None,
            }
        })
        .collect();
    let mut xs: Vec<f64> =
        dashes.iter().copied().filter(|x| dashes.iter().filter(|d| *d == x).count() > 2).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    xs
}

/// Chapter 1's chart, 280 px wide, with a server slowed at 2.7 s and back
/// at 9 s (a reader's run): the two names lie closer than they are long.
/// Each is written whole, on one line or on two (its second line under its
/// first, at its left); their boxes stay apart, and where a line crosses a
/// name, a backdrop in the chart's background lies between them, so that
/// no line strikes through a name.
#[test]
fn names_of_close_marks_stay_apart_and_no_mark_s_line_strikes_through_them() {
    let series = series(&Scenario::default(), 13.0);
    let marks = [
        Marker { time_s: 2.7, label: "server 0 slow ×0.25".to_string() },
        Marker { time_s: 9.0, label: "server 0 recovers".to_string() },
    ];
    let (drawn, texts) = marked(&series, &marks, (280, 380));
    // Each name's box: its one line's, or its two lines' together.
    let boxes: Vec<(f64, f64, f64, f64)> = marks
        .iter()
        .map(|mark| {
            if let Some(whole) = texts.iter().find(|t| t.words == mark.label) {
                return whole.bounds();
            }
            let pairs = texts.iter().flat_map(|a| texts.iter().map(move |b| (a, b)));
            let (first, second) = pairs
                .filter(|(a, b)| a.x == b.x && b.y > a.y && format!("{} {}", a.words, b.words) == mark.label)
                .min_by(|p, q| (p.1.y - p.0.y).total_cmp(&(q.1.y - q.0.y)))
                .unwrap_or_else(|| panic!("{:?} is not written: {texts:?}", mark.label));
            let (a, b) = (first.bounds(), second.bounds());
            (a.0.min(b.0), a.1, a.2.max(b.2), b.3)
        })
        .collect();
    assert!(!overlap(boxes[0], boxes[1]), "{boxes:?} overprint");
    let lines = dashed_xs(&drawn, &STYLE.palette.muted.css(), 20.0);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let backdrops = filled_rects(&drawn, &STYLE.palette.panel.css(), 30.0);
    for (mark, (left, top, right, bottom)) in marks.iter().zip(boxes) {
        // Its own line is the one nearest its ends; the other crosses it.
        let distance = |x: f64| (x - left).abs().min((x - right).abs());
        let own = lines.iter().copied().min_by(|a, b| distance(*a).total_cmp(&distance(*b))).unwrap();
        for &x in lines.iter().filter(|&&x| x != own && left < x && x < right) {
            let backed =
                backdrops.iter().any(|b| b.0 < x && x < b.2 && b.1 <= top + 0.5 && bottom - 0.5 <= b.3);
            assert!(
                backed,
                "the line at x {x} strikes through {:?} at {:?}",
                mark.label,
                (left, top, right, bottom)
            );
        }
    }
}

/// Chapter 2's sessions chart, 290 × 390 at 1440 × 900 and 340 × 200 on
/// a phone: its y axis's title, "session time (ms)", stood under the
/// "1,000" of a curve past a second (reader 15). Every tick label stands
/// clear of the title, as long as its numbers run.
#[test]
fn the_y_axis_s_title_stands_clear_of_its_longest_tick_labels() {
    for top in [620.0, 1_160.0, 9_400.0] {
        let curve: Vec<f64> = (0..=100).map(|p| 200.0 + (top - 200.0) * f64::from(p) / 100.0).collect();
        for size in [(290, 390), (340, 200)] {
            let texts = texts_of(&svg(size, |area| {
                charts::clients(area, &curve, None, &STYLE).unwrap();
            }));
            let title = texts.iter().find(|t| !t.upright).expect("a y title");
            let ticks = texts.iter().filter(|t| t.upright && t.anchor == "end");
            for tick in ticks {
                assert_apart(tick, title, size);
            }
            assert_inside(&texts, size);
        }
    }
}
