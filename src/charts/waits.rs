//! The waits themselves: how many requests waited how long in a queue,
//! binned, with the median, the mean and the p99 marked and named on it.
//! Where the percentile chart gives three figures a second, this shows the
//! distribution they are read from, as Sam Rose's queueing post shows its
//! requests' waits: a tall pile near zero, a long thin tail, and the mean
//! standing right of the median, where few requests are.

use super::marker_names::label_markers;
use super::markers::Marker;
use super::registry::{Descriptor, PlotFigure, Plotted};
use super::stroke::{legend_above, Chip, Stroke};
use super::{nice_ceiling, ChartStyle, Colour, Drawn};
use crate::format::{ms, thousands};
use crate::metrics::{Distribution, Histogram};
use crate::Time;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The distribution of queue time.
pub static CHART: Descriptor = Descriptor {
    key: "waits",
    tab_label: Some("Waits"),
    plot: Some(Plotted {
        figure: PlotFigure::Waits,
        help: "Each request's queue time, binned, median, mean and p99 marked",
    }),
};

/// How many bins the chart's width is cut into: enough to show the pile's
/// shape, few enough that a phone's bar is a few pixels wide.
pub const BINS: usize = 30;

/// How far right of the p99 the chart reaches at most, as a multiple of
/// it: past it, a tail a hundred times thinner than the pile is a row of
/// empty bins, and the pile would shrink to one bar.
const TAIL_ROOM: f64 = 1.5;

/// Queue times binned, with the figures marked on them.
#[derive(Clone, Debug, PartialEq)]
pub struct Waits {
    /// Each bin's width (ms): bin `i` holds the waits from `i` widths
    /// (inclusive) to `i + 1`.
    pub bin_ms: f64,
    /// How many requests waited within each bin.
    pub counts: Vec<u64>,
    /// How many waited longer than the last bin reaches, off the chart.
    pub beyond: u64,
    /// The whole distribution's figures, read as the run's summary reads
    /// them, so that the marks agree with the sentence beside them.
    pub figures: Distribution,
    /// Where the count axis ends: a tidy value past the tallest bar,
    /// unless the chart's owner keeps its own (see
    /// `lbsim::ui::growing_axis`).
    pub top: f64,
    /// Whether any request has ended (completed or failed), as the
    /// readouts count: a request in a slot has its wait, but until one
    /// ends the strip reads "none finished yet", and the chart's "median
    /// 0.00 ms" beside it read as a second figure that disagreed.
    pub ended: bool,
}

impl Waits {
    /// The waits `histogram` holds (nanoseconds), in `bins` bins from zero
    /// to a tidy value past the longest, or past the p99 by [`TAIL_ROOM`]
    /// when the longest is further.
    pub fn of(histogram: &Histogram, bins: usize) -> Waits {
        Waits::within(histogram, bins, |figures| nice_ceiling(Waits::needed(figures)))
    }

    /// How far the chart must reach (ms) for waits whose figures are
    /// `figures`: past the longest, or past the p99 by [`TAIL_ROOM`] when
    /// the longest is further.
    pub fn needed(figures: &Distribution) -> f64 {
        figures.p100.min(figures.p99 * TAIL_ROOM).max(figures.p99)
    }

    /// The waits `histogram` holds, in `bins` bins from zero to the reach
    /// `reach` gives for their figures.
    pub fn within(histogram: &Histogram, bins: usize, reach: impl FnOnce(&Distribution) -> f64) -> Waits {
        let figures = Distribution::of(histogram);
        let reach = reach(&figures);
        let bin_ms = reach / bins as f64;
        let mut counts = vec![0; bins];
        let mut beyond = 0;
        for (value, count) in histogram.buckets() {
            let wait = Time(value).as_ms();
            match wait > reach {
                true => beyond += count,
                false => counts[((wait * bins as f64 / reach) as usize).min(bins - 1)] += count,
            }
        }
        let ended = figures.count > 0;
        let top = nice_ceiling(Waits::top_needed(&counts));
        Waits { bin_ms, counts, beyond, figures, top, ended }
    }

    /// How far the count axis must reach for bins of `counts`: a quarter
    /// past the tallest, where the marks' names stand.
    pub fn top_needed(counts: &[u64]) -> f64 {
        counts.iter().copied().max().unwrap_or(0) as f64 * 1.25
    }

