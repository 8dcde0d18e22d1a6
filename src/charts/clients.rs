//! The client-experience curve: session time at each percentile of
//! sessions, p0 (the fastest client) to p100 (the slowest). A reference
//! curve, kept from before the last change of a setting, shows the
//! difference the change made.

use super::registry::{Descriptor, PlotFigure, Plotted};
use super::stroke::Stroke;
use super::{nice_ceiling, ChartStyle, Drawn};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The client-experience curve.
pub static CHART: Descriptor = Descriptor {
    key: "clients",
    tab_label: Some("Clients"),
    plot: Some(Plotted { figure: PlotFigure::Clients, help: "Session time, p0 to p100" }),
};

/// The reference curve's dash and gap (CSS px): long enough to read as a
/// dash on a phone's chart and a desktop's.
const REFERENCE_DASHES: (f64, f64) = (10.0, 6.0);

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    current: &[f64],
    reference: Option<&[f64]>,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    // The reference dashed, as its legend draws it: solid and muted, the
    // pinned baseline read as a second live curve.
    let dashed = Stroke { colour: style.palette.muted, width: 3.0, dashes: Some(REFERENCE_DASHES) };
    let reference = reference.map(|curve| (dashed, curve));
    let current_stroke = Stroke { colour: style.palette.request, width: 3.0, dashes: None };
    let shown: Vec<_> = reference.into_iter().chain([(current_stroke, current)]).collect();
    curves(area, &shown, style)
}

/// Each of `curves`, session times in ms from p0 to p100, in its stroke.
pub(super) fn curves<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[(Stroke, &[f64])],
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let highest = curves.iter().flat_map(|(_, values)| values.iter()).fold(0.0, |a: f64, b| a.max(*b));
    let top = nice_ceiling(highest * 1.05);
    let mut chart = style.chart(
        area,
        0.0..100.0,
        0.0..top,
        ("percentile of sessions (p0 fastest)", "session time (ms)"),
    )?;
    for (stroke, values) in curves {
        let points = values.iter().enumerate().map(|(p, ms)| (p as f64, *ms));
        stroke.draw(&mut chart, points, style)?;
    }
    Ok(())
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use crate::charts::{ChartStyle, Colour, Palette};

    /// The colours of the lines drawn, each once for every piece it is
    /// drawn in.
    fn pieces(current: &[f64], reference: Option<&[f64]>, style: &ChartStyle) -> Vec<String> {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (390, 240)).into_drawing_area();
            draw(&area, current, reference, style).unwrap();
            area.present().unwrap();
        }
        let document = roxmltree::Document::parse(&svg).unwrap();
        let lines = document.descendants().filter(|n| n.has_tag_name("polyline") || n.has_tag_name("path"));
        lines.filter_map(|n| n.attribute("stroke").map(str::to_ascii_uppercase)).collect()
    }

    #[test]
    fn a_pinned_baseline_is_drawn_dashed_as_its_legend_says_and_the_live_curve_whole() {
        let style = ChartStyle { palette: Palette::LIGHT, scale: 1.0, type_scale: 1.0 };
        let hex = |Colour { r, g, b }: Colour| format!("#{r:02X}{g:02X}{b:02X}");
        let curve: Vec<f64> = (0..=100).map(|p| 20.0 + f64::from(p) * 3.0).collect();
        let baseline: Vec<f64> = curve.iter().map(|ms| ms * 1.5).collect();
        let drawn = pieces(&curve, Some(&baseline), &style);
        let count = |colour| drawn.iter().filter(|c| **c == hex(colour)).count();
        // A 390 px chart's curve is about 300 px long: dashes of 10 with
        // gaps of 6 cut it in about twenty.
        assert!(count(style.palette.muted) >= 10, "the baseline in {} pieces", count(style.palette.muted));
        assert_eq!(count(style.palette.request), 1, "the live curve is one line");
    }
}
