//! The balls-into-bins view (`bins.html`): two fillings side by side, each
//! by a method of its own (random and best of two at first), balls thrown
//! live a batch per animation frame, each drawn as a histogram of its bins
//! with the mean and the fullest and emptiest bins marked, and the spread
//! (max − mean, max − min) in large type under it. Both fillings throw the
//! same number of balls each frame, so they can be compared at any moment.
//!
//! The view owns the elements inside its root (`data-lbsim="bins"`); the
//! page's one animation loop drives it (see `page/driving.rs`).

mod histogram;

use super::dom::Ids;
use super::surface::Surface;
use super::theme::Palette;
use super::waiting::is_in_sight;
use lbsim::bins::{Bins, Method, MAX_D};
use lbsim::format::thousands;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget, HtmlElement, HtmlInputElement, HtmlSelectElement};

/// The seed of both fillings: a reset replays the same throws.
const SEED: u64 = 1;
/// The speed slider's ends, in balls per frame (a logarithmic scale).
const SLOWEST: f64 = 1.0;
const FASTEST: f64 = 100_000.0;
/// The screen-reader summary is spoken at most this often while running.
const STATUS_INTERVAL_MS: f64 = 5_000.0;

/// The view's elements. `ID-` becomes the root's id and a dash (the ids
/// that labels need), `MAX_D` the most choices; the code finds each part
/// by its `data-part`. Written as markup rather than built call by call,
/// which would cost the page's module several kilobytes.
const TEMPLATE: &str = r#"<div class="bins-settings" role="group" aria-label="Settings">
<div class="control"><label for="ID-bins">Bins</label><select id="ID-bins" data-part="bins">
<option>10</option><option>20</option><option>50</option><option selected>100</option><option>200</option>
<option>500</option><option value="1000">1,000</option></select></div>
<div class="control"><label for="ID-balls">Balls to throw</label><select id="ID-balls" data-part="balls">
<option value="1000">1,000</option><option value="10000">10,000</option><option value="100000">100,000</option>
<option value="1000000" selected>1,000,000</option><option value="10000000">10,000,000</option></select></div>
<div class="control"><div class="control-head"><label for="ID-choices">d (best of d)</label>
<output for="ID-choices" data-part="choices-shown">2</output></div>
<input type="range" id="ID-choices" data-part="choices" min="2" max="MAX_D" step="1" value="2"></div>
<div class="control"><div class="control-head"><label for="ID-speed">Balls a frame</label>
<output for="ID-speed" data-part="speed-shown"></output></div>
<input type="range" id="ID-speed" data-part="speed" min="0" max="100" step="1" value="66"></div>
<div class="control bins-check"><input type="checkbox" id="ID-own-scale" data-part="own-scale">
<label for="ID-own-scale">Each on its own scale</label></div>
<div class="bins-buttons"><button type="button" class="play" id="ID-play" data-part="play">Pause</button>
<button type="button" id="ID-reset" data-part="reset" title="Empty the bins and throw the same balls again">Reset</button></div>
</div>
<p class="bins-thrown" id="ID-thrown" data-part="thrown"></p>
<div class="bins-panes">PANE(left)PANE(right)</div>
<p class="visually-hidden" role="status" aria-live="polite" id="ID-status" data-part="status"></p>"#;