    /// The waits `sim` has measured so far, binned: marked once a request
    /// has ended, as the readouts count.
    pub fn of_run(sim: &crate::Simulation, bins: usize) -> Waits {
        let (histogram, ended) = Waits::measured(sim);
        Waits { ended, ..Waits::of(&histogram, bins) }
    }

    /// The queue times `sim` has measured so far, and whether a request
    /// has ended, as the readouts count.
    pub fn measured(sim: &crate::Simulation) -> (Histogram, bool) {
        let metrics = sim.metrics();
        let ended = metrics.latency.measured().count() > 0 || metrics.counts.failed > 0;
        (metrics.queue_time.measured(), ended)
    }

    /// Where the chart ends (ms).
    pub fn reach(&self) -> f64 {
        self.bin_ms * self.counts.len() as f64
    }

    /// Whether there are figures to mark: waits measured, and a request
    /// ended.
    pub fn counted(&self) -> bool {
        self.figures.count > 0 && self.ended
    }

    /// The marks, each at its figure (ms) and named with it as a sentence
    /// writes it: "median 5.8 ms", "mean 8.2 ms", "p99 34.2 ms"; before any
    /// request has finished, a dash as the strip writes ("median –"), never
    /// 0.00 ms as if measured.
    pub fn marks(&self) -> [Marker; 3] {
        let f = &self.figures;
        let figure = |at: f64| match self.counted() {
            true => ms(at),
            false => "–".to_string(),
        };
        let mark = |name: &str, at: f64| Marker { time_s: at, label: format!("{name} {}", figure(at)) };
        [mark("median", f.p50), mark("mean", f.mean), mark("p99", f.p99)]
    }

    /// What lies off the chart's right edge, in words, when anything does,
    /// and why the scale did not grow for it: "off the right edge" beside
    /// prose saying a scale grows when the waits need room read as a
    /// contradiction (reader 15).
    pub fn beyond_note(&self) -> Option<String> {
        (self.beyond > 0).then(|| {
            let longest = ms(self.figures.p100);
            format!(
                "{} waited longer than {}, up to {longest}: the scale grows only to half again past the p99",
                thousands(self.beyond),
                ms(self.reach())
            )
        })
    }
}

/// How far right of the y axis a mark's line is drawn at least (CSS px):
/// a median of 0 ms, drawn at 0, lay on the axis and could not be seen.
const LINE_INSET_PX: f64 = 3.0;
/// How far apart two marks' lines are drawn at least (CSS px): a line's
/// width and a gap, so that a mean as small as the median shows beside it.
const LINES_APART_PX: f64 = 4.0;

/// Where the marks' lines are drawn (px right of the y axis) for marks at
/// `at` px: at least `inset` in from the axis, and each at least `apart`
/// right of a lower one, keeping their order. A line moves a few pixels
/// only where it would be hidden; its name still says its figure.
fn lines_at(at: [f64; 3], inset: f64, apart: f64) -> [f64; 3] {
    let mut order = [0, 1, 2];
    crate::sort::sort_by(&mut order, |&a, &b| at[a].total_cmp(&at[b]));
    let mut drawn = at;
    let mut floor = inset;
    for i in order {
        drawn[i] = at[i].max(floor);
        floor = drawn[i] + apart;
    }
    drawn
}

/// Each mark's stroke: the median and the p99 in the percentile chart's
/// colours and dashes, the mean in ink.
fn mark_strokes(style: &ChartStyle) -> [Stroke; 3] {
    let palette = style.palette;
    let stroke = |colour: Colour, dashes| Stroke { colour, width: 2.0, dashes };
    [stroke(palette.p50, Some((2.0, 3.0))), stroke(palette.ink, Some((6.0, 4.0))), stroke(palette.p99, None)]
}

/// The chart with what lies off its edge noted above it, for a figure
/// that stands alone (`lbsim plot`).
pub fn figure<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, waits: &Waits, style: &ChartStyle) -> Drawn
where
    DB::ErrorType: 'static,
{
    match waits.beyond_note() {
        Some(note) => draw(&legend_above(area, &[(Chip::Note, &note)], style)?, waits, style),
        None => draw(area, waits, style),
    }
}

