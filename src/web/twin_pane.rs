//! The versus twin drawn beside the view's own simulation, at the same
//! simulated time: the lab's compare mode (with the twin's own readouts)
//! and every embed whose link names a twin (the picture alone, its
//! numbers in the sentences). Each picture is titled by what its run is
//! (see `twins`), with the letter the charts' line labels use.

use super::canvases::Canvases;
use super::dom::{self, Ids};
use super::preset_picker::add_presets;
use super::readouts::Readouts;
use super::surface::{Beside, Surface};
use super::topology::{BounceBoxes, Part};
use super::twins::{Sides, PRESET_KEY};
use lbsim::metrics::Counts;
use lbsim::ui::bounces::{BounceMark, BounceMarks};
use lbsim::ui::readouts::Readout;
use lbsim::ui::whole_run::{self, Kept, Span};
use lbsim::{Simulation, Snapshot};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement};

pub struct TwinPane {
    /// The titles of the view's own picture and the twin's, each as its
    /// side's name and how rare its bounces are.
    titles: [[HtmlElement; 2]; 2],
    /// What each run is, and, where the view's sentences speak of
    /// bounces, each run's bounces and requests so far.
    sides: Option<Sides>,
    bounced: Option<[(u64, u64); 2]>,
    readouts: Option<Readouts>,
    /// The twin's whole-run figures, once its run is over.
    whole_run: Kept,
    topology: Surface,
    snapshot: Snapshot,
    /// The twin's servers that have bounced a request, marked as the
    /// view's own are.
    bounces: BounceMarks,
}

impl TwinPane {
    /// Builds the twin's pane at the end of `panes`, beside the view's own
    /// pane whose title is `own_title`: in the lab, with readouts of its
    /// own (those the view shows, `lab_readouts`) and headed as a part of
    /// the page; in an embed, the picture with a plain title (the page's
    /// headings are its author's).
    pub fn build(
        panes: &Element,
        ids: &Ids,
        own_title: HtmlElement,
        lab_readouts: Option<&[Readout]>,
    ) -> Result<TwinPane, JsValue> {
        let lab = lab_readouts.is_some();
        let pane: Element = dom::child(panes, "div", "pane pane-b")?;
        let title = dom::text_child(&pane, title_tag(lab), "pane-title", "")?;
        let ids = ids.nested("versus");
        let readouts = lab_readouts.map(|shown| Readouts::build(&pane, &ids, shown)).transpose()?;
        let canvas: HtmlCanvasElement = dom::child(&pane, "canvas", "topology")?;
        dom::set_attributes(&canvas, &[("id", &ids.of("topology")), ("role", "img")])?;
        Ok(TwinPane {
            titles: [title_parts(&own_title)?, title_parts(&title)?],
            sides: None,
            bounced: None,
            readouts,
            whole_run: Kept::default(),
            topology: Surface::new(canvas)?,
            snapshot: Snapshot::default(),
            bounces: BounceMarks::default(),
        })
    }

    /// Titles both pictures by what their runs are, and describes the
    /// twin's for screen readers.
    pub fn name(&mut self, sides: &Sides) {
        self.sides = Some(sides.clone());
        self.retitle();
        let description = format!(
            "The same clients and servers with {}, on the same arrivals at the same simulated time. Click a \
             server to slow it to a quarter of its speed in both runs, again to restore it.",
            sides.in_prose().twin
        );
        let _ = self.topology.canvas.set_attribute("aria-label", &description);
    }

    /// Counts each run's bounces of its requests (`own`'s and the twin's)
    /// in the pictures' titles.
    pub fn count_bounces(&mut self, own: &Counts, twin: &Counts) {
        let bounced = Some([(own.bounces, own.created), (twin.bounces, twin.created)]);
        if bounced != self.bounced {
            self.bounced = bounced;
            self.retitle();
        }
    }

    fn retitle(&self) {
        let Some(sides) = &self.sides else { return };
        for ([name, rarity], (name_text, rarity_text)) in self.titles.iter().zip(sides.titles(self.bounced)) {
            for (part, text) in [(name, Some(name_text.as_str())), (rarity, rarity_text.as_deref())] {
                if part.text_content().as_deref() != text {
                    part.set_text_content(text);
                }
            }
        }
    }

    /// The twin's bounce marks as last drawn, and where their crosses and
    /// plates are (for tests).
    pub fn bounce_marks(&self, canvases: &Canvases) -> (Vec<BounceMark>, Vec<BounceBoxes>) {
        let marks = self.bounces.shown();
        let rects = canvases.bounce_marks(&self.snapshot, &marks, Some(&self.topology));
        (marks, rects)
    }

    /// Takes the twin's state to draw this frame (before the view's own
    /// picture is drawn, which follows its rows' scale).
    pub fn take(&mut self, twin: &Simulation, max_requests: usize) {
        twin.snapshot_into(&mut self.snapshot, max_requests);
    }

    /// What the twin's picture shows that the view's own rows follow, when
    /// it `keeps_copies` (see `Beside`).
    pub fn shown_beside(&self, keeps_copies: bool) -> Beside {
        Beside { copies: keeps_copies }
    }

    /// What the view's own picture beside this one shows that its rows
    /// follow (see `Beside`).
    pub fn draw_beside(&mut self, beside: Beside) {
        self.topology.beside = beside;
    }

    /// The twin's longest queue as last taken.
    pub fn longest_queue(&self) -> u32 {
        self.snapshot.servers.iter().map(|server| server.queued).max().unwrap_or(0)
    }

    /// The longest queue of both runs so far, which sets how finely the
    /// twin's picture draws queues, as the view's own does (see `Surface`).
    pub fn queues_seen(&mut self, longest: u32) {
        self.topology.longest_queue = longest;
    }

