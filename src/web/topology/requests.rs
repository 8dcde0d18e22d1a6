//! Requests in flight as marks moving along their hop. Outgoing requests use
//! a lane just above the line between the two ends, returning ones (responses
//! and bounces) a lane just below, so a request sent back by a queue timeout
//! is seen travelling back and then trying again. Each state has its shape
//! as well as its colour (a dot, a ring for a retry, a cross for a bounce, a
//! square for a handshake), so none relies on colour alone.

use super::layout::Layout;
use crate::theme::{Colour, Palette};
use lbsim::engine::{Hop, RequestView};
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
    let t = f64::from(request.progress);
    let offset = if returning { lane } else { -lane };
    (start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t + offset)
}

/// Draws `requests`; with a `followed` client, the others faded and its own
/// larger, on top, each joined to its client by a line.
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    requests: &[RequestView],
    followed: Option<u32>,
    palette: &Palette,
) {
    let radius: f64 = if layout.compact { 2.0 } else { 3.5 };
    let lane = radius * 0.9;
    let is_followed = |r: &RequestView| Some(r.client) == followed;
    context.set_global_alpha(if followed.is_some() { 0.3 } else { 1.0 });
    draw_marks(context, layout, requests.iter().filter(|r| !is_followed(r)), radius, lane, palette);
    context.set_global_alpha(1.0);
    if let Some(client) = followed {
        let own: Vec<&RequestView> = requests.iter().filter(|r| is_followed(r)).collect();
        context.set_stroke_style_str(&palette.ink.css());
        context.set_line_width(1.5);
        context.begin_path();
        let (cx, cy) = layout.client_anchor(client as usize);
        for request in &own {
            let (x, y) = position(layout, request, lane);
            context.move_to(cx, cy);
            context.line_to(x, y);
        }
        context.stroke();
        draw_marks(context, layout, own.into_iter(), radius * 1.8, lane, palette);
    }
}

/// The requests' marks, one path per class and shape.
fn draw_marks<'a>(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    requests: impl Iterator<Item = &'a RequestView> + Clone,
    radius: f64,
    lane: f64,
    palette: &Palette,
) {
    context.set_line_width((radius * 0.6).max(1.5));
    for class in Class::ALL {
        let shape = class.shape();
        context.begin_path();
        for request in requests.clone().filter(|r| Class::of(r) == Some(class)) {
            shape.trace(context, position(layout, request, lane), radius);
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