/// How many requests waited how long, as bars, with the median, the mean
/// and the p99 drawn across them and named at their tops.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, waits: &Waits, style: &ChartStyle) -> Drawn
where
    DB::ErrorType: 'static,
{
    let top = waits.top;
    let reach = waits.reach();
    let mut chart = style.chart(area, 0.0..reach, 0.0..top, ("queue time (ms)", "requests"))?;
    let gap = waits.bin_ms * 0.08;
    let bars = waits.counts.iter().enumerate().filter(|(_, count)| **count > 0).map(|(bin, count)| {
        let left = bin as f64 * waits.bin_ms;
        let corners = [(left + gap, 0.0), (left + waits.bin_ms - gap, *count as f64)];
        Rectangle::new(corners, style.palette.queued.rgb().filled())
    });
    chart.draw_series(bars)?;
    if !waits.counted() {
        return Ok(());
    }
    // Each line where it can be seen, named with its figure wherever drawn.
    let (plot, _) = chart.plotting_area().get_pixel_range();
    let px_per_ms = f64::from(plot.end - plot.start) / reach;
    let figures = waits.marks();
    let at = figures.each_ref().map(|mark| mark.time_s * px_per_ms);
    let drawn = lines_at(at, style.px(LINE_INSET_PX).into(), style.px(LINES_APART_PX).into());
    let marks: Vec<Marker> =
        figures.into_iter().zip(drawn).map(|(mark, px)| Marker { time_s: px / px_per_ms, ..mark }).collect();
    for (mark, stroke) in marks.iter().zip(mark_strokes(style)) {
        stroke.draw(&mut chart, [(mark.time_s, 0.0), (mark.time_s, top)], style)?;
    }
    let mut in_order: Vec<&Marker> = marks.iter().collect();
    crate::sort::sort_by(&mut in_order, |a, b| a.time_s.total_cmp(&b.time_s));
    label_markers(area, &chart, &in_order, top, style)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn histogram(waits_ms: &[f64]) -> Histogram {
        let mut histogram = Histogram::default();
        for wait in waits_ms {
            histogram.record(Time::from_ms(*wait).0);
        }
        histogram
    }

    #[test]
    fn known_waits_fall_in_the_bins_they_lie_in() {
        // Ten waits of none, five of 3.5 ms, four of 7.5 ms and one of
        // 9 ms: the p99 and the longest are 9 ms, so the chart reaches
        // 10 ms, in ten bins of 1 ms (a histogram keeps a wait to 0.4%, so
        // each lies mid-bin).
        let mut waits = vec![0.0; 10];
        waits.extend([3.5; 5]);
        waits.extend([7.5; 4]);
        waits.push(9.0);
        let binned = Waits::of(&histogram(&waits), 10);
        assert_eq!(binned.bin_ms, 1.0);
        assert_eq!(binned.counts, [10, 0, 0, 5, 0, 0, 0, 4, 0, 1]);
        assert_eq!(binned.beyond, 0);
        assert_eq!(binned.beyond_note(), None);
    }

    /// Sixty waits of none, 39 of 3.9 ms and one of 100 ms.
    fn a_pile_and_a_far_tail() -> Histogram {
        let mut waits = vec![0.0; 60];
        waits.extend([3.9; 39]);
        waits.push(100.0);
        histogram(&waits)
    }

    #[test]
    fn the_marks_stand_at_the_median_the_mean_and_the_p99_and_name_them() {
        let marks = Waits::of(&a_pile_and_a_far_tail(), 30).marks();
        let at: Vec<f64> = marks.iter().map(|m| m.time_s).collect();
        // The mean is exact, (39 × 3.9 + 100) / 100; the p99 is the 99th
        // wait, 3.9 ms kept to 0.4%.
        assert_eq!(at[..2], [0.0, 2.521]);
        assert!((at[2] - 3.9).abs() < 3.9 * 0.004, "{}", at[2]);
        let named: Vec<&str> = marks.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(named, ["median 0.00 ms", "mean 2.5 ms", "p99 3.9 ms"]);
    }

    #[test]
    fn a_tail_far_past_the_p99_is_counted_off_the_edge_not_drawn() {
        // The p99 is 3.9 ms and the longest wait 100 ms: the chart reaches
        // 6 ms (a tidy value past 1.5 × 3.9), and the one wait past it is
        // noted.
        let binned = Waits::of(&a_pile_and_a_far_tail(), 30);
        assert_eq!(binned.reach(), 6.0);
        assert_eq!(binned.counts.iter().sum::<u64>(), 99);
        assert_eq!((binned.counts[0], binned.counts[19]), (60, 39));
        assert_eq!(binned.beyond, 1);
        assert_eq!(
            binned.beyond_note().as_deref(),
            Some(
                "1 waited longer than 6.0 ms, up to 100 ms: the scale grows only to half again past the p99"
            )
        );
    }

    #[test]
    fn a_line_at_zero_stands_inside_the_plot_and_lines_at_one_figure_side_by_side() {
        // A median and a p99 of 0 and a mean a pixel past them.
        assert_eq!(lines_at([0.0, 1.0, 0.0], 3.0, 4.0), [3.0, 11.0, 7.0]);
        assert_eq!(lines_at([0.0, 0.5, 60.0], 3.0, 4.0), [3.0, 7.0, 60.0]);
        // Marks clear of the axis and of each other stay where they are.
        assert_eq!(lines_at([10.0, 20.0, 90.0], 3.0, 4.0), [10.0, 20.0, 90.0]);
    }

    /// An upright line drawn: its colour, width and x.
    #[cfg(feature = "cli")]
    type Upright = (String, String, f64);

    /// What `waits` draws at `size` (px) as SVG: each upright line and
    /// each text (its words and left x).
    #[cfg(feature = "cli")]
    fn drawn(waits: &Waits, size: (u32, u32)) -> (Vec<Upright>, Vec<(String, f64)>) {
        use crate::charts::{ChartStyle, Palette};
        use plotters::prelude::SVGBackend;
        let style = ChartStyle { palette: Palette::LIGHT, scale: 1.0, type_scale: 1.0 };
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            draw(&area, waits, &style).unwrap();
            area.present().unwrap();
        }
        let document = roxmltree::Document::parse(&svg).unwrap();
        let upright = document
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .filter_map(|n| {
                let points: Vec<(f64, f64)> = n
                    .attribute("points")?
                    .split_whitespace()
                    .filter_map(|xy| xy.split_once(','))
                    .filter_map(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                    .collect();
                let (x, (top, bottom)) = (points.first()?.0, (points.first()?.1, points.last()?.1));
                let upright = points.iter().all(|p| p.0 == x) && bottom != top;
                let (stroke, width) =
                    (n.attribute("stroke")?.to_ascii_uppercase(), n.attribute("stroke-width")?);
                upright.then(|| (stroke, width.to_string(), x))
            })
            .collect();
        let texts = document
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| Some((n.text()?.trim().to_string(), n.attribute("x")?.parse().ok()?)))
            .collect();
        (upright, texts)
    }

    #[cfg(feature = "cli")]
    #[test]
    fn a_median_of_zero_is_drawn_clear_of_the_y_axis_and_named_0_ms() {
        // Sixty waits of none: the median is 0 ms.
        let waits = Waits::of(&a_pile_and_a_far_tail(), BINS);
        assert_eq!(waits.figures.p50, 0.0);
        let (upright, texts) = drawn(&waits, (480, 240));
        let Colour { r, g, b } = crate::charts::Palette::LIGHT.p50;
        let p50 = format!("#{r:02X}{g:02X}{b:02X}");
        // The y axis: the leftmost upright line of 1 px.
        let axis = upright.iter().filter(|(_, w, _)| w == "1").map(|l| l.2).fold(f64::INFINITY, f64::min);
        let median: Vec<f64> = upright.iter().filter(|l| l.0 == p50).map(|l| l.2).collect();
        assert!(axis.is_finite() && !median.is_empty(), "no axis or no median line drawn: {upright:?}");
        // 2 px wide: its left edge a pixel clear of the axis's.
        assert!(
            median.iter().all(|x| *x >= axis + 3.0),
            "the median's line at {median:?}, the axis at {axis}"
        );
        assert!(texts.iter().any(|(t, _)| t == "median 0.00 ms"), "the median is not named: {texts:?}");
    }

    /// At load 1.05 chapter 1's median stood 90 px right of the y axis and
    /// 90 px left of the mean's line: "median 17.8 ms" fitted on neither
    /// side without crossing a line, and was written across the mean's.
    /// Set on two lines, it fits between them.
    #[cfg(feature = "cli")]
    #[test]
    fn a_name_too_long_for_the_room_between_two_lines_stands_on_two_lines() {
        use crate::charts::{ChartStyle, Palette};
        use plotters::prelude::SVGBackend;
        let mut waits_ms = vec![5.0; 51];
        waits_ms.extend([14.0; 40]);
        waits_ms.extend([45.0; 9]);
        let waits = Waits::of(&histogram(&waits_ms), BINS);
        let (upright, texts) = drawn(&waits, (480, 240));
        // The marks' lines, in order: the uprights 2 px wide (a dashed
        // line is drawn as many).
        let mut lines: Vec<f64> = upright.iter().filter(|l| l.1 == "2").map(|l| l.2).collect();
        crate::sort::sort_by(&mut lines, f64::total_cmp);
        lines.dedup();
        assert_eq!(lines.len(), 3, "{upright:?}");
        let style = ChartStyle { palette: Palette::LIGHT, scale: 1.0, type_scale: 1.0 };
        let font = style.text(12.0, style.palette.muted);
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (480, 240)).into_drawing_area();
        let width = |text: &str| f64::from(area.estimate_text_size(text, &font).unwrap().0);
        let whole = waits.marks()[0].label.clone();
        let (word, figure) = whole.split_once(' ').unwrap();
        assert!(
            lines[0] + 4.0 + width(&whole) > lines[1],
            "one line would fit: {whole} at {}, {lines:?}",
            lines[0]
        );
        for part in [word, figure] {
            let Some((_, x)) = texts.iter().find(|(t, _)| t == part) else {
                panic!("{part:?} not written on a line of its own: {texts:?}")
            };
            let crossed: Vec<&f64> =
                lines.iter().filter(|l| **l > x + 1.0 && **l < x + width(part) - 1.0).collect();
            assert!(crossed.is_empty(), "{part:?} at {x} crosses the lines at {crossed:?}");
        }
    }

    /// During chapter 1's opening the chart wrote "median 0.00 ms, mean
    /// 0.00 ms, p99 0.00 ms" beside a strip of dashes: nothing had
    /// finished, and the empty histogram's zeros read as measured.
    #[test]
    fn no_waits_draw_an_empty_chart_a_millisecond_wide_its_marks_dashes() {
        let binned = Waits::of(&Histogram::default(), 30);
        assert_eq!((binned.reach(), binned.counts.iter().sum::<u64>(), binned.beyond), (1.0, 0, 0));
        assert!(!binned.counted());
        let named: Vec<String> = binned.marks().into_iter().map(|m| m.label).collect();
        assert_eq!(named, ["median –", "mean –", "p99 –"]);
        assert!(Waits::of(&histogram(&[0.0]), 30).counted(), "one wait of none is a measured 0.00 ms");
    }

    /// Chapter 1's opening: requests have entered the server's slots,
    /// their waits of none measured, but none has ended yet.
    #[test]
    fn waits_measured_before_any_request_ends_are_not_marked_yet() {
        let mut scenario = crate::Scenario::default();
        scenario.set_many([("servers", "1"), ("policy", "random"), ("load", "0.9")]).unwrap();
        let mut sim = crate::Simulation::new(&scenario).unwrap();
        while sim.metrics().queue_time.measured().count() == 0 {
            sim.step();
        }
        let early = Waits::of_run(&sim, BINS);
        assert!(early.figures.count > 0 && !early.counted(), "{early:?}");
        assert_eq!(early.marks()[0].label, "median –");
        sim.advance_to(Time::from_secs(1.0), u64::MAX);
        let later = Waits::of_run(&sim, BINS);
        assert!(later.counted());
        assert_eq!(later.marks()[2].label, format!("p99 {}", ms(sim.summary().queue_ms.p99)));
    }

    #[test]
    fn the_marks_agree_with_the_run_s_own_percentiles_on_chapter_1_s_run() {
        // Chapter 1's server, for ten simulated seconds on a fixed seed:
        // the marks are the summary's figures, which its sentence says.
        let mut scenario = crate::Scenario::default();
        for (key, value) in [("servers", "1"), ("policy", "random"), ("load", "0.9"), ("duration_s", "10")] {
            scenario.set(key, value).unwrap();
        }
        scenario.seed = 7;
        let mut sim = crate::Simulation::new(&scenario).unwrap();
        sim.run();
        let queue = sim.summary().queue_ms;
        let binned = Waits::of(&sim.metrics().queue_time.measured(), BINS);
        let at: Vec<f64> = binned.marks().iter().map(|m| m.time_s).collect();
        assert_eq!(at, [queue.p50, queue.mean, queue.p99]);
        assert_eq!(binned.counts.iter().sum::<u64>() + binned.beyond, queue.count);
        // The pile near zero outweighs every bin of the tail past the p99.
        let p99_bin = (queue.p99 / binned.bin_ms) as usize;
        assert!(binned.counts[0] > 10 * binned.counts[p99_bin..].iter().max().unwrap(), "{binned:?}");
    }
}
