//! The topology canvas: clients, balancers and servers, with each server's
//! slots and queue, and requests moving as dots along their hops at the pace
//! of their network delay. Past [`COMPACT_ABOVE`] servers it switches to a
//! compact grid of cells coloured by load, so a thousand servers stay
//! readable and cheap to draw.
//!
//! Drawing only reads: [`draw`] takes a snapshot and a surface. Shapes of one
//! colour are gathered into one path and filled once, which keeps the cost
//! per frame low at large sizes.

mod bounces;
mod decision;
mod learned;
mod moves;
mod requests;
mod row;
mod servers;
mod shares;
mod states;
mod tiers;
mod totals;
mod waits;

use super::surface::Surface;
use super::theme::Palette;
use layout::{Column, Layout, Rect};
use lbsim::engine::{Decision, Hop, KeyMoves, LearnedLoad, RequestView};
use lbsim::narration::Told;
use lbsim::ui::bounces::BounceMark;
use lbsim::ui::marks::{sent_shares, shared_queue_pitch};
use lbsim::ui::text_widths::TextWidths;
use lbsim::ui::topology_layout as layout;
use lbsim::ui::waits::waits_over_timeout;
use lbsim::Snapshot;
use std::cell::RefCell;
use web_sys::CanvasRenderingContext2d;

pub use layout::{least_height, COMPACT_ABOVE};

thread_local! {
    /// The labels' widths, measured once per font and string.
    static WIDTHS: RefCell<TextWidths> = RefCell::default();
}

/// The width (CSS px) of `text` in `font`, which is `context`'s font at
/// the call: measured on the canvas only the first time.
pub fn text_width(context: &CanvasRenderingContext2d, font: &str, text: &str) -> Option<f64> {
    let measure = || context.measure_text(text).ok().map(|metrics| metrics.width());
    WIDTHS.with(|widths| widths.borrow_mut().width(font, text, measure))
}

/// The most in-flight requests drawn as dots in a frame.
pub fn max_requests(servers: usize) -> usize {
    if servers > COMPACT_ABOVE {
        600
    } else {
        2_000
    }
}

/// What the person is looking at closely: an event stepped to, whose client,
/// balancer and server are ringed; a client followed, whose requests stand
/// out while the others fade; a policy's decision, its candidates and winner.
#[derive(Clone, Copy, Default)]
pub struct Focus<'a> {
    pub told: Option<&'a Told>,
    pub client: Option<u32>,
    pub decision: Option<&'a Decision>,
    /// How strongly the decision's lines, rings and badges are drawn (see
    /// `lbsim::ui::marks::decision_ink`).
    pub decision_ink: f64,
    /// Keys moving after a membership change, and how far along their
    /// marks are (0 to 1).
    pub moving: Option<(&'a KeyMoves, f64)>,
    /// The followed client's (else client 0's) copies of the servers'
    /// loads, under a policy that learns them; empty otherwise.
    pub learned: &'a [LearnedLoad],
    /// Where the followed client's queued requests wait: each one's
    /// server and how many are ahead of it there.
    pub queue_places: &'a [(u32, u32)],
    /// Whether a spike is over: each row then shows its total of
    /// completed requests (see `totals`).
    pub spike_over: bool,
    /// The servers that have bounced a request, each with its count and
    /// how strongly its mark shows (see `lbsim::ui::bounces`).
    pub bounces: &'a [BounceMark],
}

/// How far left of a row's labels requests stop (CSS px): a followed
/// request's mark is 6.3 px across its centre.
const ARRIVAL_GAP_PX: f64 = 8.0;

/// What the topology drew that the page around it places by.
pub struct Drawn {
    /// The decision drawn, if one (see `lbsim::ui::marks::decision_ink`
    /// for how long): where the ring round its winner went (x, y, w, h),
    /// if its rows were as it met them (see `lbsim::ui::marks::rings_drawn`).
    pub decision: Option<Option<[f64; 4]>>,
    /// Where the column beside the rows is headed (x, y, w, h), if it is:
    /// the followed client's line keeps left of it.
    pub heading: Option<[f64; 4]>,
}

