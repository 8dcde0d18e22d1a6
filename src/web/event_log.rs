//! The events a person stepped through, one at a time, in words: the
//! newest first, a few kept, read out politely to screen readers. The
//! newest one's client, balancer and server are highlighted in the topology
//! until the simulation plays again.

use super::dom::{self, Ids};
use lbsim::narration::Told;
use lbsim::ui::following;
use lbsim::Snapshot;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

/// Events kept in the list.
const KEPT: usize = 8;
/// How much narrower than the picture the followed client's line's words
/// are: its margins, padding and the gap kept before a heading (CSS px,
/// see the stylesheet's `.following`).
const LINE_INSET_PX: f64 = 26.0;

pub struct EventLog {
    /// What the followed client is doing, in words.
    following: HtmlElement,
    panel: HtmlElement,
    list: HtmlElement,
    /// Where the log sits: marked `logging` while the log shows, for the
    /// stylesheet to put it beside the picture.
    parent: Element,
    /// The newest event, while it is highlighted.
    pub highlighted: Option<Told>,
    /// Who follows the client whose line shows (see [`Follower`]).
    follower: Follower,
    /// The followed client's line's room, as last set on it: its own
    /// picture's width, or less, up to the copies' heading over the
    /// picture's column.
    room: String,
}

/// Who follows a client. Where the reader followed one, its line lies
/// over the top of the picture, which makes no room for it. Where a view's
/// opening follows its first request, the view's sentence tells that trip
/// and no line shows: its "Click it again to stop" asked a reader to undo
/// what they never did, over the picture's header.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Follower {
    Reader,
    Opening,
}

impl EventLog {
    /// Builds the (hidden until the first step) log at the end of `parent`.
    pub fn build(parent: &Element, ids: &Ids) -> Result<EventLog, JsValue> {
        let following = dom::text_child(parent, "p", "following", "")?;
        dom::set_attributes(&following, &[("id", &ids.of("following")), ("aria-live", "polite")])?;
        following.set_hidden(true);
        let panel: HtmlElement = dom::child(parent, "section", "event-log")?;
        dom::set_attributes(
            &panel,
            &[("id", &ids.of("event-log")), ("aria-label", "Events stepped through")],
        )?;
        panel.set_hidden(true);
        dom::text_child(&panel, "h3", "", "Step by step: the latest events")?;
        let list: HtmlElement = dom::child(&panel, "ol", "")?;
        dom::set_attributes(&list, &[("aria-live", "polite"), ("reversed", "")])?;
        Ok(EventLog {
            following,
            panel,
            list,
            parent: parent.clone(),
            highlighted: None,
            follower: Follower::Reader,
            room: String::new(),
        })
    }

    /// Adds the event just processed, at the top, and highlights it.
    pub fn push(&mut self, told: Told) {
        self.add(Some(told.time_ms), &told.text);
        self.highlighted = Some(told);
    }

    /// There was no event to step to, and why.
    pub fn push_none(&mut self, why: &str) {
        self.add(None, why);
        self.highlighted = None;
    }

    fn add(&self, time_ms: Option<f64>, text: &str) {
        self.show(true);
        if let Ok(item) = dom::create::<HtmlElement>("li", "") {
            if let Some(ms) = time_ms {
                let _ = dom::text_child(&item, "span", "at", &format!("{:.3} s", ms / 1000.0));
            }
            let _ = dom::text_child(&item, "span", "", text);
            let _ = self.list.insert_before(&item, self.list.first_child().as_ref());
        }
        while self.list.child_element_count() as usize > KEPT {
            if let Some(last) = self.list.last_element_child() {
                last.remove();
            }
        }
    }

    /// Says what `client` is doing now, from the snapshot, over the top
    /// of the picture (the stylesheet lays it there, taking no room, so
    /// that nothing moves under the reader's pointer as it comes), where
    /// `one_line` in words that fit one line of `room` (CSS px) as `measure`
    /// (a font and a text) finds them. Nothing shows while a view's opening
    /// follows (see [`Follower`]).
    pub fn show_following(
        &mut self,
        client: u32,
        snapshot: &Snapshot,
        (naming, room, one_line): (following::Naming, f64, bool),
        measure: impl Fn(&str, &str) -> Option<f64>,
    ) {
        if self.follower == Follower::Opening {
            // Hidden once, not written again each frame of the trip.
            if !self.following.hidden() {
                self.stop_following_if(true);
            }
            return;
        }
        // In the words that fit on one line across the picture (or left of
        // the copies' heading), as its font measures them there; the font
        // is read from the page only where the line must fit one line.
        let font = one_line
            .then(|| dom::window().get_computed_style(&self.following).ok().flatten())
            .flatten()
            .and_then(|c| c.get_property_value("font").ok());
        let fits = |text: &str| match &font {
            Some(font) => measure(font, text).is_none_or(|width| width <= room - LINE_INSET_PX),
            None => true,
        };
        let text = following::fitted(client, &snapshot.requests, naming, fits);
        if self.following.text_content().as_deref() != Some(&text) {
            self.following.set_text_content(Some(&text));
        }
        self.following.set_hidden(false);
        // Its room, for the stylesheet.
        let room = format!("{room:.0}px");
        if self.room != room {
            let _ = self.following.style().set_property("--line-room", &room);
            self.room = room;
        }
    }

    /// `follower` follows a client from now on (see [`Follower`]).
    pub fn followed_by(&mut self, follower: Follower) {
        self.follower = follower;
    }

    /// Hides the followed client's line when nobody is followed.
    pub fn stop_following_if(&self, stopped: bool) {
        if stopped {
            self.following.set_hidden(true);
        }
    }

    /// The simulation plays (or starts over): nothing is highlighted.
    pub fn unhighlight(&mut self) {
        self.highlighted = None;
    }

    /// The simulation starts over: the log is emptied and hidden.
    pub fn clear(&mut self) {
        self.list.set_text_content(None);
        self.show(false);
        self.highlighted = None;
    }

    fn show(&self, shown: bool) {
        self.panel.set_hidden(!shown);
        let _ = self.parent.class_list().toggle_with_force("logging", shown);
    }
}