/// One side's pane; `SIDE` becomes `left` or `right`.
const PANE: &str = r#"<figure class="bins-pane"><figcaption><div class="control">
<label for="ID-SIDE-method">Method</label><select id="ID-SIDE-method" data-part="SIDE-method">
<option value="random">Random (one choice)</option><option value="best-of-d">Best of d choices</option>
<option value="round-robin">Round-robin</option><option value="hash">Hash of the ball's number</option>
</select></div></figcaption>
<canvas class="bins-histogram" role="img" aria-label="Histogram of the bins: a bar per bin from the mean line, dashed lines at the fullest and the emptiest; their distances from the mean are under it" id="ID-SIDE-histogram" data-part="SIDE-histogram"></canvas>
<div class="readouts bins-readouts">
<div class="readout"><span class="name">max − mean</span><span class="figure" id="ID-SIDE-max-minus-mean" data-part="SIDE-above">0</span></div>
<div class="readout"><span class="name">max − min</span><span class="figure" id="ID-SIDE-max-minus-min" data-part="SIDE-range">0</span></div>
</div></figure>"#;

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
    /// Some of the view is in the viewport, as the page's observer last
    /// said: out of it, a run throws its balls but draws them only once in
    /// sight or over (the explainer's view, at its foot, ran undrawn for
    /// nothing but drew its two histograms each frame of the page's first
    /// seconds).
    on_screen: bool,
}

impl BinsView {
    pub fn mount(root: &HtmlElement) -> Result<BinsView, JsValue> {
        let pane = |side: &str| PANE.replace("SIDE", side);
        let markup = TEMPLATE
            .replace("PANE(left)", &pane("left"))
            .replace("PANE(right)", &pane("right"))
            .replace("MAX_D", &MAX_D.to_string())
            .replace("ID-", &Ids::for_root(root).of(""));
        root.set_inner_html(&markup);
        root.class_list().add_1("lbsim-bins")?;
        let side = |name: &str, method: &str| -> Result<Side, JsValue> {
            let select: HtmlSelectElement = part(root, &format!("{name}-method"))?;
            select.set_value(method);
            Ok(Side {
                filling: Bins::new(1, Method::Random, SEED),
                method: select,
                surface: Surface::new(part(root, &format!("{name}-histogram"))?)?,
                above: part(root, &format!("{name}-above"))?,
                range: part(root, &format!("{name}-range"))?,
            })
        };
        let sides = [side("left", "random")?, side("right", "best-of-d")?];
        let mut view = BinsView {
            root: root.clone(),
            sides,
            bins: part(root, "bins")?,
            balls: part(root, "balls")?,
            choices: part(root, "choices")?,
            choices_shown: part(root, "choices-shown")?,
            speed: part(root, "speed")?,
            speed_shown: part(root, "speed-shown")?,
            own_scale: part(root, "own-scale")?,
            play: part(root, "play")?,
            reset: part(root, "reset")?,
            thrown: part(root, "thrown")?,
            status: part(root, "status")?,
            running: true,
            last_status_ms: f64::NEG_INFINITY,
            stale: true,
            on_screen: is_in_sight(root),
        };
        view.start_over();
        Ok(view)
    }

    pub fn root(&self) -> &HtmlElement {
        &self.root
    }

    /// The page's observer says whether some of the view is in the viewport.
    pub fn set_on_screen(&mut self, on_screen: bool) {
        self.on_screen = on_screen;
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
        let balls = libm::round(SLOWEST * libm::pow(FASTEST / SLOWEST, position)) as u64;
        let mut unit = 1;
        while balls >= 100 * unit {
            unit *= 10;
        }
        (balls + unit / 2) / unit * unit
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

    /// Throws `balls` more into each filling, no further than the balls to throw.
    fn throw(&mut self, balls: u64) {
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
        if (self.stale || resized) && (self.on_screen || !self.running) {
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
    fn summary(&self) -> String {
        let thrown = self.sides[0].filling.thrown();
        let sides: Vec<String> = self
            .sides
            .iter()
            .map(|s| format!("{}, {}", s.filling.method().describe(), spread_words(&s.filling)))
            .collect();
        format!("After {} balls: {}.", thousands(thrown), sides.join("; "))
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

/// The element of the view's markup whose `data-part` is `name`.
fn part<T: JsCast>(root: &Element, name: &str) -> Result<T, JsValue> {
    let missing = || JsValue::from_str("the bins view's markup lacks a part");
    root.query_selector(&format!("[data-part=\"{name}\"]"))?
        .and_then(|e| e.dyn_into().ok())
        .ok_or_else(missing)
}
