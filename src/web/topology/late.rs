//! The requests queued past the queue timeout, drawn over their queue in
//! the bounce's colour where a server runs slowed (see `lbsim::ui::waits`):
//! chapter 3's slowed server had the shortest queue and bounced the most,
//! and a reader saw which, not why. Each queue's first requests, those its
//! server takes into its slots within the timeout at its speed, keep the
//! queue's colour; the rest will wait past the timeout: at a quarter of
//! the speed, 6 of a queue of 18, where a full-speed queue of 44 has none.

use super::layout::Layout;
use super::row::Row;
use super::servers::trace_queue;
use crate::theme::Palette;
use lbsim::engine::ServerView;
use lbsim::ui::waits::past_timeout;
use web_sys::CanvasRenderingContext2d;

/// Draws, over each row's queue, the part past its place of the timeout
/// (`places`, requests from the head; see `lbsim::ui::waits::timeout_places`).
pub(super) fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (servers, places): (&[ServerView], &[Option<f64>]),
    palette: &Palette,
) {
    if layout.compact {
        return;
    }
    let longest = layout.longest_queue(servers);
    context.set_fill_style_str(&palette.bounce.css());
    for (i, (server, place)) in servers.iter().zip(places).enumerate() {
        let Some(place) = *place else { continue };
        let late = past_timeout(server.queued, place);
        if late == 0 {
            continue;
        }
        let (cell, row) = (layout.servers.cell(i), Row::of(layout, i, server));
        let in_time = server.queued - late;
        // The late part of the queue is the part of its drawing left of
        // where a queue of the requests served in time would end.
        let boundary = row.queue_end - row.queue_length(in_time, longest);
        context.save();
        context.begin_path();
        context.rect(cell.x, cell.y, boundary - cell.x, cell.h);
        context.clip();
        context.begin_path();
        let mark = row.queue_mark(server.queued, longest);
        trace_queue(context, (cell, &row), mark, row.queue_length(server.queued, longest));
        context.fill();
        context.restore();
    }
}
