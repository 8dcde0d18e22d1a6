//! The balls-into-bins view (`bins.html`): two fillings side by side, each
//! by a method of its own (random and best of two at first), balls thrown
//! live a batch per animation frame, each drawn as a histogram of its bins
//! with the mean and the fullest and emptiest bins marked, and the spread
//! (max − mean, max − min) in large type under it. Both fillings throw the
//! same number of balls each frame, so they can be compared at any moment.
//!
//! The view owns the elements inside its root (`data-lbsim="bins"`); the
//! page's one animation loop drives it (see `page.rs`).

mod histogram;

use super::dom::{self, Ids};
use super::surface::Surface;
use super::theme::Palette;
use lbsim::bins::{Bins, Method, MAX_D};
use lbsim::explain::readback::thousands;
use wasm_bindgen::prelude::*;
use web_sys::{Element, EventTarget, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement};

/// The seed of both fillings: a reset replays the same throws.
const SEED: u64 = 1;
/// The choices offered for the number of bins and of balls.
const BIN_COUNTS: [usize; 7] = [10, 20, 50, 100, 200, 500, 1000];
const BALL_COUNTS: [u64; 5] = [1_000, 10_000, 100_000, 1_000_000, 10_000_000];
/// The speed slider's ends, in balls per frame (a logarithmic scale).
const SLOWEST: f64 = 1.0;
const FASTEST: f64 = 100_000.0;
/// The screen-reader summary is spoken at most this often while running.
const STATUS_INTERVAL_MS: f64 = 5_000.0;

/// The methods the menus offer, by their values.
const METHODS: [(&str, &str); 4] = [
    ("random", "Random (one choice)"),
    ("best-of-d", "Best of d choices"),
    ("round-robin", "Round-robin"),
    ("hash", "Hash of the ball's number"),
];

/// One filling and the elements that show it.
struct Side {
    filling: Bins,
    method: HtmlSelectElement,
    surface: Surface,
    above: HtmlElement,
    range: HtmlElement,
}

pub struct BinsView {
    root: HtmlElement,
    sides: [Side; 2],
    bins: HtmlSelectElement,
    balls: HtmlSelectElement,
    choices: HtmlInputElement,
    choices_shown: HtmlElement,
    speed: HtmlInputElement,
    speed_shown: HtmlElement,
    own_scale: HtmlInputElement,
    play: HtmlElement,
    reset: HtmlElement,
    thrown: HtmlElement,
    status: HtmlElement,
    running: bool,
    last_status_ms: f64,
    /// Something changed that the canvases do not show yet.
    stale: bool,
}

