//! The charts, drawn with plotters: queue-time or latency percentiles over
//! time, the waits themselves (how many requests waited how long), the
//! client-experience curve (session time p0…p100, the seed
//! essay's main chart), the load across servers, where keys live, and two runs compared on
//! the same axes. Each takes its data and a drawing area, and is generic
//! over the backend: the browser draws them on canvases, with legends in
//! HTML beside them, and `lbsim plot` draws them to SVG files, where a
//! chart that needs a legend draws it above itself.
//!
//! Each chart's file holds its descriptor, and [`CHARTS`] lists them: the
//! one list of charts that views, the browser's figures and `lbsim plot`
//! read (see `registry`).
//!
//! Beside them, what the pictures' legends and marks say, decided from the
//! scenario alone so that it is tested natively: which marks the topology
//! can draw ([`topology_legend`]) and which moments a chart over time marks
//! ([`markers`]).

mod capacity;
mod clients;
mod compare;
mod keys;
mod load;
mod marker_names;
pub mod markers;
mod palette;
mod percentiles;
mod properties;
mod registry;
mod rescale;
mod stroke;
pub mod topology_legend;
mod waits;

pub use capacity::draw as capacity;
pub use clients::draw as clients;
pub use compare::{
    percentiles as compare_percentiles, series as compare_series, sessions as compare_sessions,
    twin_percentiles,
};
pub use keys::{draw as keys, KeyPicture};
pub use load::{busiest_first, draw as load, figure as load_figure};
pub use markers::{server_events, Marker, SettingsChanges};
/// The stylesheet's colours and their contrast, for the tests of what
/// the layers above draw with them.
#[cfg(test)]
pub(crate) use palette::tests as stylesheet;
pub use palette::{Colour, Palette};
pub use percentiles::{
    draw as percentiles, figure as percentiles_figure, theory_label, theory_level, SeriesMetric, Span,
    CHART as PERCENTILES,
};
pub use registry::{figures_match, Descriptor, Drawer, PlotFigure, Plotted, CHARTS};
pub use rescale::Rescale;
pub use waits::{draw as waits, figure as waits_figure, Waits, BINS as WAIT_BINS};

use crate::format::grouped;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

pub type Drawn = Result<(), Box<dyn std::error::Error>>;

/// What a chart of named lines gives back: the names of those it drew.
pub type Lines = Result<Vec<String>, Box<dyn std::error::Error>>;

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The charts' typeface, named as a family list (plotters' conversion from
/// a string would lower-case it first, which brings Unicode's case tables
/// into the browser module).
const FONT: FontFamily = FontFamily::Name("system-ui, -apple-system, Segoe UI, Roboto, sans-serif");

/// Sizes and colours shared by the charts.
pub struct ChartStyle {
    pub palette: Palette,
    /// Device pixels per CSS pixel: the canvases draw in device pixels.
    pub scale: f64,
    /// How much larger than its base size text is drawn: a wide chart (a
    /// projector's) gets larger type, so ticks stay legible from afar.
    pub type_scale: f64,
}

impl ChartStyle {
    fn px(&self, css: f64) -> u32 {
        (css * self.scale).round() as u32
    }

