//! Where keys live: each server's share of the key space as bars (mean 1),
//! with their spread; and, under a scheme built on a hash ring, the ring
//! itself beside them: every server's virtual nodes as ticks round a
//! circle, the arcs of the server that took the latest key drawn bold, and
//! that key landing on its arc and walking clockwise to its point.

use super::registry::Descriptor;
use super::{ChartStyle, Drawn};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::f64::consts::TAU;

/// Where keys live: a view shows it only under a policy that places by key, beside its ring.
pub static CHART: Descriptor = Descriptor { key: "keys", tab_label: Some("Keys"), plot: None };

/// What the picture shows.
pub struct KeyPicture<'a> {
    /// The ring's points (hash, server) in ring order, under a ring scheme.
    pub ring: Option<&'a [(u64, u32)]>,
    /// How many keys of the space each member holds, member by member (see
    /// `crate::keys::key_counts`).
    pub counts: &'a [u64],
    /// The latest key placed: its hash, and the server that took it.
    pub landed: Option<(u64, u32)>,
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    picture: &KeyPicture,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    area.fill(&style.palette.panel.rgb())?;
    let (width, height) = area.dim_in_pixel();
    let Some(points) = picture.ring.filter(|points| !points.is_empty()) else {
        return draw_shares(area, picture.counts, style);
    };
    match ring_place((width, height), style) {
        RingPlace::Beside(side) => {
            let (ring, bars) = area.split_horizontally(side);
            draw_ring(&ring, points, picture.landed, style)?;
            draw_shares(&bars, picture.counts, style)
        }
        RingPlace::Above(side) => {
            let (ring, bars) = area.split_vertically(side);
            draw_ring(&ring, points, picture.landed, style)?;
            draw_shares(&bars, picture.counts, style)
        }
        RingPlace::Alone => draw_ring(area, points, picture.landed, style),
    }
}

/// Where the ring goes in a picture of `(width, height)` pixels.
#[derive(Debug, PartialEq)]
enum RingPlace {
    /// In a square of this side, the shares' bars on its right.
    Beside(u32),
    /// In a square of this side, the bars under it.
    Above(u32),
    /// The whole picture: the bars would leave it too small to read (in a
    /// 680 × 400 frame it was 85 to 110 px across, its ticks a grey
    /// band), and the caption gives their spread.
    Alone,
}

/// The smallest ring worth drawing beside the bars, and the room the bars
/// need to read (their ticks apart, a bar a server), in CSS pixels.
const RING_MIN: f64 = 180.0;
const BARS_MIN: (f64, f64) = (150.0, 110.0);

fn ring_place((width, height): (u32, u32), style: &ChartStyle) -> RingPlace {
    let (w, h) = (f64::from(width), f64::from(height));
    let beside = h.min(w - f64::from(style.px(BARS_MIN.0)));
    let above = w.min(h - f64::from(style.px(BARS_MIN.1)));
    let least = f64::from(style.px(RING_MIN));
    match (beside >= above, beside.max(above)) {
        (_, side) if side < least => RingPlace::Alone,
        (true, side) => RingPlace::Beside(side as u32),
        (false, side) => RingPlace::Above(side as u32),
    }
}

/// The angle of a hash on the ring: 0 at the top, clockwise.
fn angle(hash: u64) -> f64 {
    hash as f64 / 2f64.powi(64) * TAU
}

