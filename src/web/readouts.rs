//! The key figures in large type: p50 and p99 queue time and throughput
//! over the last simulated second; bounces per second with the error
//! responses heard per second under them (both send a try back to choose
//! again, within the retry budget); availability over the last second with
//! the requests that failed per second under it (an error on the last try,
//! or bounces beyond the budget: a request that only bounced counts as
//! failed, never as an error); simulated time, and the speed actually
//! achieved. Updated a few times a second. Where the sentences beside
//! them count since the run began, so do they, and once the run is over
//! they are the whole run's; each says so (see `lbsim::ui::whole_run`).
//! Beside a twin, the percentiles give both runs' figures, A's and B's.
//! A view shows those its link names (`readouts=`, see
//! `lbsim::ui::readouts`), all unless told.
//!
//! Under the figures, a note while the simulation runs far slower than
//! asked (its events cost more than a frame's budget): otherwise a scenario
//! too heavy for real time looks dead, its clock stuck at 0.0.

use super::dom::{self, set_hidden, set_text as set, Ids};
use lbsim::format::{grouped, thousands};
use lbsim::metrics::SamplePoint;
use lbsim::ui::readouts::{bounces_figure, figure_shape, milliseconds, Readout};
use lbsim::ui::whole_run::{Counted, Span};
use lbsim::Snapshot;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};

const INTERVAL_MS: f64 = 150.0;

/// What the bounces readout counts, and the errors under it.
const BOUNCES_AND_ERRORS: &str = "Tries sent back to choose again, per second over the last second: \
     bounces (a queue timed out), and errors/s (a server down or failing answered with an error). \
     Each is retried within the retry budget.";

/// What the throughput readout counts, and why it can pass the capacity
/// (a reader saw 596/s beside a capacity of 500 req/s and asked).
const THROUGHPUT: &str = "Requests completed in the last second. Capacity is the servers' \
     average rate: service times vary, so a second of short ones completes more than it, by chance \
     (at full load, about one second in two).";

/// What the availability readout counts, and the failures under it.
const AVAILABILITY_AND_FAILED: &str = "Of the requests that ended in the last second, the share \
     answered. A request fails when its last try is answered with an error, or when it bounces \
     more often than the retry budget allows; failed/s counts both.";

/// Below this share of the speed asked, the simulation is said too heavy:
/// well clear of the dips a busy frame causes.
const HEAVY_SHARE: f64 = 0.25;
/// How long (wall ms) after the speed asked changes before the achieved
/// speed is judged against it.
const SETTLE_MS: f64 = 2_000.0;

pub struct Readouts {
    /// The strip's label, which says once ahead of the figures which span
    /// they cover, where the stylesheet folds them into a strip.
    span_words: HtmlElement,
    /// The notes saying under each figure's name which span it covers.
    windows: Vec<HtmlElement>,
    /// The span the words say, and whether its figures count anything.
    span: Option<(Span, Counted)>,
    /// Whether the view's opening shows its first trip (see
    /// `Counted::during_opening`).
    opening: bool,
    /// The percentiles last shown (ms), for the live region to say.
    percentiles: (f64, f64),
    p50: HtmlElement,
    p99: HtmlElement,
    /// The twin's figures beside the view's: p50, p99, throughput, bounces
    /// and availability (the simulated time is the two runs' one clock).
    /// Beside a twin, a strip figure with no letter was read as whose?
    /// (reader 11: "Bounces 0 /s" and the throughput under two pictures).
    twin_p50: HtmlElement,
    twin_p99: HtmlElement,
    twin_throughput: HtmlElement,
    twin_bounces: HtmlElement,
    /// The units after the bounces' figures, A's and B's: "/s" for a rate
    /// over the last second, none for a count over a longer span.
    bounce_units: [HtmlElement; 2],
    twin_availability: HtmlElement,
    /// What shows only beside a twin: its figures, and the letters naming
    /// each side.
    beside_twin: Vec<HtmlElement>,
    throughput: HtmlElement,
    bounces: HtmlElement,
    availability: HtmlElement,
    errors: HtmlElement,
    failed: HtmlElement,
    sim_time: HtmlElement,
    actual_speed: HtmlElement,
    /// The note saying the scenario is too heavy for the speed asked.
    heavy: HtmlElement,
    /// The speed last asked and since when (wall ms): the achieved speed
    /// needs a moment to follow a change (the event cap grows from what a
    /// slow opening needed), and a note shown meanwhile would push the
    /// picture down and back for nothing.
    asked_since: Option<(f64, f64)>,
    last_ms: f64,
    /// The shapes of the figures last shown (see [`figure_shape`]).
    shapes: String,
}

