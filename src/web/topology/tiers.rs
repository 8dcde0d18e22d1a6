//! Clients (filled while they wait for a response), balancers, and the
//! labels naming each tier.

use super::layout::{Layout, Rect, LABEL_BAND};
use crate::theme::{Palette, LOAD_SHADES};
use lbsim::engine::LearnedLoad;
use lbsim::format::thousands;
use lbsim::ui::marks::{answer_shares, heard_titles, sent_shares, sent_titles};
use lbsim::Snapshot;
use std::f64::consts::TAU;
use web_sys::CanvasRenderingContext2d;

/// Above this many clients they are drawn as small squares, not circles.
const CIRCLES_UP_TO: usize = 150;

/// Space kept between two tiers' labels.
const LABEL_GAP: f64 = 10.0;

/// The client whose copies the column beside the rows writes, whether it
/// is followed, and its copies.
pub type LearnedBy<'a> = (u32, bool, &'a [LearnedLoad]);

/// Names each tier above it, in the longest wording that fits its room
/// (a phone's narrow canvas gets the short ones); returns where the column
/// beside the rows is headed (x, y, w, h), if it is.
pub fn draw_labels(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (snapshot, learned_by, totals): (&Snapshot, Option<LearnedBy>, bool),
    palette: &Palette,
) -> Option<[f64; 4]> {
    let font = super::font(600, layout.label_px());
    context.set_font(&font);
    context.set_fill_style_str(&palette.muted.css());
    context.set_text_baseline("middle");
    let y = LABEL_BAND / 2.0 + 2.0;
    let fit = |wordings: &[String], room: f64| -> Option<(String, f64)> {
        wordings
            .iter()
            .map(|w| (w.clone(), super::text_width(context, &font, w).unwrap_or(f64::INFINITY)))
            .find(|(_, width)| *width <= room)
    };
    let slots = snapshot.servers.first().map_or(0, |s| s.slots);
    let servers = thousands(snapshot.servers.len() as u64);
    let datacenters = snapshot.servers.last().map_or(1, |s| s.datacenter + 1);
    // Rows write their slots ("8/10"), so the name gives them only in the
    // compact view, whose cells do not: named "Servers · 10 × 10 slots"
    // where it fitted, a twin's pictures were headed differently, the one
    // with a column of copies "Servers · 10" (chapter 6).
    let sized = match layout.compact {
        true => format!("Servers · {servers} × {slots} slots"),
        false => format!("Servers · {servers}"),
    };
    let mut wordings = vec![sized.clone(), format!("Servers · {servers}"), servers.clone()];
    wordings.dedup();
    if datacenters > 1 {
        wordings.insert(0, format!("{sized} · {datacenters} datacenters"));
    }
    // Once a spike is over its rows are bars of each server's requests
    // completed: "completed" alone did not say of what (reader 18).
    if totals && !layout.compact {
        wordings.insert(0, format!("Servers · {servers} · completed"));
        wordings.insert(0, format!("Servers · {servers} · requests each completed"));
    }
    if answer_shares(&snapshot.servers).is_some() && !layout.compact {
        wordings.insert(0, format!("Servers · {servers} · % of the answers"));
    }
    // The clients' tier is named first: where "Clients · 20" does not fit
    // left of the servers' names (chapter 6 on a phone, its rows moved
    // left for the column of copies, wrote "20"), the servers' name starts
    // right of it.
    let client_x = layout.clients.cell(0).x;
    // Grouped as the slider writes it ("10,000", not "10000").
    let n = thousands(u64::from(snapshot.clients));
    let clients = match layout.clients_per_cell {
        1 => vec![format!("Clients · {n}"), n.clone()],
        per_cell => {
            vec![format!("Clients · {n} ({per_cell} a cell)"), format!("Clients · {n}"), n.clone()]
        }
    };
    let mut servers_x = layout.servers_x;
    let mut clients_room = servers_x - client_x - LABEL_GAP;
    if let Some(balancers) = &layout.balancers {
        let centre = balancers.cell(0).centre().0;
        let half_room = (servers_x - LABEL_GAP - centre).min(centre - client_x);
        let n = thousands(u64::from(snapshot.balancers));
        let wordings = [format!("Balancers · {n}"), format!("{n} balancers"), n.clone()];
        if let Some((text, width)) = fit(&wordings, 2.0 * half_room) {
            context.set_text_align("center");
            let _ = context.fill_text(&text, centre, y);
            clients_room = centre - width / 2.0 - LABEL_GAP - client_x;
        }
    } else if let Some((_, width)) = fit(&clients[clients.len() - 2..clients.len() - 1], f64::INFINITY) {
        servers_x = servers_x.max(client_x + width + LABEL_GAP);
        clients_room = servers_x - client_x - LABEL_GAP;
    }
    context.set_text_align("left");
    if let Some((text, _)) = fit(&clients, clients_room) {
        let _ = context.fill_text(&text, client_x, y);
    }
    // The column right of the rows is headed over it, right-aligned: with
    // the client whose copies it writes, or as the share of requests sent
    // lately, in the longest wording that leaves the servers' tier its
    // name ("Servers · 10"; chapter 6's "client 0 heard, 18 ms to 1.4 s
    // ago" pushed it out on a phone); the tier's name keeps what room is
    // left.
    let mut servers_room = layout.width - servers_x;
    let column = match (learned_by, sent_shares(&snapshot.servers)) {
        (Some((client, followed, learned)), _) => Some(heard_titles(client, learned, followed)),
        (None, Some(_)) => Some(sent_titles()),
        (None, None) => None,
    };
    let mut headed = None;
    if let (Some(column), Some((_, right))) = (column, layout.side_column) {
        let named =
            fit(&wordings[wordings.len() - 2..wordings.len() - 1], f64::INFINITY).map_or(0.0, |(_, w)| w);
        let beside_name = servers_room - named - LABEL_GAP - (layout.width - right);
        let heading = fit(&column, beside_name).or_else(|| fit(&column, servers_room));
        if let Some((text, width)) = heading {
            context.set_text_align("right");
            let _ = context.fill_text(&text, right, y);
            servers_room -= width + LABEL_GAP + (layout.width - right);
            headed = Some([right - width, 0.0, width, LABEL_BAND]);
        }
    }
    context.set_text_align("left");
    if let Some((text, _)) = fit(&wordings, servers_room) {
        let _ = context.fill_text(&text, servers_x, y);
    }
    headed
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
