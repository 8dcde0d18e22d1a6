//! How a chart's line is drawn, and a legend above a chart, for a figure
//! that stands alone (the browser's legends are HTML). Lines differ by dash
//! as well as colour, so they can be told apart without it.

use super::{Chart, ChartStyle, Colour, Drawn};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A line's colour, width and dash and gap (none: solid), in CSS pixels.
#[derive(Clone, Copy)]
pub(super) struct Stroke {
    pub colour: Colour,
    pub width: f64,
    pub dashes: Option<(f64, f64)>,
}

impl Stroke {
    /// Draws the line through `points` on `chart`.
    pub fn draw<'a, DB, I>(self, chart: &mut Chart<'a, DB>, points: I, style: &ChartStyle) -> Drawn
    where
        DB: DrawingBackend + 'a,
        DB::ErrorType: 'static,
        I: IntoIterator<Item = (f64, f64)>,
        I::IntoIter: Clone,
    {
        let shape = style.stroke(self.colour, self.width);
        match self.dashes {
            None => chart.draw_series(LineSeries::new(points, shape))?,
            Some((dash, gap)) => {
                chart.draw_series(DashedLineSeries::new(points, style.px(dash), style.px(gap), shape))?
            }
        };
        Ok(())
    }
}

/// What a legend entry shows of what it names.
#[derive(Clone, Copy)]
pub(super) enum Chip {
    Line(Stroke),
    /// A filled square, for bars.
    Swatch(Colour),
    /// Nothing: the entry is a note on what the others name (the seeds
    /// two runs used).
    Note,
}

/// Height of a legend row, in CSS pixels.
const LEGEND_HEIGHT: f64 = 28.0;
/// Length of a legend entry's sample of its line.
const CHIP_LENGTH: f64 = 28.0;

/// The room before an entry's name: its chip and a gap, none for a note.
fn chip_room(chip: &Chip, style: &ChartStyle) -> i32 {
    match chip {
        Chip::Note => 0,
        _ => style.px(CHIP_LENGTH + 6.0) as i32,
    }
}

/// Draws `entries` (each chip and its name) in rows across the top of
/// `area`, as many rows as they need (an entry that does not fit where a
/// row ends starts the next); returns the area below them, for the chart.
pub(super) fn legend_above<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Chip, &str)],
    style: &ChartStyle,
) -> Result<DrawingArea<DB, Shift>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let font = style.text(13.0, style.palette.ink).pos(Pos::new(HPos::Left, VPos::Center));
    // Entries start where the plot does, right of the y axis's labels.
    let start = style.px(64.0) as i32;
    let (width, length) = (area.dim_in_pixel().0 as i32, style.px(CHIP_LENGTH) as i32);
    let mut placed = Vec::with_capacity(entries.len());
    let (mut x, mut row) = (start, 0);
    for (chip, name) in entries {
        let text = area.estimate_text_size(name, &font)?.0 as i32;
        let needs = chip_room(chip, style) + text;
        if x > start && x + needs > width {
            (x, row) = (start, row + 1);
        }
        placed.push((*chip, *name, x, row));
        x += needs + style.px(24.0) as i32;
    }
    let (band, rest) = area.split_vertically(style.px(LEGEND_HEIGHT * f64::from(row + 1)));
    band.fill(&style.palette.panel.rgb())?;
    for (chip, name, x, row) in placed {
        let y = style.px(LEGEND_HEIGHT * (f64::from(row) + 0.5)) as i32;
        match chip {
            Chip::Line(stroke) => {
                let ends = [(x, y), (x + length, y)];
                let shape = style.stroke(stroke.colour, stroke.width);
                match stroke.dashes {
                    None => band.draw(&PathElement::new(ends, shape))?,
                    Some((dash, gap)) => {
                        band.draw(&DashedPathElement::new(ends, style.px(dash), style.px(gap), shape))?
                    }
                }
            }
            Chip::Swatch(colour) => {
                let half = style.px(6.0) as i32;
                let corners = [(x + length / 2 - half, y - half), (x + length / 2 + half, y + half)];
                band.draw(&Rectangle::new(corners, colour.rgb().filled()))?;
            }
            Chip::Note => {}
        }
        let after = x + chip_room(&chip, style);
        band.draw(&Text::new(name.to_string(), (after, y), font.clone()))?;
    }
    Ok(rest)
}
