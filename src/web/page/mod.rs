//! The views of a page, and what they share. Every element with a
//! `data-lbsim` attribute (its kind: `lab`, `embed` or `bins`) gets a view:
//! a simulation, or for `bins` the balls-into-bins view. A simulation view
//! takes its settings from its `data-lbsim-settings` attribute or, for at
//! most one view per page, from the page's URL hash, which it then mirrors.
//!
//! A view that does not follow the hash is mounted only once it comes
//! within a screen of the viewport ([`waiting`](super::waiting)).
//!
//! One animation loop drives every view; what each frame does for them,
//! and what asks for one, is in [`driving`]. The page's listeners and each
//! view's own are kept until [`destroy`].

mod driving;

pub use driving::request_frame;
#[cfg(feature = "test-hooks")]
pub use driving::take_page_frame_costs;

use super::bins_view::BinsView;
use super::dom::{self, Listeners};
use super::frame::FrameLoop;
use super::handle;
#[cfg(feature = "test-hooks")]
use super::hooks;
use super::options::Kind;
use super::trace_panel;
use super::view::{Target, View};
use super::waiting::{self, Waiter, Waiting};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Event, HtmlElement, HtmlInputElement, IntersectionObserver, KeyboardEvent, Node, ResizeObserver,
};

/// A view and the listeners on its own elements (added again when it is
/// built again).
pub struct Mounted {
    pub view: Rc<RefCell<View>>,
    listeners: RefCell<Listeners>,
}

/// Every view on the page, in page order, then those the script API
/// mounted, in the order it did.
pub type Views = Rc<RefCell<Vec<Rc<Mounted>>>>;

/// The page's balls-into-bins views, in page order.
pub type BinsViews = Rc<Vec<Rc<RefCell<BinsView>>>>;

pub struct Page {
    views: Views,
    frames: Rc<FrameLoop>,
    listeners: Listeners,
    observer: IntersectionObserver,
    /// Watches each view's box, so that an embed fits itself into it.
    resizes: ResizeObserver,
    /// The observers' callbacks, kept alive as long as the observers.
    _on_intersection: driving::ObserverCallback,
    _on_resize: driving::ObserverCallback,
    /// The views not mounted yet, until they near the viewport.
    waiting: Waiting,
}

/// Readers who ask for less motion see no request dots moving; figures and
/// charts still update.
pub const REDUCED_MOTION: &str = "(prefers-reduced-motion: reduce)";

pub fn mount() -> Result<(), JsValue> {
    let window = dom::window();
    let roots = dom::document().query_selector_all("[data-lbsim]")?;
    let mut mounted = Vec::new();
    let mut waiters = Vec::new();
    let mut bins = Vec::new();
    let mut hash_taken = false;
    for index in 0..roots.length() {
        let root: HtmlElement = roots.item(index).ok_or("a view's root went missing")?.dyn_into()?;
        let name = root.get_attribute("data-lbsim").unwrap_or_default();
        if name == "bins" {
            bins.push(Rc::new(RefCell::new(BinsView::mount(&root)?)));
            continue;
        }
        let kind = Kind::from_name(&name).ok_or_else(|| {
            JsValue::from_str(&format!("data-lbsim=\"{name}\": expected lab, embed or bins"))
        })?;
        let (settings, owns_hash) =
            match root.get_attribute("data-lbsim-settings") {
                Some(settings) => (settings, false),
                None if !hash_taken => (window.location().hash()?, true),
                None => return Err(JsValue::from_str(
                    "only one view on a page may follow the URL hash: give the others data-lbsim-settings",
                )),
            };
        hash_taken |= owns_hash;
        if !owns_hash && !waiting::is_near(&root) {
            waiters.push(Waiter { root, kind, settings });
            continue;
        }
        let view = View::mount(&root, kind, &settings, owns_hash)?;
        mounted.push(Rc::new(Mounted { view: Rc::new(RefCell::new(view)), listeners: RefCell::default() }));
    }
    let views: Views = Rc::new(RefCell::new(mounted));
    let bins: BinsViews = Rc::new(bins);
    let frames = {
        let (views, bins) = (views.clone(), bins.clone());
        FrameLoop::start(move |now_ms, asked| driving::tick(&views.borrow(), &bins, now_ms, asked))
    };
    for view in views.borrow().iter() {
        view.listen(&frames)?;
    }
    let (observer, on_intersection) = driving::observe(&views, &bins, &frames)?;
    let (resizes, on_resize) = driving::watch_sizes(&views, &frames)?;
    let mut listeners = Listeners::default();
    for view in bins.iter() {
        for (target, kind, action) in view.borrow().targets() {
            let (view, requester) = (view.clone(), frames.clone());
            listeners.add(&target, kind, move |_| {
                view.borrow_mut().act(action);
                requester.request();
            })?;
        }
    }
    let owner = views.borrow().iter().find(|m| m.view.borrow().owns_hash()).cloned();
    if let Some(owner) = owner {
        let owner_view = owner.view.clone();
        // The view that owns the page's hash is its main view: it takes
        // the page's keyboard shortcuts and follows edits of the link.
        let (view, requester) = (owner.view.clone(), frames.clone());
        listeners.add(&window, "keydown", move |event| {
            shortcut(&mut view.borrow_mut(), &event);
            requester.request();
        })?;
        let requester = frames.clone();
        listeners.add(&window, "hashchange", move |_| {
            let hash = dom::window().location().hash().unwrap_or_default();
            if !owner.view.borrow_mut().hash_changed(&hash) {
                if let Err(error) = owner.rebuild(&hash, &requester) {
                    web_sys::console::error_1(&error);
                }
            }
            mark_steps(&owner.view.borrow());
            requester.request();
        })?;
        mark_steps(&owner_view.borrow());
    }
    driving::redraw_on_page_changes(&mut listeners, &views, &bins, &frames)?;
    #[cfg(feature = "test-hooks")]
    hooks::install(&views, &frames)?;
    let waiting = Waiting::watch(waiters, mount_waiter)?;
    handle::page(|page| {
        *page.borrow_mut() = Some(Page {
            views,
            frames,
            listeners,
            observer,
            resizes,
            _on_intersection: on_intersection,
            _on_resize: on_resize,
            waiting,
        })
    });
    Ok(())
}

