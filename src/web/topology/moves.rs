//! Keys moving after a membership change: for a few seconds, curves from
//! the servers keys left to those they arrived at, with marks travelling
//! along them, thicker for more keys. The engine counts, for the sampled
//! keys, how many left and arrived at each server; a curve's weight pairs
//! them in proportion (exact when all go to, or all come from, one server,
//! as when one joins or leaves).

use super::layout::Layout;
use crate::theme::Palette;
use lbsim::engine::KeyMoves;
use web_sys::CanvasRenderingContext2d;

/// The most curves drawn: the heaviest pairs.
const MAX_CURVES: usize = 40;

/// Draws `moves` with the marks `phase` (0 to 1) of the way along.
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    moves: &KeyMoves,
    phase: f64,
    palette: &Palette,
) {
    let total: f64 = moves.arrived.iter().map(|&a| f64::from(a)).sum();
    if total == 0.0 {
        return;
    }
    let mut pairs: Vec<(usize, usize, f64)> = Vec::new();
    for (from, &left) in moves.left.iter().enumerate().filter(|(_, l)| **l > 0) {
        for (to, &arrived) in moves.arrived.iter().enumerate().filter(|(_, a)| **a > 0) {
            pairs.push((from, to, f64::from(left) * f64::from(arrived) / total / total));
        }
    }
    lbsim::sort::sort_by(&mut pairs, |a, b| b.2.total_cmp(&a.2));
    pairs.truncate(MAX_CURVES);
    let ink = palette.ink.css();
    context.set_stroke_style_str(&ink);
    context.set_fill_style_str(&ink);
    let servers = moves.left.len();
    for &(from, to, share) in pairs.iter().filter(|p| p.0 < servers && p.1 < servers) {
        let (a, b) = (layout.server_anchor(from), layout.server_anchor(to));
        let bulge = 18.0 + (b.1 - a.1).abs() * 0.3;
        let control = ((a.0 + b.0) / 2.0 - bulge, (a.1 + b.1) / 2.0);
        context.set_global_alpha(0.55);
        context.set_line_width((share * 12.0).clamp(1.0, 6.0));
        context.begin_path();
        context.move_to(a.0, a.1);
        context.quadratic_curve_to(control.0, control.1, b.0, b.1);
        context.stroke();
        context.set_global_alpha(1.0);
        // Marks along the curve, more for a heavier pair.
        let marks = (share * 20.0).ceil().clamp(1.0, 5.0) as usize;
        for k in 0..marks {
            let t = (phase + k as f64 / marks as f64).fract();
            let (x, y) = along(a, control, b, t);
            context.fill_rect(x - 3.0, y - 3.0, 6.0, 6.0);
        }
    }
}

/// The point `t` of the way along a quadratic curve.
fn along(a: (f64, f64), c: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    let u = 1.0 - t;
    (u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0, u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1)
}
