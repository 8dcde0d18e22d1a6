//! How the page drives its views: one animation loop ([`FrameLoop`]) gives
//! every view its frames. A view out of sight (an IntersectionObserver
//! watches each root) or in a hidden tab gets none, so it uses no
//! simulated time and no drawing; one that waits for more of it to come in
//! sight shows its still picture; one at rest (paused, over) only the
//! frames something outside the loop asked for. A view whose box changes
//! (a ResizeObserver watches each) fits itself into it on its next frame.

use super::{mark_steps, BinsViews, Mounted, Views, REDUCED_MOTION};
use crate::bins_view::{Action, BinsView};
use crate::dom::{self, Listeners};
use crate::frame::FrameLoop;
use crate::handle;
use crate::pace::Turn;
use crate::view::View;
use js_sys::Array;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, EventTarget, IntersectionObserver, IntersectionObserverEntry, ResizeObserver,
    ResizeObserverEntry, VisibilityState,
};

pub(super) type ObserverCallback = Closure<dyn FnMut(Array)>;

/// Frame costs of the whole page kept for the test hooks (about a minute).
const MAX_PAGE_FRAME_COSTS: usize = 4_096;

/// One frame of every view in sight, of those at rest only if the frame
/// was `asked` for; returns whether another is wanted. A balls-into-bins
/// view is its page's one content, so only a hidden tab stops it (out of
/// sight, it throws without drawing).
pub(super) fn tick(views: &[Rc<Mounted>], bins: &[Rc<RefCell<BinsView>>], now_ms: f64, asked: bool) -> bool {
    let started = dom::now_ms();
    let run_ahead_until = started + lbsim::ui::run_ahead::BUDGET_MS;
    let hidden = dom::document().visibility_state() == VisibilityState::Hidden;
    let mut more = false;
    // Every view reads where it stands before any draws: a read after
    // another view's writes costs a layout of the page, one per view in
    // sight each frame.
    let turns: Vec<Turn> =
        views.iter().map(|mounted| mounted.view.borrow_mut().turn(!hidden, asked, now_ms)).collect();
    for (mounted, turn) in views.iter().zip(turns) {
        let mut view = mounted.view.borrow_mut();
        let wanted = match turn {
            Turn::Rest => {
                view.rest();
                false
            }
            Turn::Still => {
                view.draw_still(now_ms);
                false
            }
            Turn::Run => view.frame(now_ms, run_ahead_until),
        } || view.settling();
        view.wanted_more(wanted);
        more |= wanted;
        // A trace's reading comes in a frame, not on an event.
        if view.owns_hash() && view.take_replaying_changed() {
            mark_steps(&view);
        }
    }
    if !hidden {
        for view in bins {
            more |= view.borrow_mut().frame(now_ms);
        }
    }
    handle::frame_costs(|costs| {
        if costs.len() < MAX_PAGE_FRAME_COSTS {
            costs.push(dom::now_ms() - started);
        }
    });
    more
}

/// The whole page's frame costs since the last call.
pub fn take_page_frame_costs() -> Vec<f64> {
    handle::frame_costs(std::mem::take)
}

/// Does `act` to the view mounted on `root`, if there is one.
fn with_view_at(views: &Views, root: &Element, act: impl FnOnce(&mut View)) {
    let views = views.borrow();
    if let Some(mounted) = views.iter().find(|m| m.view.borrow().root().is_same_node(Some(root))) {
        act(&mut mounted.view.borrow_mut());
    }
}

/// Watches every view's root, so views out of sight stop and come back,
/// and every balls-into-bins view's, so that one out of sight draws
/// nothing.
pub(super) fn observe(
    views: &Views,
    bins: &BinsViews,
    frames: &Rc<FrameLoop>,
) -> Result<(IntersectionObserver, ObserverCallback), JsValue> {
    let (watched, watched_bins, requester) = (views.clone(), bins.clone(), frames.clone());
    let on_intersection = ObserverCallback::new(move |entries: Array| {
        for entry in entries.iter().filter_map(|e| e.dyn_into::<IntersectionObserverEntry>().ok()) {
            let (target, on_screen) = (entry.target(), entry.is_intersecting());
            with_view_at(&watched, &target, |view| view.set_on_screen(on_screen));
            for view in watched_bins.iter().filter(|v| v.borrow().root().is_same_node(Some(&target))) {
                view.borrow_mut().set_on_screen(on_screen);
            }
        }
        requester.request();
    });
    let observer = IntersectionObserver::new(on_intersection.as_ref().unchecked_ref())?;
    for mounted in views.borrow().iter() {
        observer.observe(mounted.view.borrow().root());
    }
    for view in bins.iter() {
        observer.observe(view.borrow().root());
    }
    Ok((observer, on_intersection))
}

/// Watches every view's box: a view whose box changed fits itself into it
/// on its next frame (not in the observer's callback, where changing the
/// box again would loop).
pub(super) fn watch_sizes(
    views: &Views,
    frames: &Rc<FrameLoop>,
) -> Result<(ResizeObserver, ObserverCallback), JsValue> {
    let (watched, requester) = (views.clone(), frames.clone());
    let on_resize = ObserverCallback::new(move |entries: Array| {
        for entry in entries.iter().filter_map(|e| e.dyn_into::<ResizeObserverEntry>().ok()) {
            with_view_at(&watched, &entry.target(), View::resized);
        }
        requester.request();
    });
    let observer = ResizeObserver::new(on_resize.as_ref().unchecked_ref())?;
    for mounted in views.borrow().iter() {
        observer.observe(mounted.view.borrow().root());
    }
    Ok((observer, on_resize))
}

/// Listens for what needs nothing but a frame, or a restyle before it: a
/// new window size, a shown tab, a scroll, the reader's colour scheme or
/// motion preference changing.
pub(super) fn redraw_on_page_changes(
    listeners: &mut Listeners,
    views: &Views,
    bins: &BinsViews,
    frames: &Rc<FrameLoop>,
) -> Result<(), JsValue> {
    let window = dom::window();
    // A new window size, a shown tab or a scroll (more of a view that
    // waits to be in sight) needs nothing but a frame, which fits the
    // canvases or resumes the views.
    let document = dom::document();
    let window_target = window.unchecked_ref::<EventTarget>();
    for (target, kind) in
        [(window_target, "resize"), (window_target, "scroll"), (&document, "visibilitychange")]
    {
        let requester = frames.clone();
        listeners.add(target, kind, move |_| requester.request())?;
    }
    if let Ok(Some(scheme)) = window.match_media("(prefers-color-scheme: dark)") {
        let (views, bins, requester) = (views.clone(), bins.clone(), frames.clone());
        listeners.add(&scheme, "change", move |_| {
            for mounted in views.borrow().iter() {
                mounted.view.borrow_mut().restyle();
            }
            for view in bins.iter() {
                view.borrow_mut().act(Action::Restyle);
            }
            requester.request();
        })?;
    }
    if let Ok(Some(motion)) = window.match_media(REDUCED_MOTION) {
        let (views, requester) = (views.clone(), frames.clone());
        listeners.add(&motion, "change", move |_| {
            let reduced = dom::prefers(REDUCED_MOTION);
            for mounted in views.borrow().iter() {
                mounted.view.borrow_mut().set_reduced_motion(reduced);
            }
            requester.request();
        })?;
    }
    Ok(())
}

/// Asks the page's loop for a frame (after a change made from outside it).
pub fn request_frame() {
    handle::page(|page| {
        if let Some(page) = page.borrow().as_ref() {
            page.frames.request();
        }
    });
}