impl BinsView {
    pub fn mount(root: &HtmlElement) -> Result<BinsView, JsValue> {
        let ids = Ids::for_root(root);
        root.set_text_content(None);
        root.class_list().add_1("lbsim-bins")?;
        let settings: HtmlElement = dom::child(root, "div", "bins-settings")?;
        dom::set_attributes(&settings, &[("role", "group"), ("aria-label", "Settings")])?;
        let bins = menu(
            &settings,
            &ids,
            "bins",
            "Bins",
            BIN_COUNTS.iter().map(|n| (n.to_string(), thousands(*n as u64))),
        )?;
        bins.set_value("100");
        let balls = menu(
            &settings,
            &ids,
            "balls",
            "Balls to throw",
            BALL_COUNTS.iter().map(|n| (n.to_string(), thousands(*n))),
        )?;
        balls.set_value("1000000");
        let (choices, choices_shown) =
            slider(&settings, &ids, "choices", "d (best of d)", 2.0, MAX_D as f64, 2.0)?;
        let (speed, speed_shown) = slider(&settings, &ids, "speed", "Balls a frame", 0.0, 100.0, 66.0)?;
        let scale_line: HtmlElement = dom::child(&settings, "div", "control bins-control bins-check")?;
        let own_scale: HtmlInputElement = dom::child(&scale_line, "input", "")?;
        dom::set_attributes(&own_scale, &[("type", "checkbox"), ("id", &ids.of("own-scale"))])?;
        let label = dom::text_child(&scale_line, "label", "", "Each on its own scale")?;
        label.set_attribute("for", &ids.of("own-scale"))?;
        let buttons: HtmlElement = dom::child(&settings, "div", "bins-buttons")?;
        let play = dom::text_child(&buttons, "button", "play", "Pause")?;
        dom::set_attributes(&play, &[("type", "button"), ("id", &ids.of("play"))])?;
        let reset = dom::text_child(&buttons, "button", "", "Reset")?;
        dom::set_attributes(
            &reset,
            &[
                ("type", "button"),
                ("id", &ids.of("reset")),
                ("title", "Empty the bins and throw the same balls again"),
            ],
        )?;
        let thrown = dom::text_child(root, "p", "bins-thrown", "")?;
        thrown.set_id(&ids.of("thrown"));
        let panes: HtmlElement = dom::child(root, "div", "bins-panes")?;
        let sides =
            [side(&panes, &ids.nested("left"), "random")?, side(&panes, &ids.nested("right"), "best-of-d")?];
        let status = dom::text_child(root, "p", "visually-hidden", "")?;
        dom::set_attributes(
            &status,
            &[("role", "status"), ("aria-live", "polite"), ("id", &ids.of("status"))],
        )?;
        let mut view = BinsView {
            root: root.clone(),
            sides,
            bins,
            balls,
            choices,
            choices_shown,
            speed,
            speed_shown,
            own_scale,
            play,
            reset,
            thrown,
            status,
            running: true,
            last_status_ms: f64::NEG_INFINITY,
            stale: true,
        };
        view.start_over();
        Ok(view)
    }

    /// Each element whose events the view acts on, the event, and what to do.
    pub fn targets(&self) -> Vec<(EventTarget, &'static str, Action)> {
        let mut targets: Vec<(EventTarget, &'static str, Action)> = vec![
            (self.bins.clone().into(), "change", Action::StartOver),
            (self.balls.clone().into(), "change", Action::StartOver),
            (self.choices.clone().into(), "input", Action::StartOver),
            (self.speed.clone().into(), "input", Action::Restyle),
            (self.own_scale.clone().into(), "change", Action::Restyle),
            (self.play.clone().into(), "click", Action::Play),
            (self.reset.clone().into(), "click", Action::StartOver),
        ];
        for side in &self.sides {
            targets.push((side.method.clone().into(), "change", Action::StartOver));
        }
        targets
    }

    pub fn act(&mut self, action: Action) {
        match action {
            Action::StartOver => self.start_over(),
            Action::Play => {
                if self.done() {
                    self.start_over();
                } else {
                    self.running = !self.running;
                }
            }
            Action::Restyle => {}
        }
        self.stale = true;
        self.show_settings();
    }

    /// Empties both fillings for the settings shown and starts throwing.
    fn start_over(&mut self) {
        let bins = self.bins.value().parse().unwrap_or(100);
        let d = self.choices.value_as_number() as usize;
        for side in &mut self.sides {
            let method = match side.method.value().as_str() {
                "best-of-d" => Method::best_of(d.clamp(2, MAX_D)),
                "round-robin" => Method::RoundRobin,
                "hash" => Method::Hash,
                _ => Method::Random,
            };
            side.filling = Bins::new(bins, method, SEED);
        }
        self.running = true;
        self.last_status_ms = f64::NEG_INFINITY;
        self.stale = true;
        self.show_settings();
    }

    fn target_balls(&self) -> u64 {
        self.balls.value().parse().unwrap_or(1_000_000)
    }

    fn done(&self) -> bool {
        self.sides[0].filling.thrown() >= self.target_balls()
    }

    /// Balls per frame: the slider's 0 to 100 on a logarithmic scale, to
    /// two significant figures (2,000 rather than 1,995).
    fn per_frame(&self) -> u64 {
        let position = self.speed.value_as_number() / 100.0;
        let balls = SLOWEST * libm::pow(FASTEST / SLOWEST, position);
        let unit = libm::pow(10.0, (libm::floor(libm::log10(balls)) - 1.0).max(0.0));
        (libm::round(balls / unit) * unit) as u64
    }