/// Draws the snapshot, with what is in `focus` brought forward and labels
/// at least `least_label_px` high.
pub fn draw(
    snapshot: &Snapshot,
    focus: Focus,
    (surface, least_label_px): (&Surface, f64),
    palette: &Palette,
) -> Drawn {
    surface.begin();
    let context = &surface.context;
    let mut layout = layout_of(snapshot, (surface, least_label_px));
    // Whose copies the column beside the rows writes: the followed
    // client's, else client 0's, ringed so the reader sees which.
    let learned_by = (!focus.learned.is_empty()).then_some(focus.client.unwrap_or(0));
    let heard = learned_by.map(|client| (client, focus.client.is_some(), focus.learned));
    let heading = tiers::draw_labels(context, &layout, (snapshot, heard, focus.spike_over), palette);
    let needles = learned::copy_marks(&layout, &snapshot.servers, focus.learned);
    let mut rows_drawn =
        servers::draw(context, &layout, (&snapshot.servers, focus.bounces, &needles), palette);
    let waits = waits_over_timeout(snapshot).zip(snapshot.queue_timeout_ms);
    if let Some((waits, timeout_ms)) = &waits {
        waits::draw(context, (&layout, surface.height), (&snapshot.servers, waits, *timeout_ms), palette);
    }
    // A wait's line, or a total's bar, runs along the lane: none of it is
    // left free for a decision's badge.
    if waits.is_some() || focus.spike_over {
        rows_drawn.lanes_free.clear();
    }
    // Requests stop short of the bounces' marks and counts as well: on
    // their plates they hid the dots under them, but in chapter 4's small
    // pictures the dots queued and passing at a row's entrance crowded
    // "27 ✕" from every side, and a reader saw the counts covered.
    let (marks, plates) = bounces::place(context, &layout, snapshot.servers.len(), focus.bounces);
    if let Some(from) =
        rows_drawn.labels_from.iter().copied().chain(plates.iter().map(|plate| plate.x)).reduce(f64::min)
    {
        layout = layout.arriving_at(from - ARRIVAL_GAP_PX);
    }
    if focus.spike_over {
        totals::draw(context, &layout, &snapshot.servers, palette);
    }
    learned::draw(context, &layout, &snapshot.servers, focus.learned, palette);
    tiers::draw_clients(context, &layout, &snapshot.client_sessions, palette);
    tiers::draw_balancers(context, &layout, snapshot.balancers as usize, palette);
    if let Some((moving, phase)) = focus.moving {
        moves::draw(context, &layout, moving, phase, palette);
    }
    let followed = focus.client.map(|client| requests::Followed {
        client,
        servers: &snapshot.servers,
        places: focus.queue_places,
    });
    requests::draw(context, &layout, &snapshot.requests, followed, palette);
    bounces::draw(context, &layout, focus.bounces, (&marks, &plates), palette);
    if let Some(told) = focus.told {
        draw_highlight(context, &layout, told, palette);
    }
    if let Some(client) = focus.client.or(learned_by) {
        let ring = Told { client: Some(client), ..Told::default() };
        draw_highlight(context, &layout, &ring, palette);
    }
    let servers = snapshot.servers.len() as u32;
    let decision = focus
        .decision
        .filter(|d| d.candidates.iter().all(|c| c.server < servers) && focus.decision_ink > 0.0);
    let decision = decision.map(|decision| {
        context.set_global_alpha(focus.decision_ink);
        let entrances = entrances(&rows_drawn, focus.bounces, &plates);
        let rows = (&snapshot.servers[..], &entrances, focus.learned);
        let ring = decision::draw(context, &layout, decision, rows, palette);
        context.set_global_alpha(1.0);
        ring.map(|ring| [ring.x, ring.y, ring.w, ring.h])
    });
    Drawn { decision, heading }
}

/// The rows' entrances as `drawn`, each one's labels beginning (x, CSS
/// px) at its name, its state's word, or its bounce mark and count,
/// whichever reaches furthest left; infinity where the row writes none
/// (the compact grid).
fn entrances(drawn: &servers::Entrances, marks: &[BounceMark], plates: &[Rect]) -> servers::Entrances {
    let mut from = drawn.labels_from.clone();
    for (mark, plate) in marks.iter().zip(plates) {
        if let Some(x) = from.get_mut(mark.server) {
            *x = x.min(plate.x);
        }
    }
    servers::Entrances { labels_from: from, lanes_free: drawn.lanes_free.clone() }
}

/// What is drawn at a point of the topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Client(u32),
    Server(usize),
}

