//! The names of the moments a chart marks, written at the top of their
//! lines: beside each line, clear of the other names and, where the room
//! allows, of the other lines, on two lines where one has no such room.

use super::markers::Marker;
use super::{ChartStyle, Drawn};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// `label` set on two lines, split at the space that leaves its longer
/// line shortest ("median" over "17.8 ms", "server 0" over "slow ×0.25"),
/// or on one where it has no space.
fn two_lines(label: &str) -> Vec<String> {
    let longer = |at: usize| label[..at].chars().count().max(label[at + 1..].chars().count());
    let split = label.match_indices(' ').map(|(at, _)| at).min_by_key(|&at| longer(at));
    match split {
        Some(at) => vec![label[..at].to_string(), label[at + 1..].to_string()],
        None => vec![label.to_string()],
    }
}

/// Rows of marker labels at the top of a plot; a name set on two lines
/// may take one more for its figure (chapter 1 at load 1.05 set both the
/// median's and the mean's so, their lines 4 px apart, one under the other).
const MARKER_ROWS: usize = 3;

/// Names each of `markers` (in time order) at the top of its line, right
/// of it or else left, in the first of a few rows where it fits inside the
/// plot and overprints no other name; not at all when none has room. A
/// place that crosses no other mark's line is taken first; then the name
/// set on two lines, its figure under its word, which takes half the
/// width (at load 1.05 chapter 1's "median 17.8 ms" stood 90 px left of
/// the mean's line, too close to the axis for the left and 6 px too long
/// for the right); where marks lie closer still, a name crosses a line,
/// and its box is painted in the background first so that the line passes
/// behind it (a reader saw "server 0 slow ×0.25" and "server 0 recovers"
/// each struck through by the other's line, and read them as overlapping).
pub(super) fn label_markers<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &super::Chart<DB>,
    markers: &[&Marker],
    top: f64,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let font = style.text(12.0, style.palette.muted);
    let base = area.get_base_pixel();
    // Within the plot: a name left of a mark near the y axis would
    // overprint its tick labels (the waits chart's median often is).
    let (inside, _) = chart.plotting_area().get_pixel_range();
    let (gap, line) = (style.px(4.0) as i32, style.px(14.0 * style.type_scale) as i32);
    let lines: Vec<i32> = markers.iter().map(|m| chart.backend_coord(&(m.time_s, top)).0).collect();
    let mut rows: Vec<Vec<Range<i32>>> = vec![Vec::new(); MARKER_ROWS + 1];
    for (marker, &x) in markers.iter().zip(&lines) {
        let y = chart.backend_coord(&(marker.time_s, top)).1;
        let whole = vec![marker.label.clone()];
        let split = two_lines(&marker.label);
        let long = area.estimate_text_size(&marker.label, &font)?.0 as i32;
        let mut narrow = 0;
        for text in &split {
            narrow = narrow.max(area.estimate_text_size(text, &font)?.0 as i32);
        }
        // Beside its own line, else beside the lines standing within a
        // few pixels of it: at load 1.05 the median's and the mean's lines
        // nearly touch, and a name beside either crossed the other.
        let close = || lines.iter().copied().filter(|other| (other - x).abs() <= 3 * gap);
        let (first, last) = (close().min().unwrap_or(x), close().max().unwrap_or(x));
        let sides = |length: i32| {
            [
                x + gap..x + gap + length,
                x - gap - length..x - gap,
                last + gap..last + gap + length,
                first - gap - length..first - gap,
            ]
        };
        let clear = |span: &Range<i32>| lines.iter().all(|&other| other == x || !span.contains(&other));
        let fits = |rows: &[Vec<Range<i32>>], span: &Range<i32>| {
            inside.start <= span.start
                && span.end <= inside.end
                && rows
                    .iter()
                    .all(|row| row.iter().all(|r| r.end + gap <= span.start || span.end + gap <= r.start))
        };
        // The first row from which `texts`, one a row, fit on a side.
        let place = |count: usize, length: i32, only_clear: bool| {
            (0..MARKER_ROWS).take_while(|row| row + count <= rows.len()).find_map(|row| {
                let taken = &rows[row..row + count];
                let found =
                    sides(length).into_iter().find(|span| fits(taken, span) && (clear(span) || !only_clear));
                found.map(|span| (row, span))
            })
        };
        let placed = match place(1, long, true) {
            Some(found) => Some((found, &whole)),
            None => match (split.len() > 1).then(|| place(split.len(), narrow, true)).flatten() {
                Some(found) => Some((found, &split)),
                None => place(1, long, false).map(|found| (found, &whole)),
            },
        };
        let Some(((row, span), texts)) = placed else { continue };
        let at = (span.start - base.0, y - base.1 + style.px(2.0) as i32 + row as i32 * line);
        for taken in &mut rows[row..row + texts.len()] {
            taken.push(span.clone());
        }
        let backdrop = [(at.0 - 1, at.1), (at.0 + span.len() as i32 + 1, at.1 + line * texts.len() as i32)];
        area.draw(&Rectangle::new(backdrop, style.palette.panel.rgb().filled()))?;
        for (k, text) in texts.iter().enumerate() {
            area.draw(&Text::new(text.clone(), (at.0, at.1 + k as i32 * line), font.clone()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::two_lines;

    #[test]
    fn a_name_on_two_lines_is_split_where_its_longer_line_is_shortest() {
        assert_eq!(two_lines("median 17.8 ms"), ["median", "17.8 ms"]);
        assert_eq!(two_lines("p99 61.5 ms"), ["p99", "61.5 ms"]);
        assert_eq!(two_lines("server 0 slow ×0.25"), ["server 0", "slow ×0.25"]);
        assert_eq!(two_lines("median –"), ["median", "–"]);
        assert_eq!(two_lines("recovers"), ["recovers"]);
    }
}
