//! Requests in flight as dots moving along their hop. Outgoing requests use
//! a lane just above the line between the two ends, returning ones (responses
//! and bounces) a lane just below, so a request sent back by a queue timeout
//! is seen travelling back and then trying again in another colour.

use super::layout::Layout;
use crate::web::theme::{Colour, Palette};
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
        Hop::ClientToServer => (layout.client_anchor(from), layout.server_anchor(to), false),
        Hop::BalancerToServer => (layout.balancer_anchor(from), layout.server_anchor(to), false),
        Hop::BounceToClient | Hop::ServerToClient => {
            (layout.server_anchor(from), layout.client_anchor(to), true)
        }
        Hop::BounceToBalancer | Hop::ServerToBalancer => {
            (layout.server_anchor(from), layout.balancer_anchor(to), true)
        }
        Hop::BalancerToClient => (layout.balancer_anchor(from), layout.client_anchor(to), true),
        Hop::Queued | Hop::InService => {
            return layout.server_anchor(to);
        }
    };
    let t = f64::from(request.progress);
    let offset = if returning { lane } else { -lane };
    (start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t + offset)
}

pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    requests: &[RequestView],
    palette: &Palette,
) {
    let radius = if layout.compact { 2.0 } else { 3.5 };
    let lane = radius * 0.9;
    for class in Class::ALL {
        context.begin_path();
        for request in requests.iter().filter(|r| Class::of(r) == Some(class)) {
            let (x, y) = position(layout, request, lane);
            context.move_to(x + radius, y);
            let _ = context.arc(x, y, radius, 0.0, TAU);
        }
        context.set_fill_style_str(&class.colour(palette).css());
        context.fill();
    }
}