    /// Each of the twin's servers' queue as last drawn: its length and how
    /// far left of its box it is drawn (CSS px; for tests).
    pub fn queues(&self, canvases: &Canvases) -> Vec<(u32, f64)> {
        let lengths = canvases.queue_lengths(&self.snapshot, Some(&self.topology));
        self.snapshot.servers.iter().map(|server| server.queued).zip(lengths).collect()
    }

    /// The client or server drawn at `point` (CSS px) on the twin's
    /// picture.
    pub fn part_at(&self, canvases: &Canvases, point: (f64, f64)) -> Option<Part> {
        canvases.part_at(&self.snapshot, Some(&self.topology), point)
    }

    /// The twin's canvas, which takes a click on a server as the view's
    /// own picture does.
    pub fn canvas(&self) -> &HtmlCanvasElement {
        &self.topology.canvas
    }

    /// The twin's counts as last drawn.
    pub fn counts(&self) -> &Counts {
        &self.snapshot.counts
    }

    /// Draws the twin as last taken, in the view's colours.
    pub fn draw(
        &mut self,
        twin: &Simulation,
        canvases: &Canvases,
        now_ms: f64,
        speed: Option<f64>,
        force: bool,
    ) {
        let bounced: Vec<u64> = self.snapshot.servers.iter().map(|s| s.bounced).collect();
        self.bounces.observe(now_ms, speed.is_some(), &bounced);
        self.topology.fit();
        canvases.draw_topology_on(&self.snapshot, &self.topology, &self.bounces.shown());
        if let Some(readouts) = &mut self.readouts {
            if readouts.due(now_ms, force) {
                let span = Span::of(whole_run::is_over(twin), false, 0.0);
                let figures = (span, self.whole_run.of(twin, span));
                readouts.show(&self.snapshot, (speed, None), now_ms, figures, None);
            }
        }
    }
}

/// A picture's title as its two parts: the side's name, which a narrow
/// picture cuts short, and how rare its run's bounces are, which it keeps.
fn title_parts(title: &HtmlElement) -> Result<[HtmlElement; 2], JsValue> {
    title.set_text_content(None);
    Ok([dom::text_child(title, "span", "side", "")?, dom::text_child(title, "span", "rarity", "")?])
}

/// The element a pane's title is: a heading in the lab, a paragraph in an
/// embed.
pub fn title_tag(lab: bool) -> &'static str {
    match lab {
        true => "h2",
        false => "p",
    }
}

/// The lab's form for compare mode: which settings B changes, or which
/// preset B is.
pub struct CompareForm {
    pub input: HtmlInputElement,
    pub button: HtmlElement,
    pub preset: HtmlSelectElement,
}

impl CompareForm {
    /// Builds the form at the end of `panel`, showing `versus` (the
    /// settings B changes now, as the link writes them) and the preset it
    /// names, if any.
    pub fn build(
        panel: &Element,
        ids: &Ids,
        versus: &str,
        preset: Option<&str>,
    ) -> Result<CompareForm, JsValue> {
        let group: Element = dom::child(panel, "fieldset", "group compare")?;
        dom::text_child(&group, "legend", "", "Compare")?;
        let preset = preset_menu(&group, ids, preset)?;
        let row: HtmlElement = dom::child(&group, "div", "control")?;
        let id = ids.of("versus");
        let label = dom::text_child(&row, "label", "", "B differs from A in")?;
        label.set_attribute("for", &id)?;
        let line: HtmlElement = dom::child(&row, "div", "seed-line")?;
        let input: HtmlInputElement = dom::child(&line, "input", "")?;
        let help_id = ids.of("versus-help");
        dom::set_attributes(
            &input,
            &[
                ("id", &id),
                ("type", "text"),
                // The lab starts on random: the example compares it with
                // something else.
                ("placeholder", "policy:power-of-d"),
                ("aria-describedby", &help_id),
            ],
        )?;
        input.set_value(versus);
        let button = dom::text_child(&line, "button", "quiet", "Compare")?;
        dom::set_attributes(&button, &[("id", &ids.of("compare")), ("type", "button")])?;
        let help = dom::text_child(
            &row,
            "p",
            "help",
            "settings as key:value, separated by ; (policy:power-of-d;load:0.95), or preset:NAME as the menu above \
             writes it; B runs beside A on the same seed, seeing the same arrivals; empty stops comparing",
        )?;
        help.set_id(&help_id);
        Ok(CompareForm { input, button, preset })
    }

    /// What B changes once the person has chosen a preset for it: that
    /// preset, or nothing (no comparison) for the menu's first entry.
    pub fn preset_chosen(&self) {
        let name = self.preset.value();
        self.input.set_value(&match name.is_empty() {
            true => String::new(),
            false => format!("{PRESET_KEY}:{name}"),
        });
    }
}

/// The menu that makes B a preset, to compare two systems on the same
/// arrivals (A is the lab's own settings, a preset of the menu above or
/// not), showing `chosen`.
fn preset_menu(group: &Element, ids: &Ids, chosen: Option<&str>) -> Result<HtmlSelectElement, JsValue> {
    let row: HtmlElement = dom::child(group, "div", "control preset")?;
    let id = ids.of("versus-preset");
    dom::text_child(&row, "label", "", "B is the preset")?.set_attribute("for", &id)?;
    let select: HtmlSelectElement = dom::child(&row, "select", "")?;
    select.set_id(&id);
    dom::text_child(&select, "option", "", "none: B differs by the settings below")?
        .set_attribute("value", "")?;
    add_presets(&select)?;
    select.set_value(chosen.unwrap_or_default());
    Ok(select)
}