    fn show_settings(&self) {
        self.choices_shown.set_text_content(Some(&self.choices.value()));
        self.speed_shown.set_text_content(Some(&thousands(self.per_frame())));
        let label = match (self.running, self.done()) {
            (_, true) => "Again",
            (true, false) => "Pause",
            (false, false) => "Play",
        };
        self.play.set_text_content(Some(label));
        let uses_d = self.sides.iter().any(|s| s.method.value() == "best-of-d");
        let _ = self.choices.toggle_attribute_with_force("disabled", !uses_d);
    }

    /// Throws `balls` more into each filling (no further than the balls to
    /// throw), as the test hooks and the frames do.
    pub fn throw(&mut self, balls: u64) {
        let left = self.target_balls().saturating_sub(self.sides[0].filling.thrown());
        for side in &mut self.sides {
            side.filling.throw(balls.min(left));
        }
        self.stale = true;
    }

    /// One animation frame: throw a batch, draw; returns whether another
    /// frame is wanted.
    pub fn frame(&mut self, now_ms: f64) -> bool {
        if self.running {
            self.throw(self.per_frame());
            if self.done() {
                self.running = false;
                self.show_settings();
                self.last_status_ms = f64::NEG_INFINITY;
            }
        }
        let resized = self.sides.iter_mut().fold(false, |any, side| side.surface.fit() | any);
        if self.stale || resized {
            self.draw();
            self.stale = false;
        }
        if now_ms - self.last_status_ms >= STATUS_INTERVAL_MS
            || (!self.running && self.last_status_ms.is_infinite())
        {
            self.status.set_text_content(Some(&self.summary()));
            self.last_status_ms = now_ms;
        }
        self.running
    }

    fn draw(&self) {
        let palette = Palette::read(&self.root);
        let reach = |filling: &Bins| {
            let (max, min) = filling.extremes();
            (f64::from(max) - filling.mean()).max(filling.mean() - f64::from(min))
        };
        let shared = self.sides.iter().map(|s| reach(&s.filling)).fold(0.0, f64::max);
        let own = self.own_scale.checked();
        for side in &self.sides {
            let filling = &side.filling;
            let half_range = if own { reach(filling) } else { shared };
            histogram::draw(&side.surface, filling, half_range, &palette);
            let spread = filling.spread();
            side.above.set_text_content(Some(&histogram::count_text(spread.max_minus_mean)));
            side.range.set_text_content(Some(&thousands(u64::from(spread.max_minus_min))));
            let description = format!(
                "Histogram of {} bins filled by {}: {}",
                filling.counts().len(),
                filling.method().describe(),
                spread_words(filling)
            );
            let _ = side.surface.canvas.set_attribute("aria-label", &description);
        }
        let thrown = self.sides[0].filling.thrown();
        self.thrown.set_text_content(Some(&format!(
            "{} of {} balls thrown into {} bins, the same number into each",
            thousands(thrown),
            thousands(self.target_balls()),
            self.sides[0].filling.counts().len()
        )));
    }

    /// Both spreads in words, for the live region.
    pub fn summary(&self) -> String {
        let thrown = self.sides[0].filling.thrown();
        let sides: Vec<String> = self
            .sides
            .iter()
            .map(|s| format!("{}, {}", s.filling.method().describe(), spread_words(&s.filling)))
            .collect();
        format!("After {} balls: {}.", thousands(thrown), sides.join("; "))
    }

    /// Each filling's state as JSON, for the test hooks.
    pub fn state_json(&self) -> String {
        let sides: Vec<serde_json::Value> = self
            .sides
            .iter()
            .map(|s| {
                let spread = s.filling.spread();
                serde_json::json!({
                    "method": s.filling.method(),
                    "bins": s.filling.counts().len(),
                    "thrown": s.filling.thrown(),
                    "max_minus_mean": spread.max_minus_mean,
                    "max_minus_min": spread.max_minus_min,
                })
            })
            .collect();
        serde_json::json!({ "running": self.running, "balls": self.target_balls(), "sides": sides })
            .to_string()
    }
}