    fn text(&self, css: f64, colour: Colour) -> TextStyle<'static> {
        (FONT, css * self.scale * self.type_scale).into_font().color(&colour.rgb())
    }

    /// The type scale for a chart `width` CSS pixels wide: 1 up to 480 px,
    /// growing with the width to 1.6. A chart a room reads from afar (the
    /// presenter view's, `presenting`) grows sooner, 250 px a unit, to at
    /// least 1.5: not at once, so that a narrow one's ticks still fit side
    /// by side.
    pub fn type_scale_for(width: f64, presenting: bool) -> f64 {
        let fitted = (width / 480.0).clamp(1.0, 1.6);
        match presenting {
            true => fitted.max((width / 250.0).clamp(1.0, 1.5)),
            false => fitted,
        }
    }

    fn stroke(&self, colour: Colour, css: f64) -> ShapeStyle {
        colour.rgb().stroke_width(self.px(css))
    }

    /// A chart with f64 axes filling `area`, with its mesh and axis titles.
    /// A short chart (an explainer's can be 80 px tall) keeps its ticks but
    /// drops the x axis's title, and the y axis's title, written along the
    /// plot's height, shortens to its unit or goes when it would not fit:
    /// a title is never clipped.
    fn chart<'a, DB: DrawingBackend + 'a>(
        &self,
        area: &'a DrawingArea<DB, Shift>,
        x: std::ops::Range<f64>,
        y: std::ops::Range<f64>,
        titles: (&str, &str),
    ) -> Result<Chart<'a, DB>, Box<dyn std::error::Error>>
    where
        DB::ErrorType: 'static,
    {
        area.fill(&self.palette.panel.rgb())?;
        let (top, bottom) = (self.px(10.0), self.px(4.0));
        let short = area.dim_in_pixel().1 < self.px(SHORT_BELOW);
        let x_labels = self.px(if short { 22.0 } else { 44.0 } * self.type_scale);
        let labels = self.text(13.0, self.palette.muted);
        let y_labels = self.y_label_room(area, &short_number(y.end), &labels);
        let mut chart = ChartBuilder::on(area)
            .margin_top(top)
            .margin_right(self.px(16.0))
            .margin_left(self.px(6.0))
            .margin_bottom(bottom)
            .x_label_area_size(x_labels)
            .y_label_area_size(y_labels)
            .build_cartesian_2d(x, y)?;
        let titled = self.text(14.0, self.palette.ink);
        let plot_height = area.dim_in_pixel().1.saturating_sub(top + bottom + x_labels);
        let y_title = fitting(area, [Some(titles.1), unit(titles.1)], &titled, plot_height);
        let plot_width = area.dim_in_pixel().0.saturating_sub(self.px(16.0 + 6.0) + y_labels);
        let x_title = fitting(area, [Some(titles.0), head(titles.0)], &titled, plot_width);
        let tick = |v: &f64| short_number(*v);
        chart
            .configure_mesh()
            .x_desc(if short { "" } else { x_title })
            .y_desc(y_title)
            .axis_desc_style(titled)
            .label_style(labels)
            .x_labels(x_ticks(plot_width, self))
            .y_labels(if short { 3 } else { 5 })
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .light_line_style(TRANSPARENT)
            .bold_line_style(self.palette.line.rgb().stroke_width(1))
            .axis_style(self.stroke(self.palette.muted, 1.0))
            .draw()?;
        Ok(chart)
    }

    /// The room left of the plot for the y axis's title and its tick
    /// labels, the widest written `widest`: 58 CSS px, more where that
    /// label and the title's line need it. At 58 px chapter 2's "1,000"
    /// stood over "session time (ms)" (reader 15).
    fn y_label_room<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        widest: &str,
        labels: &TextStyle,
    ) -> u32 {
        // The title's line (14 px type), a gap, and the tick's mark and gap.
        let beside = self.px((14.0 * 1.25 + 4.0 + 10.0) * self.type_scale);
        let label = area.estimate_text_size(widest, labels).map_or(0, |(width, _)| width);
        self.px(58.0 * self.type_scale).max(label + beside)
    }
}

/// How many ticks an x axis of `plot_width` pixels takes: up to six, each
/// given room for a label of three or four figures, so that narrow charts'
/// labels do not run together (the keys' bars read "0246810" on 26 px).
fn x_ticks(plot_width: u32, style: &ChartStyle) -> usize {
    (plot_width / style.px(36.0).max(1)).clamp(2, 6) as usize
}

/// Below this height (CSS pixels) a chart is short: see [`ChartStyle::chart`].
const SHORT_BELOW: f64 = 140.0;

