//! One filling's histogram: a bar per bin, drawn from the mean line up (a
//! bin above the mean) or down (below it), so that a spread of a few balls
//! on top of a million is still seen; dashed lines mark the fullest and the
//! emptiest bin, each named with its distance from the mean. The vertical
//! scale is `half_range` balls either side of the mean, given by the view
//! (both histograms share it unless asked not to).

use super::super::surface::Surface;
use super::super::theme::Palette;
use lbsim::bins::Bins;
use lbsim::format::thousands;

pub fn draw(surface: &Surface, filling: &Bins, half_range: f64, palette: &Palette) {
    surface.begin();
    let context = &surface.context;
    let (width, height) = (surface.width, surface.height);
    if width < 10.0 || height < 10.0 {
        return;
    }
    // Type grows with the canvas, for the back of a room.
    let type_px = (width / 34.0).clamp(12.0, 18.0);
    context.set_font(&format!("600 {type_px}px system-ui, sans-serif"));
    let mean = filling.mean();
    let (max, min) = filling.extremes();
    let names = [(max, "max", palette.p99), (min, "min", palette.muted)].map(|(count, name, colour)| {
        let offset = f64::from(count) - mean;
        let sign = if offset >= 0.0 { "+" } else { "−" };
        (offset, format!("{name} {sign}{}", count_text(offset.abs())), colour)
    });
    // Room at the right for the longer name, at the left for the mean's count.
    let text_width = |text: &str| context.measure_text(text).map_or(type_px * 5.0, |m| m.width());
    let right = names.iter().map(|(_, label, _)| text_width(label)).fold(0.0, f64::max) + 10.0;
    let left = text_width(&count_text(mean)).max(text_width("mean")).max(type_px * 3.0) + 10.0;
    let (top, bottom) = (type_px * 0.9, height - type_px * 0.9);
    let plot_width = width - left - right;
    // A little room above the fullest bin; at least a ball either way.
    let reach = (half_range * 1.12).max(1.0);
    let y = |above_mean: f64| {
        let middle = 0.5 * (top + bottom);
        middle - above_mean / reach * 0.5 * (bottom - top)
    };
    let counts = filling.counts();
    let step = plot_width / counts.len() as f64;
    let gap = if step > 4.0 { 1.0 } else { 0.0 };
    context.set_fill_style_str(&palette.request.css());
    for (bin, &count) in counts.iter().enumerate() {
        let (from, to) = (y(0.0), y(f64::from(count) - mean));
        let x = left + bin as f64 * step;
        // Never thinner than a device pixel, so a bin one ball off is seen.
        let tall = (to - from).abs().max(1.0 / surface.scale);
        context.fill_rect(x, from.min(to), (step - gap).max(0.5), tall);
    }

    // The mean, named at the left with its count.
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(2.0);
    line(surface, left, y(0.0), left + plot_width);
    context.set_fill_style_str(&palette.ink.css());
    context.set_text_baseline("middle");
    context.set_text_align("right");
    let _ = context.fill_text("mean", left - 6.0, y(0.0) - type_px * 0.55);
    let _ = context.fill_text(&count_text(mean), left - 6.0, y(0.0) + type_px * 0.55);

    // The fullest and the emptiest bin: dashed, named at the right, the
    // names kept apart when the lines nearly meet.
    let _ = context.set_line_dash(&js_sys::Array::of2(&6.0.into(), &4.0.into()));
    context.set_text_align("left");
    let close = (y(names[0].0) - y(names[1].0)).abs() < type_px * 1.2;
    for (index, (offset, label, colour)) in names.iter().enumerate() {
        context.set_stroke_style_str(&colour.css());
        line(surface, left, y(*offset), left + plot_width);
        context.set_fill_style_str(&palette.ink.css());
        let nudge = match (close, index) {
            (false, _) => 0.0,
            (true, 0) => -type_px * 0.6,
            (true, _) => type_px * 0.6,
        };
        let _ = context.fill_text(label, left + plot_width + 6.0, (y(*offset) + nudge).clamp(top, bottom));
    }
    let _ = context.set_line_dash(&js_sys::Array::new());

    // The scale's ends, in balls from the mean.
    context.set_fill_style_str(&palette.muted.css());
    context.set_text_align("right");
    let end = count_text(reach);
    let _ = context.fill_text(&format!("+{end}"), left - 6.0, top + type_px * 0.3);
    let _ = context.fill_text(&format!("−{end}"), left - 6.0, bottom - type_px * 0.3);
}

fn line(surface: &Surface, from_x: f64, at_y: f64, to_x: f64) {
    let context = &surface.context;
    context.begin_path();
    context.move_to(from_x, at_y);
    context.line_to(to_x, at_y);
    context.stroke();
}

/// A number of balls: whole from 100 up or when it is whole, else to a tenth.
pub fn count_text(value: f64) -> String {
    if value >= 100.0 {
        thousands(libm::round(value) as u64)
    } else if (value - libm::round(value)).abs() < 0.05 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}