/// The layout `snapshot` is drawn in on `surface`, with labels at least
/// `least_label_px` high: with the column of a client's copies where its
/// run keeps them; beside a twin that keeps them, rows to the twin's
/// scale, with the column only where it has shares to write; every row's
/// queue on one finer pitch where the run's longest queue so far outgrew
/// a lane.
fn layout_of(snapshot: &Snapshot, (surface, least_label_px): (&Surface, f64)) -> Layout {
    let mut layout = Layout::new(
        (surface.width, surface.height),
        (snapshot.clients as usize, snapshot.balancers as usize, snapshot.servers.len()),
        match (snapshot.copies_kept, surface.beside.copies, sent_shares(&snapshot.servers).is_some()) {
            (true, _, _) | (false, true, true) => Column::Copies,
            (false, true, false) => Column::BesideCopies,
            (false, false, true) => Column::Shares,
            (false, false, false) => Column::None,
        },
        least_label_px,
    );
    // Rows drawn to scale with their slots keep it: a copy's needle
    // stands where a load would end on them.
    if !layout.compact && !layout.queues_to_scale {
        let servers = snapshot.servers.iter().enumerate();
        let lanes: Vec<(f64, f64)> =
            servers.map(|(i, server)| row::Row::of(&layout, i, server).lane()).collect();
        layout.queue_pitch = shared_queue_pitch(&lanes, surface.longest_queue);
    }
    layout
}

/// Where each server's row (or cell) is drawn, in CSS pixels on the
/// surface, with labels at least `least_label_px` high as [`draw`] has (as
/// every function here that tells where something is drawn).
pub fn server_cells(snapshot: &Snapshot, drawn: (&Surface, f64)) -> Vec<[f64; 4]> {
    let layout = layout_of(snapshot, drawn);
    (0..snapshot.servers.len()).map(|i| layout.servers.cell(i)).map(|c| [c.x, c.y, c.w, c.h]).collect()
}

/// Where each server's box of slots is drawn (`[x, y, w, h]`, CSS pixels
/// on the surface); none in the compact grid, which draws no box.
pub fn slot_boxes(snapshot: &Snapshot, drawn: (&Surface, f64)) -> Vec<Option<[f64; 4]>> {
    let layout = layout_of(snapshot, drawn);
    let boxed = |(i, server)| {
        let b = row::Row::of(&layout, i, server).box_rect;
        (!layout.compact).then_some([b.x, b.y, b.w, b.h])
    };
    snapshot.servers.iter().enumerate().map(boxed).collect()
}

/// Where the followed client's requests are drawn (see
/// `requests::own_positions`): each one's hop, centre (CSS pixels on the
/// surface) and, in service, the share of its service done.
pub fn followed_marks(
    snapshot: &Snapshot,
    drawn: (&Surface, f64),
    (client, places): (u32, &[(u32, u32)]),
) -> Vec<(Hop, [f64; 2], Option<f64>)> {
    let layout = layout_of(snapshot, drawn);
    let followed = requests::Followed { client, servers: &snapshot.servers, places };
    let own: Vec<&RequestView> = snapshot.requests.iter().filter(|r| r.client == client).collect();
    let placed = requests::own_positions(&layout, &followed, &own, requests::lane(&layout));
    placed.into_iter().map(|(r, (x, y), served)| (r.hop, [x, y], served)).collect()
}

/// Where each cell of the clients' column is drawn (`[x, y, w, h]`, CSS
/// pixels on the surface).
pub fn client_cells(snapshot: &Snapshot, drawn: (&Surface, f64)) -> Vec<[f64; 4]> {
    let layout = layout_of(snapshot, drawn);
    let cells = (snapshot.clients as usize).div_ceil(layout.clients_per_cell);
    (0..cells).map(|i| layout.clients.cell(i)).map(|c| [c.x, c.y, c.w, c.h]).collect()
}

/// Where each server's name is written (left and right edges, CSS pixels on
/// the surface), where its row holds one.
pub fn name_spans(snapshot: &Snapshot, drawn: (&Surface, f64)) -> Vec<Option<[f64; 2]>> {
    states::name_spans(&drawn.0.context, &layout_of(snapshot, drawn), snapshot.servers.len())
}

/// Where the mark of a client's copy of each server's load is drawn
/// (`[x, y, w, h]`, CSS pixels on the surface), where one is.
pub fn copy_marks(
    snapshot: &Snapshot,
    drawn: (&Surface, f64),
    learned: &[LearnedLoad],
) -> Vec<Option<[f64; 4]>> {
    let marks = learned::copy_marks(&layout_of(snapshot, drawn), &snapshot.servers, learned);
    marks.iter().map(|mark| mark.map(|m| m.rect())).collect()
}

