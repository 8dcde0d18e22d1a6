//! Requests in flight as marks moving along their hop. Outgoing requests use
//! a lane just above the line between the two ends, returning ones (responses
//! and bounces) a lane just below, so a request sent back by a queue timeout
//! is seen travelling back and then trying again. Each state has its shape
//! as well as its colour (a dot, a ring for a retry, a cross for a bounce, a
//! square for a handshake), so none relies on colour alone.

use super::layout::Layout;
use super::row::Row;
use crate::theme::{Colour, Palette};
use lbsim::engine::{Hop, RequestView, ServerView};
use lbsim::ui::marks::{self, Stand};
use std::f64::consts::TAU;
use web_sys::CanvasRenderingContext2d;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Response,
    Outgoing,
    Retry,
    Bounce,
    Handshake,
}

impl Class {
    /// In drawing order: later classes are drawn on top.
    const ALL: [Class; 5] = [Class::Response, Class::Outgoing, Class::Retry, Class::Bounce, Class::Handshake];

    fn of(request: &RequestView) -> Option<Class> {
        match request.hop {
            Hop::Queued | Hop::InService => None,
            Hop::Handshake => Some(Class::Handshake),
            Hop::ClientToBalancer | Hop::ClientToServer | Hop::BalancerToServer if request.retries > 0 => {
                Some(Class::Retry)
            }
            Hop::ClientToBalancer | Hop::ClientToServer | Hop::BalancerToServer => Some(Class::Outgoing),
            Hop::BounceToClient | Hop::BounceToBalancer => Some(Class::Bounce),
            Hop::ServerToBalancer | Hop::ServerToClient | Hop::BalancerToClient => Some(Class::Response),
        }
    }

    fn shape(self) -> Shape {
        match self {
            Class::Response | Class::Outgoing => Shape::Dot,
            Class::Retry => Shape::Ring,
            Class::Bounce => Shape::Cross,
            Class::Handshake => Shape::Square,
        }
    }

    fn colour(self, palette: &Palette) -> Colour {
        match self {
            Class::Response => palette.response,
            Class::Outgoing => palette.request,
            Class::Retry => palette.retry,
            Class::Bounce => palette.bounce,
            Class::Handshake => palette.handshake,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Dot,
    Ring,
    Cross,
    Square,
}

impl Shape {
    /// Adds the shape at `(x, y)` to the current path.
    fn trace(self, context: &CanvasRenderingContext2d, (x, y): (f64, f64), radius: f64) {
        match self {
            Shape::Dot | Shape::Ring => {
                context.move_to(x + radius, y);
                let _ = context.arc(x, y, radius, 0.0, TAU);
            }
            Shape::Cross => {
                let r = radius * 1.1;
                context.move_to(x - r, y - r);
                context.line_to(x + r, y + r);
                context.move_to(x + r, y - r);
                context.line_to(x - r, y + r);
            }
            Shape::Square => context.rect(x - radius, y - radius, 2.0 * radius, 2.0 * radius),
        }
    }

    /// Whether the shape is drawn by its outline rather than filled.
    fn stroked(self) -> bool {
        matches!(self, Shape::Ring | Shape::Cross)
    }
}

/// Where a request is drawn: along the line between its hop's two ends,
/// offset into the outgoing or returning lane.
fn position(layout: &Layout, request: &RequestView, lane: f64) -> (f64, f64) {
    let (from, to) = (request.from as usize, request.to as usize);
    let (start, end, returning) = match request.hop {
        Hop::Handshake => {
            let (x, y) = layout.client_anchor(from);
            return (x + lane * 2.0, y);
        }
        Hop::ClientToBalancer => (layout.client_anchor(from), layout.balancer_anchor(to), false),
        Hop::ClientToServer => (layout.client_anchor(from), layout.arrival(to), false),
        Hop::BalancerToServer => (layout.balancer_anchor(from), layout.arrival(to), false),
        Hop::BounceToClient | Hop::ServerToClient => (layout.arrival(from), layout.client_anchor(to), true),
        Hop::BounceToBalancer | Hop::ServerToBalancer => {
            (layout.arrival(from), layout.balancer_anchor(to), true)
        }
        Hop::BalancerToClient => (layout.balancer_anchor(from), layout.client_anchor(to), true),
        Hop::Queued | Hop::InService => {
            return layout.arrival(to);
        }
    };
    let offset = if returning { lane } else { -lane };
    along(start, end, request.progress, offset)
}

/// The point `progress` of the way from `start` to `end`, `offset` below
/// the line between them.
fn along(start: (f64, f64), end: (f64, f64), progress: f32, offset: f64) -> (f64, f64) {
    let t = f64::from(progress);
    (start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t + offset)
}

/// A request's mark's radius (CSS px).
fn radius(layout: &Layout) -> f64 {
    if layout.compact {
        2.0
    } else {
        3.5
    }
}

/// How far off the line between a hop's ends its requests travel (CSS
/// px): outgoing above, returning below.
pub(super) fn lane(layout: &Layout) -> f64 {
    radius(layout) * 0.9
}

/// A followed client's requests, and where in its row each stands: the
/// rows as drawn, and where each of its queued requests waits (its
/// server, how many are ahead of it).
pub struct Followed<'a> {
    pub client: u32,
    pub servers: &'a [ServerView],
    pub places: &'a [(u32, u32)],
}

/// Draws `requests`; with a `followed` client, the others faded and its own
/// larger, on top, each joined to its client by a line, and carried into
/// its server's row (see [`own_positions`]).
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    requests: &[RequestView],
    followed: Option<Followed>,
    palette: &Palette,
) {
    let radius = radius(layout);
    let lane = lane(layout);
    let client = followed.as_ref().map(|f| f.client);
    let is_followed = |r: &RequestView| Some(r.client) == client;
    context.set_global_alpha(if followed.is_some() { 0.3 } else { 1.0 });
    let others = requests.iter().filter(|r| !is_followed(r));
    draw_marks(context, others.map(|r| (r, position(layout, r, lane))), radius, palette);
    context.set_global_alpha(1.0);
    if let Some(followed) = followed {
        let own: Vec<&RequestView> = requests.iter().filter(|r| is_followed(r)).collect();
        let placed = own_positions(layout, &followed, &own, lane);
        context.set_stroke_style_str(&palette.ink.css());
        context.set_line_width(1.5);
        context.begin_path();
        let (cx, cy) = layout.client_anchor(followed.client as usize);
        for &(_, (x, y), _) in &placed {
            context.move_to(cx, cy);
            context.line_to(x, y);
        }
        context.stroke();
        draw_marks(context, placed.iter().map(|&(r, at, _)| (r, at)), radius * 1.8, palette);
        draw_standing(context, &placed, radius * 1.8, palette);
    }
}