impl Readouts {
    /// Builds the readouts at the end of `parent`, those not `shown`
    /// hidden (the row too, when none is).
    pub fn build(parent: &Element, ids: &Ids, shown: &[Readout]) -> Result<Readouts, JsValue> {
        let row: HtmlElement = dom::child(parent, "div", "readouts")?;
        row.set_attribute("aria-live", "off")?;
        row.set_hidden(shown.is_empty());
        let span_words = dom::text_child(&row, "span", "span-words", &Span::LastSecond.label())?;
        // Each readout: a name over a figure and its unit; returns the box,
        // the name and the figure's value.
        let readout = |name: &str, part: &str, unit: &str, initial: &str| -> Result<_, JsValue> {
            let readout: HtmlElement = dom::child(&row, "div", "readout")?;
            let name = dom::text_child(&readout, "span", "name", name)?;
            let figure: HtmlElement = dom::child(&readout, "span", "figure")?;
            let value = dom::text_child(&figure, "span", "", initial)?;
            value.set_id(&ids.of(part));
            dom::text_child(&figure, "span", "unit", unit)?;
            Ok((readout, name, value))
        };
        // A figure over the last second says so, in lighter type under its
        // name, since the sentences beside it speak of the whole run; the
        // percentiles' notes in the explainer, and elsewhere only where the
        // row has room (the stylesheet).
        let last_second = Span::LastSecond.note();
        let window = |name: &HtmlElement, class| dom::text_child(name, "span", class, &last_second);
        let mut beside_twin = Vec::new();
        let (p50_box, name, p50) = readout("p50 queue time", "p50", "ms", "–")?;
        let mut windows = vec![window(&name, "window if-room")?];
        let twin_p50 = twin_figure((&p50, "ms"), &ids.of("p50-twin"), &mut beside_twin)?;
        let (p99_box, name, p99) = readout("p99 queue time", "p99", "ms", "–")?;
        windows.push(window(&name, "window if-room")?);
        let twin_p99 = twin_figure((&p99, "ms"), &ids.of("p99-twin"), &mut beside_twin)?;
        // A soft hyphen: in a narrow row the name breaks as the others do,
        // rather than running into the next one.
        let (completed, _, throughput) = readout("Through\u{ad}put", "throughput", "/s", "–")?;
        completed.set_title(THROUGHPUT);
        let twin_throughput = twin_figure((&throughput, "/s"), &ids.of("throughput-twin"), &mut beside_twin)?;
        // Each of the two says what it counts when pointed at, and carries
        // a second figure of the same kind under it.
        let explained = |readout: &HtmlElement, what: &str, note: &str| -> Result<HtmlElement, JsValue> {
            readout.set_title(what);
            let small = dom::text_child(readout, "span", "small", "–")?;
            small.set_id(&ids.of(note));
            Ok(small)
        };
        let (sent_back, _, bounces) = readout("Bounces", "bounces", "/s", "–")?;
        let twin_bounces = twin_figure((&bounces, "/s"), &ids.of("bounces-twin"), &mut beside_twin)?;
        let bounce_units = [unit_of(&bounces)?, unit_of(&twin_bounces)?];
        let errors = explained(&sent_back, BOUNCES_AND_ERRORS, "errors")?;
        let (served, name, availability) = readout("Availability", "availability", "%", "–")?;
        windows.push(window(&name, "window")?);
        let twin_availability =
            twin_figure((&availability, "%"), &ids.of("availability-twin"), &mut beside_twin)?;
        let failed = explained(&served, AVAILABILITY_AND_FAILED, "failed")?;
        let (clock, _, sim_time) = readout("Simulated time", "sim-time", "s", "0.0")?;
        let actual_speed: HtmlElement = dom::child(&clock, "span", "small")?;
        actual_speed.set_id(&ids.of("actual-speed"));
        // The boxes in the strip's order, as `Readout::ALL` lists them; a
        // link's own list orders them as it does, where the stylesheet
        // would put p99 first in a strip of one line.
        let boxes = [p50_box, p99_box, completed, sent_back, served, clock];
        for (readout, element) in Readout::ALL.iter().zip(&boxes) {
            let place = shown.iter().position(|r| r == readout);
            element.set_hidden(place.is_none());
            if let (Some(place), true) = (place, shown != Readout::ALL) {
                element.style().set_property("order", &place.to_string())?;
            }
        }
        let heavy: HtmlElement = dom::child(parent, "p", "too-heavy")?;
        dom::set_attributes(&heavy, &[("id", &ids.of("too-heavy")), ("role", "status")])?;
        heavy.set_hidden(true);
        Ok(Readouts {
            span_words,
            windows,
            span: None,
            opening: false,
            percentiles: (0.0, 0.0),
            p50,
            p99,
            twin_p50,
            twin_p99,
            twin_throughput,
            twin_bounces,
            bounce_units,
            twin_availability,
            beside_twin,
            throughput,
            bounces,
            availability,
            errors,
            failed,
            sim_time,
            actual_speed,
            heavy,
            asked_since: None,
            shapes: String::new(),
            last_ms: f64::NEG_INFINITY,
        })
    }

