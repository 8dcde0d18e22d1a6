//! Clients (filled while they wait for a response), balancers, and the
//! labels naming each tier.

use super::layout::{Layout, Rect, LABEL_BAND};
use crate::web::theme::{Palette, LOAD_SHADES};
use lbsim::Snapshot;
use std::f64::consts::TAU;
use web_sys::CanvasRenderingContext2d;

/// Above this many clients they are drawn as small squares, not circles.
const CIRCLES_UP_TO: usize = 150;

pub fn draw_labels(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    snapshot: &Snapshot,
    palette: &Palette,
) {
    context.set_font("600 13px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif");
    context.set_fill_style_str(&palette.muted.css());
    context.set_text_baseline("middle");
    let y = LABEL_BAND / 2.0 + 2.0;
    context.set_text_align("left");
    let client_x = layout.clients.cell(0).x;
    let clients = match layout.clients_per_cell {
        1 => format!("Clients · {}", snapshot.clients),
        n => format!("Clients · {} ({n} a cell)", snapshot.clients),
    };
    let _ = context.fill_text(&clients, client_x, y);
    if let Some(balancers) = &layout.balancers {
        context.set_text_align("center");
        let _ = context.fill_text(
            &format!("Balancers · {}", snapshot.balancers),
            balancers.cell(0).centre().0,
            y,
        );
    }
    context.set_text_align("left");
    let slots = snapshot.servers.first().map_or(0, |s| s.slots);
    let text = format!("Servers · {} × {} slots", snapshot.servers.len(), slots);
    let _ = context.fill_text(&text, layout.servers_x, y);
}

/// Clients as circles (filled while waiting), or when there are many as
/// small cells shaded by the share of their clients waiting.
pub fn draw_clients(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    sessions: &[u32],
    palette: &Palette,
) {
    let grid = &layout.clients;
    let size = grid.cell_w.min(grid.cell_h);
    if sessions.len() <= CIRCLES_UP_TO && size >= 5.0 {
        let radius = (size * 0.36).clamp(2.0, 8.0);
        for waiting in [true, false] {
            context.begin_path();
            for (i, _) in sessions.iter().enumerate().filter(|(_, n)| (**n > 0) == waiting) {
                let (x, y) = layout.client_anchor(i);
                let x = x - grid.cell_w * 0.25;
                context.move_to(x + radius, y);
                let _ = context.arc(x, y, radius, 0.0, TAU);
            }
            if waiting {
                context.set_fill_style_str(&palette.client.css());
                context.fill();
            } else {
                context.set_stroke_style_str(&palette.muted.css());
                context.set_line_width(1.5);
                context.stroke();
            }
        }
        return;
    }
    let per_cell = layout.clients_per_cell;
    let shade = |cell: usize| {
        let group = sessions.get(cell * per_cell..((cell + 1) * per_cell).min(sessions.len())).unwrap_or(&[]);
        let waiting = group.iter().filter(|n| **n > 0).count();
        (waiting * (LOAD_SHADES - 1)).div_ceil(group.len().max(1))
    };
    let inset = if size >= 4.0 { 0.5 } else { 0.0 };
    let cells = sessions.len().div_ceil(per_cell);
    for (level, colour) in palette.client_shades.iter().enumerate() {
        context.begin_path();
        for cell in (0..cells).filter(|c| shade(*c) == level) {
            let Rect { x, y, w, h } = grid.cell(cell);
            context.rect(x + inset, y + inset, w - 2.0 * inset, h - 2.0 * inset);
        }
        context.set_fill_style_str(colour);
        context.fill();
    }
}

pub fn draw_balancers(context: &CanvasRenderingContext2d, layout: &Layout, count: usize, palette: &Palette) {
    let Some(grid) = &layout.balancers else { return };
    let size = (grid.cell_w.min(grid.cell_h) * 0.8).clamp(1.0, 30.0);
    context.begin_path();
    for i in 0..count {
        let (x, y) = grid.cell(i).centre();
        context.rect(x - size / 2.0, y - size / 2.0, size, size);
    }
    context.set_fill_style_str(&palette.balancer.css());
    context.fill();
}