/// The first of `titles` at most `room` pixels long in `style`, else
/// nothing: a title, then a shorter wording of it.
fn fitting<'t, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    titles: [Option<&'t str>; 2],
    style: &TextStyle,
    room: u32,
) -> &'t str {
    let fits = |text: &str| area.estimate_text_size(text, style).is_ok_and(|(length, _)| length <= room);
    titles.into_iter().flatten().find(|text| fits(text)).unwrap_or("")
}

/// What a title's parentheses hold: "ms" of "queue time (ms)"; a y axis
/// too short for its title keeps its unit.
fn unit(title: &str) -> Option<&str> {
    title.rsplit_once('(').and_then(|(_, rest)| rest.strip_suffix(')'))
}

/// A title before its parentheses: "percentile of sessions" of
/// "percentile of sessions (p0 fastest)"; an x axis too narrow for its
/// title keeps what it measures.
fn head(title: &str) -> Option<&str> {
    title.split_once(" (").map(|(head, _)| head)
}

/// A tick label without needless decimals: 20, 2.5, 0.25, 1,200, 12k; below 1,
/// as many decimals as the value needs (0.002, 0.0025), so that a chart
/// of small waits does not label every tick "0".
fn short_number(v: f64) -> String {
    if v.abs() >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else if v.abs() >= 100.0 || v.fract() == 0.0 {
        grouped(v, 0)
    } else if v.abs() >= 1.0 {
        format!("{v:.1}").trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        let decimals = ((-libm::log10(v.abs())).ceil() as usize + 1).clamp(2, 8);
        format!("{v:.decimals$}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The next value above `v` that makes a tidy axis: 1, 1.2, 1.5, 2, 2.5, 3,
/// 4, 5, 6 or 8 × 10^k.
fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let magnitude = libm::pow(10.0, libm::log10(v).floor());
    [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|c| *c >= v)
        .unwrap_or(10.0 * magnitude)
}

#[cfg(test)]
mod tests {
    use super::{short_number, ChartStyle};

    #[test]
    fn small_ticks_keep_the_decimals_that_tell_them_apart() {
        let labels: Vec<String> = [0.0, 0.001, 0.002, 0.0025, 0.05, 0.25, 0.5].map(short_number).into();
        assert_eq!(labels, ["0", "0.001", "0.002", "0.0025", "0.05", "0.25", "0.5"]);
        assert_eq!([2.5, 20.0, 1200.0, 12_000.0].map(short_number), ["2.5", "20", "1,200", "12k"]);
    }

    #[test]
    fn a_presented_chart_has_larger_type_once_it_is_wide_enough() {
        for width in [150.0, 250.0, 300.0, 375.0, 480.0, 600.0, 768.0, 1200.0] {
            let (screen, room) =
                (ChartStyle::type_scale_for(width, false), ChartStyle::type_scale_for(width, true));
            assert!(room >= screen, "{width} px");
            assert!((1.0..=1.6).contains(&screen) && (1.0..=1.6).contains(&room), "{width} px");
        }
        assert_eq!(ChartStyle::type_scale_for(250.0, true), 1.0);
        assert_eq!(ChartStyle::type_scale_for(300.0, true), 1.2);
        assert_eq!(ChartStyle::type_scale_for(375.0, true), 1.5);
        assert_eq!(ChartStyle::type_scale_for(375.0, false), 1.0);
        assert_eq!(ChartStyle::type_scale_for(960.0, true), 1.6);
    }

    #[test]
    fn a_narrow_axis_takes_fewer_ticks_so_its_labels_stand_apart() {
        let style = ChartStyle { palette: super::Palette::LIGHT, scale: 1.0, type_scale: 1.0 };
        assert_eq!(super::x_ticks(26, &style), 2);
        assert_eq!(super::x_ticks(110, &style), 3);
        assert_eq!(super::x_ticks(400, &style), 6);
        assert_eq!(super::x_ticks(52, &ChartStyle { scale: 2.0, ..style }), 2);
    }
}