    /// Says which span the figures cover: the strip's label and each
    /// figure's note, which the stylesheet shows where they fit; returns
    /// whether it wrote.
    fn say_span(&mut self, span: Span, counted: Counted) -> bool {
        if self.span == Some((span, counted)) {
            return false;
        }
        self.span = Some((span, counted));
        let mut wrote = set(&self.span_words, &span.label_of(counted));
        let note = span.note();
        for window in &self.windows {
            wrote |= set(window, &note);
        }
        wrote
    }

    /// What the strip last showed: its span, whether its figures count
    /// anything, and its p50 and p99 (ms); `None` before it first did.
    pub fn shown(&self) -> Option<(Span, Counted, (f64, f64))> {
        self.span.map(|(span, counted)| (span, counted, self.percentiles))
    }

    /// The view's opening shows its first trip (`showing`) or is over:
    /// the strip says so while nothing has finished.
    pub fn opening(&mut self, showing: bool) {
        self.opening = showing;
    }

    /// Whether the figures are due to be shown again: every `INTERVAL_MS`,
    /// or at once when `force`d. The caller reads a longer span's figures
    /// only then, as they cost a summary of the run.
    pub fn due(&mut self, now_ms: f64, force: bool) -> bool {
        let due = force || now_ms - self.last_ms >= INTERVAL_MS;
        if due {
            self.last_ms = now_ms;
        }
        due
    }

