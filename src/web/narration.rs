//! What a view says in words: the sentences its options ask for, read back
//! from the whole run's numbers (and its versus twin's), and a short
//! summary for screen readers in a polite live region, announced at most
//! every few seconds: what the strip and the picture show ("Since the run
//! began: p50 queue time 2.9 ms, p99 queue time 29.3 ms, rising; 1,204
//! bounces since the run began").

use super::dom;
use super::options::{Kind, Options};
use super::twins::Sides;
use lbsim::engine::Comparison;
use lbsim::explain::readback::Versus;
use lbsim::explain::{Readback, Sentence};
use lbsim::ui::readouts::spoken;
use lbsim::ui::whole_run::{Counted, Span};
use lbsim::{Scenario, Simulation, Summary};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

/// Wall milliseconds between two rewrites of the sentences.
const READBACK_INTERVAL_MS: f64 = 1_000.0;
/// Wall milliseconds between two announcements to screen readers.
const ANNOUNCE_INTERVAL_MS: f64 = 5_000.0;
/// What the sentences say while the view runs ahead to their point.
const HOLDING: &str = "Fast-forwarding past the warm-up to where there is something to say…";
/// What an explainer's spike says while it waits for its whole picture to
/// come in sight: beside a still picture, "Collecting: 0 requests
/// completed so far" read as a run under way that had stalled (reader 17
/// waited six seconds with half the picture in sight).
const SPIKE_WAITS: &str = "The spike starts once its whole picture is in view.";
/// A change of p99 by less than this factor is "steady".
const STEADY_WITHIN: f64 = 1.1;

pub struct Narration {
    /// The sentences shown, and where.
    say: Readback,
    readback: Option<Said>,
    live: HtmlElement,
    last_readback_ms: f64,
    last_announced_ms: f64,
    announced_p99: Option<f64>,
}

/// The sentences' paragraph: its first sentence and the rest apart, so
/// that a view short of room can show the first alone.
struct Said {
    paragraph: HtmlElement,
    first: HtmlElement,
    rest: HtmlElement,
    /// What was last written, and the paragraph's width when its type was
    /// fitted: held, opening and waiting views say the same words every
    /// frame, and fitting the type anew reads the layout each time.
    shown: Option<(Vec<String>, i32)>,
}

impl Said {
    /// Shows `sentences`, the first apart from the rest (none: hidden).
    fn show(&mut self, sentences: &[String]) {
        let width = self.paragraph.client_width();
        if self.shown.as_ref().is_some_and(|(said, at)| said == sentences && *at == width) {
            return;
        }
        self.shown = Some((sentences.to_vec(), width));
        self.paragraph.set_hidden(sentences.is_empty());
        let (first, rest) =
            sentences.split_first().map_or(("", &[][..]), |(first, rest)| (first.as_str(), rest));
        self.first.set_text_content(Some(first));
        let rest: String = rest.iter().map(|sentence| format!(" {sentence}")).collect();
        self.rest.set_text_content(Some(&rest));
        dom::fit_type(&self.paragraph);
    }
}

impl Narration {
    /// Builds the sentences' paragraph (when `options` asks for any, or
    /// the lab compares) and the live region at the end of `parent`.
    pub fn build(parent: &Element, kind: Kind, options: &Options) -> Result<Narration, JsValue> {
        // The lab says what theory knows, and in compare mode the ratios.
        let say = match (kind, options.say.is_empty(), options.versus.is_empty()) {
            (Kind::Lab, true, true) => Readback(vec![Sentence::Theory]),
            (Kind::Lab, true, false) => Readback(vec![Sentence::Versus, Sentence::Ratios, Sentence::Theory]),
            _ => options.say.clone(),
        };
        let readback = match say.is_empty() {
            true => None,
            false => {
                let paragraph = dom::text_child(parent, "p", "readback", "")?;
                paragraph.set_hidden(true);
                let first = dom::text_child(&paragraph, "span", "said-first", "")?;
                let rest = dom::text_child(&paragraph, "span", "said-rest", "")?;
                Some(Said { paragraph, first, rest, shown: None })
            }
        };
        let live = dom::text_child(parent, "p", "visually-hidden", "")?;
        dom::set_attributes(&live, &[("aria-live", "polite"), ("aria-atomic", "true")])?;
        Ok(Narration {
            say,
            readback,
            live,
            last_readback_ms: f64::NEG_INFINITY,
            last_announced_ms: f64::NEG_INFINITY,
            announced_p99: None,
        })
    }

