//! Where a pop-up opens (the Key, More's drawer, a folded chart, the trace
//! box's report): where its view's style puts it, then moved, and
//! shortened or narrowed where it is larger, to lie wholly inside the
//! window. Each had a rule of its own (a distance from its view's foot, a
//! share of its view's height), and on a phone, where a view is taller
//! than the screen, More's drawer opened upwards past the window's top.

/// A box in the window, in CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

/// What a pop-up keeps clear of the window's edges (CSS px).
pub const MARGIN_PX: f64 = 8.0;

/// `wanted` moved into a window `width` × `height` (CSS px), a margin from
/// its edges: no larger than the window allows, then shifted the least
/// that brings it inside.
pub fn inside_window(wanted: Area, (width, height): (f64, f64)) -> Area {
    let (left, width) = span_inside(wanted.left, wanted.width, width);
    let (top, height) = span_inside(wanted.top, wanted.height, height);
    Area { left, top, width, height }
}

/// One axis of [`inside_window`]: a span from `start`, `size` long, in a
/// window `room` long.
fn span_inside(start: f64, size: f64, room: f64) -> (f64, f64) {
    let size = size.min(room - 2.0 * MARGIN_PX).max(0.0);
    (start.min(room - MARGIN_PX - size).max(MARGIN_PX), size)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHONE: (f64, f64) = (390.0, 844.0);

    fn area(left: f64, top: f64, width: f64, height: f64) -> Area {
        Area { left, top, width, height }
    }

    #[test]
    fn a_pop_up_inside_the_window_stays_where_its_view_puts_it() {
        let key = area(20.0, 300.0, 350.0, 120.0);
        assert_eq!(inside_window(key, PHONE), key);
    }

    #[test]
    fn a_pop_up_past_an_edge_moves_back_inside_by_the_margin() {
        // More's drawer opening upwards from a phone view's foot, its top
        // 200 px above the window's.
        assert_eq!(inside_window(area(-30.0, -200.0, 300.0, 500.0), PHONE), area(8.0, 8.0, 300.0, 500.0));
        // A chart reaching past the window's foot and right edge.
        assert_eq!(inside_window(area(200.0, 700.0, 300.0, 300.0), PHONE), area(82.0, 536.0, 300.0, 300.0));
    }

    #[test]
    fn a_pop_up_larger_than_the_window_takes_the_window_less_its_margins() {
        // A folded chart opened over a stacked view 1,500 px tall.
        assert_eq!(inside_window(area(10.0, -400.0, 370.0, 1500.0), PHONE), area(10.0, 8.0, 370.0, 828.0));
        assert_eq!(inside_window(area(0.0, 0.0, 900.0, 100.0), PHONE), area(8.0, 8.0, 374.0, 100.0));
    }
}