/// Mounts a view that was waiting, in its place in page order.
fn mount_waiter(Waiter { root, kind, settings }: Waiter) {
    let placed = handle::page(|page| {
        let page = page.borrow();
        let page = page.as_ref().ok_or("the page's views were destroyed")?;
        let mounted = page.attach(&root, kind, &settings)?;
        let mut views = page.views.borrow_mut();
        let follows = |m: &Rc<Mounted>| {
            root.compare_document_position(m.view.borrow().root()) & Node::DOCUMENT_POSITION_FOLLOWING != 0
        };
        let at = views.iter().position(follows).unwrap_or(views.len());
        views.insert(at, mounted);
        Ok::<(), JsValue>(())
    });
    if let Err(error) = placed {
        web_sys::console::error_1(&error);
    }
}

/// Mounts every view still waiting (the test hooks read every view).
#[cfg(feature = "test-hooks")]
pub fn mount_all_waiting() {
    let waiters =
        handle::page(|page| page.borrow().as_ref().map(|page| page.waiting.take_all()).unwrap_or_default());
    waiters.into_iter().for_each(mount_waiter);
}

impl Mounted {
    /// Listens to the view's own elements, and for a view that is not the
    /// page's main one, to keys pressed inside it.
    fn listen(&self, frames: &Rc<FrameLoop>) -> Result<(), JsValue> {
        let mut listeners = self.listeners.borrow_mut();
        let view = self.view.borrow();
        for (target, kind, action) in view.targets() {
            let (view, requester) = (self.view.clone(), frames.clone());
            listeners.add(&target, kind, move |event| {
                action.act(&mut view.borrow_mut(), &event);
                if view.borrow().owns_hash() {
                    mark_steps(&view.borrow());
                }
                requester.request();
            })?;
        }
        if !view.owns_hash() {
            let (view, requester) = (self.view.clone(), frames.clone());
            listeners.add(self.view.borrow().root(), "keydown", move |event| {
                shortcut(&mut view.borrow_mut(), &event);
                requester.request();
            })?;
        }
        Ok(())
    }

    /// Builds the view again on its root for `hash` (its options changed).
    fn rebuild(&self, hash: &str, frames: &Rc<FrameLoop>) -> Result<(), JsValue> {
        self.listeners.borrow_mut().remove_all();
        let (root, kind, on_screen) = {
            let view = self.view.borrow();
            (view.root().clone(), view.kind(), view.on_screen())
        };
        let mut fresh = View::mount(&root, kind, hash, true)?;
        fresh.set_on_screen(on_screen);
        *self.view.borrow_mut() = fresh;
        self.listen(frames)
    }
}