    /// Rewrites the sentences, for a run of `scenario` beside its twin,
    /// when they are due (or `force`d); returns whether it did, `None`
    /// when the view has no sentences.
    /// `changed_at_s`: when the run's settings last changed without
    /// starting over; `draining`, what a server given back its speed is
    /// doing, said last while its queue drains.
    pub fn update(
        &mut self,
        now_ms: f64,
        force: bool,
        versus: &[(&str, String)],
        scenario: &Scenario,
        (sim, twin): (&Simulation, Option<&Simulation>),
        (changed_at_s, draining): (Option<f64>, Option<String>),
    ) -> Option<bool> {
        let readback = self.readback.as_mut()?;
        if !force && now_ms - self.last_readback_ms < READBACK_INTERVAL_MS {
            return Some(false);
        }
        self.last_readback_ms = now_ms;
        let (summary, twin_summary) = (sim.summary(), twin.map(Simulation::summary));
        let comparison = twin.map(|twin| Comparison::of(sim, twin));
        // A sentence names each side as prose does, quoted where its name
        // holds a comma.
        let sides = Sides::of(scenario, versus).map(|sides| sides.in_prose());
        let (own, label) = sides.as_ref().map_or(("", ""), |sides| (sides.own.as_str(), sides.twin.as_str()));
        let versus = twin_summary.as_ref().map(|summary| Versus {
            comparison: comparison.as_ref(),
            ..twin_as_read(summary, (own, label), sim, twin)
        });
        let mut sentences = self.say.sentences(scenario, &summary, versus, changed_at_s);
        sentences.extend(draining.filter(|_| !sentences.is_empty()));
        readback.show(&sentences);
        Some(true)
    }

    /// While the view runs ahead to the sentences' point, says so instead
    /// of reading back the passing states of the run.
    pub fn hold(&mut self) -> Option<bool> {
        self.say_only(HOLDING)
    }

    /// Says what the opening of a view of speed `view_speed` shows (see
    /// `ui::opening`).
    pub fn tell_opening(&mut self, view_speed: f64) -> Option<bool> {
        self.say_only(&lbsim::ui::opening::words(view_speed))
    }

    /// Says that the spike waits for its whole picture to come in sight.
    pub fn wait_for_sight(&mut self) -> Option<bool> {
        self.say_only(SPIKE_WAITS)
    }

    /// Says nothing yet (the view waits for the reader's guess).
    pub fn hide(&mut self) -> Option<bool> {
        self.say_only("")
    }

    /// Says `words` (nothing, when empty) in place of the sentences, which
    /// it does not read back from the run: `None`, as [`Narration::update`]
    /// says of a view without sentences.
    fn say_only(&mut self, words: &str) -> Option<bool> {
        if let Some(readback) = &mut self.readback {
            let said: Vec<String> = (!words.is_empty()).then(|| words.to_string()).into_iter().collect();
            readback.show(&said);
        }
        None
    }

    /// The simulated time before which the sentences cannot have their
    /// point to make (see [`Readback::earliest_s`]).
    pub fn earliest_s(&self, scenario: &Scenario) -> f64 {
        self.say.earliest_s(scenario)
    }

    /// Whether the sentences have their point to make about the run so
    /// far (see [`Readback::ready`]); without sentences, at once.
    pub fn ready(&self, scenario: &Scenario, sim: &Simulation, twin: Option<&Simulation>) -> bool {
        if self.readback.is_none() {
            return true;
        }
        let (summary, twin_summary) = (sim.summary(), twin.map(Simulation::summary));
        let versus = twin_summary.as_ref().map(|summary| twin_as_read(summary, ("", ""), sim, twin));
        self.say.ready(scenario, &summary, versus.as_ref())
    }

    /// Tells screen readers what the strip shows (`strip`: its span,
    /// whether it counts anything, its p50 and p99), the p99's trend, and
    /// the requests the picture counts as `bounced` since the run began.
    pub fn announce(
        &mut self,
        now_ms: f64,
        playing: bool,
        strip: Option<(Span, Counted, (f64, f64))>,
        bounced: u64,
    ) {
        if !playing || now_ms - self.last_announced_ms < ANNOUNCE_INTERVAL_MS {
            return;
        }
        let Some((span, counted, (p50, p99))) = strip else { return };
        self.last_announced_ms = now_ms;
        let measured = (counted == Counted::Some).then_some(p99);
        let trend = match (std::mem::replace(&mut self.announced_p99, measured), measured) {
            (Some(before), Some(p99)) if p99 > before * STEADY_WITHIN => ", rising",
            (Some(before), Some(p99)) if p99 * STEADY_WITHIN < before => ", falling",
            (Some(_), Some(_)) => ", steady",
            _ => "",
        };
        self.live.set_text_content(Some(&spoken(span, counted, (p50, p99), trend, bounced)));
    }

    /// Moves the sentences (and the live region) before `sibling`.
    pub fn place_before(&self, sibling: &Element) -> Result<(), JsValue> {
        let parent = sibling.parent_node().ok_or("the view's layout has no parent")?;
        if let Some(readback) = &self.readback {
            parent.insert_before(&readback.paragraph, Some(sibling))?;
        }
        parent.insert_before(&self.live, Some(sibling))?;
        Ok(())
    }

    /// The sentences as last shown.
    pub fn readback(&self) -> String {
        self.readback.as_ref().and_then(|r| r.paragraph.text_content()).unwrap_or_default()
    }
}

/// The twin as the sentences read it (without the batch comparison).
fn twin_as_read<'a>(
    summary: &'a Summary,
    (own, label): (&'a str, &'a str),
    sim: &Simulation,
    twin: Option<&Simulation>,
) -> Versus<'a> {
    let same_settings = twin.is_some_and(|twin| twin.scenario() == sim.scenario());
    Versus { summary, label, own, comparison: None, same_settings }
}