    /// Shows the figures over `span`: the snapshot's last second, or
    /// `over_span`, the run's own over a longer span; beside a twin,
    /// `twin`, its figures over the same span. `actual_speed` is simulated
    /// time per wall time over recent frames (`None` while paused);
    /// `asked`, the speed set, for the readouts that tell when the two part
    /// (a twin's pane leaves that to its view's). Returns whether the
    /// strip may wrap otherwise than before: its words, which parts show
    /// or a figure's shape (see [`figure_shape`]) changed. The small lines
    /// under the figures are not counted: a strip folded into the row of
    /// buttons hides them.
    pub fn show(
        &mut self,
        snapshot: &Snapshot,
        (actual_speed, asked): (Option<f64>, Option<f64>),
        now_ms: f64,
        (span, over_span): (Span, Option<SamplePoint>),
        twin: Option<(SamplePoint, u64)>,
    ) -> bool {
        let shown = over_span.or(snapshot.latest);
        let counted = Counted::of(shown.as_ref()).during_opening(self.opening);
        let mut rewrapped = self.say_span(span, counted);
        let latest = shown.unwrap_or_default();
        self.percentiles = (latest.queue_p50, latest.queue_p99);
        let mut shapes = String::new();
        let mut figure = |element: &HtmlElement, text: String| {
            set(element, &text);
            shapes.push_str(&figure_shape(&text));
            shapes.push('\n');
        };
        figure(&self.p50, dash_unless(counted, milliseconds(latest.queue_p50)));
        figure(&self.p99, dash_unless(counted, milliseconds(latest.queue_p99)));
        for part in &self.beside_twin {
            rewrapped |= set_hidden(part, twin.is_none());
        }
        let bounces = |element: &HtmlElement, unit: &HtmlElement, rate: String, count: u64| {
            let (text, unit_text) = bounces_figure(span, rate, count);
            set(unit, unit_text);
            (element.clone(), text)
        };
        if let Some((twin, twin_bounced)) = twin {
            let twin_counted = Counted::of(Some(&twin));
            figure(&self.twin_p50, dash_unless(twin_counted, milliseconds(twin.queue_p50)));
            figure(&self.twin_p99, dash_unless(twin_counted, milliseconds(twin.queue_p99)));
            figure(&self.twin_throughput, dash_unless(twin_counted, compact_count(twin.throughput)));
            let (element, text) = bounces(
                &self.twin_bounces,
                &self.bounce_units[1],
                compact_count(twin.bounce_rate),
                twin_bounced,
            );
            figure(&element, text);
            figure(&self.twin_availability, percentage(twin.availability));
        }
        figure(&self.throughput, dash_unless(counted, compact_count(latest.throughput)));
        let rate = shown.map_or("–".to_string(), |p| compact_count(p.bounce_rate));
        let (element, text) = bounces(&self.bounces, &self.bounce_units[0], rate, snapshot.counts.bounces);
        figure(&element, text);
        figure(&self.availability, percentage(shown.map_or(f64::NAN, |p| p.availability)));
        figure(&self.sim_time, grouped(snapshot.time_ms / 1000.0, 1));
        // The notes under the figures are the view's run's: beside a twin,
        // they say so.
        let side = if twin.is_some() { "A: " } else { "" };
        let per_second = |rate: fn(&SamplePoint) -> f64, what: &str| {
            shown.map_or("–".to_string(), |p| format!("{side}{} {what}/s", compact_count(rate(&p))))
        };
        set(&self.errors, &per_second(|p| p.error_rate, "errors"));
        set(&self.failed, &per_second(|p| p.failure_rate, "failed"));
        let speed = match actual_speed {
            Some(speed) => format!("{}× real time", significant(speed)),
            None => "paused".to_string(),
        };
        set(&self.actual_speed, &speed);
        if let Some(asked) = asked.filter(|asked| self.asked_since.is_none_or(|(was, _)| was != *asked)) {
            self.asked_since = Some((asked, now_ms));
        }
        let settled = self.asked_since.is_some_and(|(_, since)| now_ms - since >= SETTLE_MS);
        let heavy =
            actual_speed.zip(asked).filter(|_| settled).and_then(|(actual, asked)| too_heavy(actual, asked));
        rewrapped |= set_hidden(&self.heavy, heavy.is_none());
        rewrapped |= set(&self.heavy, heavy.as_deref().unwrap_or(""));
        if shapes != self.shapes {
            self.shapes = shapes;
            rewrapped = true;
        }
        rewrapped
    }
}

/// A figure over a span that `counted` finished requests; a dash over one
/// that counted none, never 0.00 as if measured (the strip's words say
/// why).
fn dash_unless(counted: Counted, figure: String) -> String {
    match counted {
        Counted::Some => figure,
        Counted::NoReading | Counted::NoneFinished | Counted::FirstOnItsWay => "–".to_string(),
    }
}