/// Marks the link of the page's essay steps (`.steps a`) that shows what
/// the main view shows (`aria-current`), and puts its caption (what to
/// watch, from `data-caption`) in the page's `.step-caption`. A replayed
/// trace is no step's run, whatever the settings: the caption says so.
fn mark_steps(view: &View) {
    let document = dom::document();
    let Ok(links) = document.query_selector_all(".steps a[href^='#']") else { return };
    let mut caption = view.replayed_trace().map(trace_panel::replaying_caption);
    for index in 0..links.length() {
        let Some(link) = links.item(index).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else {
            continue;
        };
        let current = caption.is_none() && link.get_attribute("href").is_some_and(|href| view.shows(&href));
        let _ = match current {
            true => link.set_attribute("aria-current", "step"),
            false => link.remove_attribute("aria-current"),
        };
        if current {
            caption = link.get_attribute("data-caption");
        }
    }
    if let Ok(Some(line)) = document.query_selector(".step-caption") {
        line.set_text_content(Some(caption.as_deref().unwrap_or("")));
    }
}

/// Keyboard shortcuts: space plays or pauses, "s" steps (Shift+S one event
/// where "s" goes on to the next decision), "r" resets, "p"
/// turns the presenter view on or off and "h" shows its settings, from
/// anywhere but a control that itself uses the key (a button takes space;
/// a number or text box takes every key). Sliders and menus are worked by
/// their arrow keys, so the shortcuts act from them too: a teacher who has
/// just chosen a policy can pause at once. Escape leaves a control.
fn shortcut(view: &mut View, event: &Event) {
    let Some(key) = event.dyn_ref::<KeyboardEvent>() else { return };
    let element = event.target().and_then(|t| t.dyn_into::<HtmlElement>().ok());
    let tag = element.as_ref().map(|e| e.tag_name());
    let typed_into = match element.as_ref().and_then(|e| e.dyn_ref::<HtmlInputElement>()) {
        Some(input) => input.type_() != "range",
        None => matches!(tag.as_deref(), Some("TEXTAREA")),
    };
    if typed_into || key.ctrl_key() || key.meta_key() || key.alt_key() {
        return;
    }
    let target = match key.key().as_str() {
        "Escape" => {
            if let Some(element) = element.filter(|e| e.tag_name() != "BODY") {
                let _ = element.blur();
            }
            return;
        }
        " " if tag.as_deref() != Some("BUTTON") => Target::Play,
        "s" | "S" => Target::Step,
        "r" => Target::Reset,
        "p" => Target::Presenter,
        "h" => Target::Settings,
        _ => return,
    };
    target.act(view, event);
    event.prevent_default();
}

/// Stops every view: cancels the frame in flight and removes every listener
/// and the observer.
#[wasm_bindgen]
pub fn destroy() {
    if let Some(mut page) = handle::page(|page| page.borrow_mut().take()) {
        page.frames.destroy();
        page.listeners.remove_all();
        page.observer.disconnect();
        page.resizes.disconnect();
        page.waiting.take_all();
        for mounted in page.views.borrow().iter() {
            mounted.listeners.borrow_mut().remove_all();
        }
    }
}

/// Mounts a view of `kind` on `root` for `settings` (as in a hash), beside
/// the page's others: driven by the same loop, watched by the same observer.
pub fn add_view(root: &HtmlElement, kind: Kind, settings: &str) -> Result<Rc<Mounted>, JsValue> {
    handle::page(|page| {
        let page = page.borrow();
        let page = page.as_ref().ok_or("the page's views were destroyed")?;
        if page.views.borrow().iter().any(|m| m.view.borrow().root().is_same_node(Some(root))) {
            return Err(JsValue::from_str("a view is already mounted on this element"));
        }
        let mounted = page.attach(root, kind, settings)?;
        page.views.borrow_mut().push(mounted.clone());
        Ok(mounted)
    })
}

impl Page {
    /// Mounts a view on `root`, listened to, watched and given a frame; the
    /// caller puts it among the page's views.
    fn attach(&self, root: &HtmlElement, kind: Kind, settings: &str) -> Result<Rc<Mounted>, JsValue> {
        let view = View::mount(root, kind, settings, false)?;
        let mounted = Rc::new(Mounted { view: Rc::new(RefCell::new(view)), listeners: RefCell::default() });
        mounted.listen(&self.frames)?;
        self.observer.observe(root);
        self.resizes.observe(root);
        self.frames.request();
        Ok(mounted)
    }
}

/// Takes a view off the page: its listeners and its elements go, and it
/// gets no more frames.
pub fn remove_view(mounted: &Rc<Mounted>) {
    mounted.listeners.borrow_mut().remove_all();
    let root = mounted.view.borrow().root().clone();
    root.set_text_content(None);
    handle::page(|page| {
        if let Some(page) = page.borrow().as_ref() {
            page.observer.unobserve(&root);
            page.resizes.unobserve(&root);
            page.views.borrow_mut().retain(|m| !Rc::ptr_eq(m, mounted));
        }
    });
}