fn draw_ring<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: &[(u64, u32)],
    landed: Option<(u64, u32)>,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    let centre = (f64::from(w) / 2.0, f64::from(h) / 2.0);
    // Ticks reach 1.07 radius: the ring fills its square but for a margin.
    let radius = f64::from(w.min(h)) * 0.44;
    let at = |theta: f64, r: f64| {
        ((centre.0 + r * libm::sin(theta)).round() as i32, (centre.1 - r * libm::cos(theta)).round() as i32)
    };
    let arc = |from: f64, to: f64, r: f64| -> Vec<(i32, i32)> {
        let to = if to < from { to + TAU } else { to };
        let steps = (((to - from) / TAU) * 180.0).ceil().max(1.0) as usize;
        (0..=steps).map(|i| at(from + (to - from) * i as f64 / steps as f64, r)).collect()
    };
    area.draw(&PathElement::new(arc(0.0, TAU - 1e-9, radius), style.stroke(style.palette.line, 2.0)))?;
    let tick = style.stroke(style.palette.muted, 1.0);
    for &(hash, _) in points {
        let theta = angle(hash);
        area.draw(&PathElement::new(vec![at(theta, radius * 0.93), at(theta, radius * 1.07)], tick))?;
    }
    let Some((key_hash, server)) = landed else { return Ok(()) };
    // The server's arcs: from each point before one of its own to that one.
    let bold = style.stroke(style.palette.ink, 4.0);
    for (i, &(hash, _)) in points.iter().enumerate().filter(|(_, p)| p.1 == server) {
        let previous = points[(i + points.len() - 1) % points.len()].0;
        area.draw(&PathElement::new(arc(angle(previous), angle(hash), radius), bold))?;
    }
    // The key: a dot on the circle, then clockwise to the point that owns it.
    let owner = points.iter().find(|p| p.0 >= key_hash).unwrap_or(&points[0]).0;
    let ink = style.palette.ink.rgb();
    area.draw(&PathElement::new(
        arc(angle(key_hash), angle(owner), radius * 0.82),
        style.stroke(style.palette.ink, 2.0),
    ))?;
    area.draw(&Circle::new(at(angle(key_hash), radius * 0.82), style.px(5.0) as i32, ink.filled()))?;
    let label = format!("server {server}");
    let text = style.text(13.0, style.palette.ink).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Center,
        plotters::style::text_anchor::VPos::Center,
    ));
    area.draw(&Text::new(label, (centre.0 as i32, centre.1 as i32), text))?;
    Ok(())
}

fn draw_shares<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, counts: &[u64], style: &ChartStyle) -> Drawn
where
    DB::ErrorType: 'static,
{
    let n = counts.len().max(1);
    let total = counts.iter().sum::<u64>().max(1) as f64;
    let relative: Vec<f64> = counts.iter().map(|&c| c as f64 * n as f64 / total).collect();
    let top = super::nice_ceiling(relative.iter().cloned().fold(1.5, f64::max) * 1.1);
    let mut chart = style.chart(area, 0.0..n as f64, 0.0..top, ("servers", "share (1 = fair)"))?;
    let fill = style.palette.muted.rgb().filled();
    chart.draw_series(
        relative
            .iter()
            .enumerate()
            .map(|(i, &r)| Rectangle::new([(i as f64 + 0.1, 0.0), (i as f64 + 0.9, r)], fill)),
    )?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, 1.0), (n as f64, 1.0)],
        style.stroke(style.palette.ink, 1.5),
    )))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Palette;

    #[test]
    fn the_ring_keeps_a_readable_size_beside_the_bars_or_is_drawn_alone() {
        let style = ChartStyle { palette: Palette::LIGHT, scale: 1.0, type_scale: 1.0 };
        // A 680 × 400 frame's chart column: the bars would leave the ring
        // 75 to 110 px across, so it takes the whole picture.
        assert_eq!(ring_place((213, 175), &style), RingPlace::Alone);
        assert_eq!(ring_place((213, 270), &style), RingPlace::Alone);
        // Room for both: the ring takes the height (or the width) whole.
        assert_eq!(ring_place((480, 260), &style), RingPlace::Beside(260));
        assert_eq!(ring_place((300, 420), &style), RingPlace::Above(300));
        // In device pixels, at twice the density, the same choice.
        let dense = ChartStyle { scale: 2.0, ..style };
        assert_eq!(ring_place((426, 350), &dense), RingPlace::Alone);
        assert_eq!(ring_place((960, 520), &dense), RingPlace::Beside(520));
    }
}