/// Where each of the followed client's requests is drawn, and, in
/// service, how far through its service it is. In the detailed view one
/// on its way to a server heads for the cell it will take (see
/// `lbsim::ui::marks::heading`), stands there, and comes out from its
/// slot; elsewhere, and in the compact grid, as any request.
pub(super) fn own_positions<'a>(
    layout: &Layout,
    followed: &Followed,
    own: &[&'a RequestView],
    lane: f64,
) -> Vec<(&'a RequestView, (f64, f64), Option<f64>)> {
    let mut in_service = vec![0; followed.servers.len()];
    let mut queued = vec![0; followed.servers.len()];
    own.iter()
        .map(|&request| {
            let server = match request.hop {
                Hop::ClientToServer | Hop::BalancerToServer | Hop::Queued | Hop::InService => request.to,
                Hop::ServerToClient | Hop::ServerToBalancer => request.from,
                _ => return (request, position(layout, request, lane), None),
            } as usize;
            let Some(view) = followed.servers.get(server).filter(|_| !layout.compact) else {
                return (request, position(layout, request, lane), None);
            };
            let row = Row::of(layout, server, view);
            let cells = row.queue_capacity();
            let stand = |stand: Option<Stand>| stand.map_or(layout.arrival(server), |s| row.centre_of(s));
            match request.hop {
                Hop::ClientToServer | Hop::BalancerToServer => {
                    let start = match request.hop {
                        Hop::ClientToServer => layout.client_anchor(request.from as usize),
                        _ => layout.balancer_anchor(request.from as usize),
                    };
                    let end = stand(marks::heading(view.busy, view.slots, view.queued, cells));
                    (request, along(start, end, request.progress, -lane), None)
                }
                Hop::Queued => {
                    let nth = queued[server];
                    queued[server] += 1;
                    let mine = followed.places.iter().filter(|&&(s, _)| s as usize == server);
                    let ahead = mine.map(|&(_, ahead)| ahead).nth(nth).unwrap_or(view.queued);
                    (request, stand(marks::waiting(ahead, cells)), None)
                }
                Hop::InService => {
                    let k = in_service[server];
                    in_service[server] += 1;
                    let at = row.centre_of(marks::in_service(k, view.slots));
                    (request, at, Some(f64::from(request.progress)))
                }
                _ => {
                    let end = match request.hop {
                        Hop::ServerToClient => layout.client_anchor(request.to as usize),
                        _ => layout.balancer_anchor(request.to as usize),
                    };
                    let from = row.centre_of(marks::in_service(0, view.slots));
                    (request, along(from, end, request.progress, lane), None)
                }
            }
        })
        .collect()
}

/// The followed client's requests standing in a row (queued, in service),
/// which are no dot of their own: each a ring round its cell, in the
/// colour of a request on its way, and in service an arc round that
/// filling as its service goes on.
fn draw_standing(
    context: &CanvasRenderingContext2d,
    placed: &[(&RequestView, (f64, f64), Option<f64>)],
    radius: f64,
    palette: &Palette,
) {
    let standing = placed.iter().filter(|(r, _, _)| matches!(r.hop, Hop::Queued | Hop::InService));
    context.set_line_width(2.0);
    context.set_stroke_style_str(&palette.request.css());
    context.begin_path();
    for &(_, (x, y), _) in standing.clone() {
        Shape::Ring.trace(context, (x, y), radius);
    }
    context.stroke();
    context.set_line_width(2.5);
    context.set_stroke_style_str(&palette.ink.css());
    context.begin_path();
    for &(_, (x, y), served) in standing {
        if let Some(served) = served.filter(|&s| s > 0.0) {
            let top = -TAU / 4.0;
            context.move_to(x + (radius + 3.0) * top.cos(), y + (radius + 3.0) * top.sin());
            let _ = context.arc(x, y, radius + 3.0, top, top + served.min(1.0) * TAU);
        }
    }
    context.stroke();
}

/// The requests' marks, each at its point, one path per class and shape.
fn draw_marks<'a>(
    context: &CanvasRenderingContext2d,
    requests: impl Iterator<Item = (&'a RequestView, (f64, f64))> + Clone,
    radius: f64,
    palette: &Palette,
) {
    context.set_line_width((radius * 0.6).max(1.5));
    for class in Class::ALL {
        let shape = class.shape();
        context.begin_path();
        for (_, at) in requests.clone().filter(|(r, _)| Class::of(r) == Some(class)) {
            shape.trace(context, at, radius);
        }
        let colour = class.colour(palette).css();
        if shape.stroked() {
            context.set_stroke_style_str(&colour);
            context.stroke();
        } else {
            context.set_fill_style_str(&colour);
            context.fill();
        }
    }
}