/// What an event asks of the view.
#[derive(Clone, Copy)]
pub enum Action {
    /// A setting that changes the fillings: empty the bins and throw again.
    StartOver,
    Play,
    /// Only the drawing or the pace changes.
    Restyle,
}

fn spread_words(filling: &Bins) -> String {
    let spread = filling.spread();
    let above = histogram::count_text(spread.max_minus_mean);
    format!("max − mean {above}, max − min {}", spread.max_minus_min)
}

/// A labelled menu of `(value, text)` options.
fn menu(
    parent: &Element,
    ids: &Ids,
    part: &str,
    label: &str,
    options: impl Iterator<Item = (String, String)>,
) -> Result<HtmlSelectElement, JsValue> {
    let control: HtmlElement = dom::child(parent, "div", "control bins-control")?;
    let name = dom::text_child(&control, "label", "", label)?;
    name.set_attribute("for", &ids.of(part))?;
    let select: HtmlSelectElement = dom::child(&control, "select", "")?;
    select.set_id(&ids.of(part));
    for (value, text) in options {
        let option = dom::text_child(&select, "option", "", &text)?;
        option.set_attribute("value", &value)?;
    }
    Ok(select)
}

/// A labelled slider from `min` to `max` in whole steps, with its value shown.
fn slider(
    parent: &Element,
    ids: &Ids,
    part: &str,
    label: &str,
    min: f64,
    max: f64,
    value: f64,
) -> Result<(HtmlInputElement, HtmlElement), JsValue> {
    let control: HtmlElement = dom::child(parent, "div", "control bins-control")?;
    let head: HtmlElement = dom::child(&control, "div", "control-head")?;
    let name = dom::text_child(&head, "label", "", label)?;
    name.set_attribute("for", &ids.of(part))?;
    let shown: HtmlElement = dom::child(&head, "output", "")?;
    shown.set_attribute("for", &ids.of(part))?;
    let input: HtmlInputElement = dom::child(&control, "input", "")?;
    let (min, max, value) = (min.to_string(), max.to_string(), value.to_string());
    dom::set_attributes(
        &input,
        &[
            ("type", "range"),
            ("id", &ids.of(part)),
            ("min", &min),
            ("max", &max),
            ("step", "1"),
            ("value", &value),
        ],
    )?;
    Ok((input, shown))
}

/// One pane: the method's menu, the histogram and the spread in large type.
fn side(parent: &Element, ids: &Ids, method: &str) -> Result<Side, JsValue> {
    let pane: HtmlElement = dom::child(parent, "figure", "bins-pane")?;
    let caption: HtmlElement = dom::child(&pane, "figcaption", "")?;
    let select =
        menu(&caption, ids, "method", "Method", METHODS.iter().map(|(v, t)| (v.to_string(), t.to_string())))?;
    select.set_value(method);
    let canvas: HtmlCanvasElement = dom::child(&pane, "canvas", "bins-histogram")?;
    dom::set_attributes(&canvas, &[("id", &ids.of("histogram")), ("role", "img")])?;
    let figures: HtmlElement = dom::child(&pane, "div", "readouts bins-readouts")?;
    let readout = |name: &str, part: &str| -> Result<HtmlElement, JsValue> {
        let readout: HtmlElement = dom::child(&figures, "div", "readout")?;
        dom::text_child(&readout, "span", "name", name)?;
        let figure = dom::text_child(&readout, "span", "figure", "0")?;
        figure.set_id(&ids.of(part));
        Ok(figure)
    };
    let above = readout("max − mean", "max-minus-mean")?;
    let range = readout("max − min", "max-minus-min")?;
    let surface = Surface::new(canvas)?;
    Ok(Side { filling: Bins::new(1, Method::Random, SEED), method: select, surface, above, range })
}