/// Where a bounce's cross is drawn, and the plate under it and its count
/// (`[x, y, w, h]` each, CSS pixels).
pub type BounceBoxes = ([f64; 4], [f64; 4]);

/// Where each of `marks`' crosses is drawn, and the plate under it and its
/// count (`[x, y, w, h]`, CSS pixels on the surface), with labels at least
/// `least_label_px` high as [`draw`] has.
pub fn bounce_marks(
    snapshot: &Snapshot,
    (surface, least_label_px): (&Surface, f64),
    marks: &[BounceMark],
) -> Vec<BounceBoxes> {
    let layout = layout_of(snapshot, (surface, least_label_px));
    let (rects, plates) = bounces::place(&surface.context, &layout, snapshot.servers.len(), marks);
    let corners = |r: &Rect| [r.x, r.y, r.w, r.h];
    rects.iter().zip(&plates).map(|(rect, plate)| (corners(rect), corners(plate))).collect()
}

/// How far left of its box each server's queue is drawn, in CSS pixels on
/// the surface.
pub fn queue_lengths(snapshot: &Snapshot, drawn: (&Surface, f64)) -> Vec<f64> {
    servers::queue_lengths(&layout_of(snapshot, drawn), &snapshot.servers)
}

/// What each server's row writes for its queue's wait (see `waits`), where
/// it writes one.
pub fn wait_labels(snapshot: &Snapshot, drawn: (&Surface, f64)) -> Vec<Option<String>> {
    match (waits_over_timeout(snapshot), snapshot.queue_timeout_ms) {
        (Some(waits), Some(timeout_ms)) => {
            waits::labels(&layout_of(snapshot, drawn), &snapshot.servers, (&waits, timeout_ms))
        }
        _ => vec![None; snapshot.servers.len()],
    }
}

/// The picture's font at `weight` and `px` (CSS px): every label drawn
/// on it is set in this family.
pub(super) fn font(weight: u16, px: f64) -> String {
    format!("{weight} {px}px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif")
}

/// The client or server drawn at `(x, y)` (CSS pixels on the surface).
pub fn part_at(snapshot: &Snapshot, drawn: (&Surface, f64), (x, y): (f64, f64)) -> Option<Part> {
    let layout = layout_of(snapshot, drawn);
    let client = layout.client_at(x, y, snapshot.clients as usize).map(Part::Client);
    client.or_else(|| layout.server_at(x, y, snapshot.servers.len()).map(Part::Server))
}

/// A client's cell smaller than this (CSS px, either side) is ringed by a
/// circle [`FOUND_RING_R`] across its centre, on a halo of the panel's
/// colour: at 1,000 clients chapter 6's followed client was a 3 px cell
/// ringed 9 px across in a grid of hundreds, which a reader could not
/// find (reader 16).
const FINDABLE_CELL_PX: f64 = 10.0;
/// The radius of a small client cell's ring (CSS px).
const FOUND_RING_R: f64 = 11.0;

/// A ring in the ink colour around each part an event involved.
fn draw_highlight(context: &CanvasRenderingContext2d, layout: &Layout, told: &Told, palette: &Palette) {
    let client = told.client.map(|client| layout.clients.cell(client as usize / layout.clients_per_cell));
    let small = client.filter(|cell| cell.w.min(cell.h) < FINDABLE_CELL_PX);
    if let Some(cell) = small {
        let (x, y) = cell.centre();
        for (colour, width) in [(palette.panel, 6.0), (palette.ink, 2.5)] {
            context.begin_path();
            let _ = context.arc(x, y, FOUND_RING_R, 0.0, std::f64::consts::TAU);
            context.set_stroke_style_str(&colour.css());
            context.set_line_width(width);
            context.stroke();
        }
    }
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(2.5);
    context.begin_path();
    let ring = |rect: Rect| context.rect(rect.x - 3.0, rect.y - 3.0, rect.w + 6.0, rect.h + 6.0);
    if let Some(cell) = client.filter(|_| small.is_none()) {
        ring(cell);
    }
    if let (Some(balancer), Some(grid)) = (told.balancer, &layout.balancers) {
        ring(grid.cell(balancer as usize));
    }
    if let Some(server) = told.server {
        ring(layout.servers.cell(server as usize));
    }
    context.stroke();
}