/// The unit written after a figure's `value`.
fn unit_of(value: &HtmlElement) -> Result<HtmlElement, JsValue> {
    let unit = value.next_element_sibling().ok_or("a figure without its unit")?;
    unit.dyn_into().map_err(|_| "a unit that is no HTML element".into())
}

/// A second figure, in `unit`, right after the box holding `figure`, for
/// the twin's run, its value's element (id `id`) returned; it and a letter
/// naming the view's side, before `figure`, are pushed onto `beside_twin`.
fn twin_figure(
    (figure, unit): (&HtmlElement, &str),
    id: &str,
    beside_twin: &mut Vec<HtmlElement>,
) -> Result<HtmlElement, JsValue> {
    let own = dom::create::<HtmlElement>("span", "side")?;
    own.set_text_content(Some("A"));
    let own_figure = figure.parent_element().ok_or("a figure outside its readout")?;
    own_figure.prepend_with_node_1(&own)?;
    let twin: HtmlElement = dom::create("span", "figure twin")?;
    // Right after the view's own figure, before any note under it.
    own_figure.after_with_node_1(&twin)?;
    dom::text_child(&twin, "span", "side", "B")?;
    let value = dom::text_child(&twin, "span", "", "–")?;
    value.set_id(id);
    dom::text_child(&twin, "span", "unit", unit)?;
    twin.set_hidden(true);
    own.set_hidden(true);
    beside_twin.extend([own, twin]);
    Ok(value)
}

/// What to say when the simulation runs at `actual` times real time while
/// `asked` was asked, if it falls far short.
fn too_heavy(actual: f64, asked: f64) -> Option<String> {
    if actual >= asked * HEAVY_SHARE {
        return None;
    }
    let what = match asked == 1.0 {
        true => "real time".to_string(),
        false => format!("{}× real time", significant(asked)),
    };
    let took = match actual > 0.0 && actual < 1.0 {
        true => format!(", one simulated second taking about {}", wall_time(1.0 / actual)),
        false => String::new(),
    };
    Some(format!(
        "Too heavy for {what}: simulating at {}× real time{took}. \
         Fewer servers or slots, longer service times or a lower load make it lighter.",
        significant(actual)
    ))
}

/// A wall-clock span in one rounded unit: 40 s, 14 min, 23 hours, 9 days.
fn wall_time(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 90.0 * 60.0 => format!("{:.0} min", s / 60.0),
        s if s < 48.0 * 3600.0 => format!("{:.0} hours", s / 3600.0),
        s => format!("{} days", thousands(libm::round(s / 86_400.0) as u64)),
    }
}

/// Counts in at most five characters: 4,536, 89.7k, 120k, 1.2M.
fn compact_count(x: f64) -> String {
    match x {
        x if x >= 1e6 => format!("{:.1}M", x / 1e6),
        x if x >= 1e5 => format!("{:.0}k", x / 1e3),
        x if x >= 1e4 => format!("{:.1}k", x / 1e3),
        x => thousands(x.round() as u64),
    }
}

/// A share as a percentage to a tenth, rounded down so that 100 means
/// that nothing failed; a dash for no figure (nothing ended).
fn percentage(share: f64) -> String {
    match share {
        share if share.is_nan() => "–".to_string(),
        share if share >= 1.0 => "100".to_string(),
        share => format!("{:.1}", (share * 1000.0).floor() / 10.0),
    }
}

/// Two significant figures: 0.000012, 0.43, 1.0, 10 (a crawl shows its
/// digits rather than 0.00).
fn significant(x: f64) -> String {
    if x >= 10.0 {
        grouped(x, 0)
    } else if x >= 1.0 {
        format!("{x:.1}")
    } else if x > 0.0 {
        let decimals = (1.0 - libm::floor(libm::log10(x))).clamp(2.0, 12.0) as usize;
        format!("{x:.decimals$}")
    } else {
        "0".to_string()
    }
}
