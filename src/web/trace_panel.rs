//! The lab's "Your traffic" box: choose (or drop on the lab) a request
//! trace, read in the page by the trace worker and never sent anywhere,
//! and replay it instead of the scenario's own arrivals, at a speed,
//! looped or once, its columns and classes named as on the command line.
//! Under the percentile chart, the trace's rate over time, with where the
//! replay is in it.

use super::dom::{self, Ids};
use super::options::{Options, TraceNeed};
use super::surface::Surface;
use super::traces::LabTrace;
use lbsim::charts::Palette;
use lbsim::format::grouped;
use lbsim::scenario::fields;
use lbsim::trace::offered::Offered;
use lbsim::ui::controls::Group;
use lbsim::Scenario;
use std::cell::Cell;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, HtmlInputElement};

pub struct TracePanel {
    pub file: HtmlInputElement,
    pub columns: HtmlInputElement,
    pub classes: HtmlInputElement,
    /// The scenario's class_shares and class_costs, which a trace's
    /// classes need as many of as it names.
    shares: HtmlInputElement,
    costs: HtmlInputElement,
    pub speed: HtmlInputElement,
    pub looped: HtmlInputElement,
    pub stop: HtmlElement,
    status: HtmlElement,
    /// Opens the report, a pane as wide as its lines (the box is too
    /// narrow for them: a line showed its first 33 characters).
    report_button: HtmlElement,
    report: HtmlElement,
    /// Whether the box last said a trace replays, and whether that
    /// changed since the page last asked (its essay's caption follows).
    replaying: Cell<(bool, bool)>,
}

/// The group of the lab's settings the box follows: a trace stands in for
/// the scenario's demand, so the box sits where a person sets the load.
const AFTER_GROUP: Group = Group::Load;

impl TracePanel {
    pub fn build(panel: &Element, ids: &Ids) -> Result<TracePanel, JsValue> {
        let group: HtmlElement = dom::create("section", "group trace-box")?;
        let demand = panel.query_selector(&format!(":scope > [data-group='{}']", AFTER_GROUP.title()))?;
        match demand {
            Some(demand) => demand.after_with_node_1(&group)?,
            None => panel.append_child(&group).map(|_| ())?,
        }
        group.set_attribute("aria-labelledby", &ids.of("trace-title"))?;
        dom::text_child(&group, "h3", "", "Your traffic: replay a trace")?.set_id(&ids.of("trace-title"));
        dom::text_child(
            &group,
            "p",
            "help",
            "CSV or JSON lines, a row a request: time, and optionally key, class and service_ms. \
             Choose a file or drop it on the lab; it is read here and never leaves this machine. \
             Under one request class every row is of it; under several, name the trace's classes \
             and give each a share and a cost, in the same order.",
        )?;
        let field = |label: &str, part: &str, kind: &str| {
            dom::labelled_input(&group, "trace-field", label, (&ids.of(part), kind))
        };
        let file = field("Trace file", "trace-file", "file")?;
        file.set_attribute("accept", ".csv,.jsonl,.json,.txt,text/csv")?;
        let columns = field("Columns (as --trace-columns)", "trace-columns", "text")?;
        columns.set_placeholder("time=ts:ms,key=user,service=duration_ms");
        let classes = field("Classes, in the order of class_shares", "trace-classes", "text")?;
        classes.set_placeholder("api,static");
        let shares = field("Class shares (class_shares)", "trace-shares", "text")?;
        shares.set_placeholder("0.7,0.3");
        let costs = field("Class costs (class_costs)", "trace-costs", "text")?;
        costs.set_placeholder("10,1");
        let speed = field("Speed (times divided by)", "trace-speed", "number")?;
        dom::set_attributes(&speed, &[("min", "0.001"), ("max", "1000000"), ("step", "any")])?;
        let looped = field("Play it again when it ends", "trace-loop", "checkbox")?;
        if let Some(label) = looped.parent_element() {
            label.set_class_name("trace-field trace-check");
        }
        let stop = dom::text_child(&group, "button", "quiet", "Stop replaying")?;
        dom::set_attributes(&stop, &[("id", &ids.of("trace-stop")), ("type", "button")])?;
        let status = dom::text_child(&group, "p", "help trace-status", "")?;
        dom::set_attributes(&status, &[("id", &ids.of("trace-status")), ("role", "status")])?;
        let (report_button, report) = report_pane(&group, ids)?;
        Ok(TracePanel {
            file,
            columns,
            classes,
            shares,
            costs,
            speed,
            looped,
            stop,
            status,
            report_button,
            report,
            replaying: Cell::new((false, false)),
        })
    }

    /// Shows the options' trace settings, and what is replayed: `trace`,
    /// or, when the options name a trace the page does not have, what it
    /// waits for.
    pub fn show(&self, options: &Options, scenario: &Scenario, trace: Option<&LabTrace>) {
        self.columns.set_value(&options.trace_columns);
        self.classes.set_value(&options.trace_classes);
        for (key, input) in self.class_fields() {
            input.set_value(&fields::find(key).map_or(String::new(), |field| field.text(scenario)));
        }
        self.speed.set_value(&options.trace_speed.to_string());
        self.looped.set_checked(options.trace_loop);
        self.stop.set_hidden(options.trace.is_none());
        self.report_button.set_hidden(trace.is_none());
        let (was, changed) = self.replaying.get();
        self.replaying.set((trace.is_some(), changed || was != trace.is_some()));
        match (trace, &options.trace) {
            (Some(trace), _) => {
                let looped = if options.trace_loop { "looped" } else { "once" };
                let load = Offered::of(&trace.gist, scenario, &named_classes(&trace.classes))
                    .map_or(String::new(), |offered| format!(": {}", offered.words(options.trace_speed)));
                self.say(&format!(
                    "Replaying {} ({} requests, {looped}) at speed {}{load}. The scenario's load, demand and session_length are not used.",
                    trace.name,
                    trace.rows.len(),
                    options.trace_speed
                ));
                self.report.set_text_content(Some(&trace.report));
            }
            (None, Some(need)) => self.say(&waiting_for(need)),
            (None, None) => self.say("No trace: the scenario makes its own requests."),
        }
    }

    /// The inputs whose edits change the replay (all but the file's).
    pub fn settings_inputs(&self) -> [&HtmlInputElement; 6] {
        [&self.columns, &self.classes, &self.shares, &self.costs, &self.speed, &self.looped]
    }

    /// The scenario's fields the box sets, and their inputs.
    pub fn class_fields(&self) -> [(&'static str, &HtmlInputElement); 2] {
        [("class_shares", &self.shares), ("class_costs", &self.costs)]
    }

    pub fn say(&self, text: &str) {
        self.status.set_text_content(Some(text));
    }

    pub fn status_text(&self) -> String {
        self.status.text_content().unwrap_or_default()
    }

    /// Whether a replay started or stopped since the last call.
    pub fn take_replaying_changed(&self) -> bool {
        let (replaying, changed) = self.replaying.get();
        self.replaying.set((replaying, false));
        changed
    }
}

/// The button that opens the trace's report, and the pane it opens (a
/// popover: over the page, as wide as the report's lines up to the
/// window's, closed by its button, Escape or a click beside it).
fn report_pane(group: &Element, ids: &Ids) -> Result<(HtmlElement, HtmlElement), JsValue> {
    let pane_id = ids.of("trace-report-pane");
    let button = dom::text_child(group, "button", "quiet", "What the trace is")?;
    dom::set_attributes(
        &button,
        &[("type", "button"), ("popovertarget", &pane_id), ("id", &ids.of("trace-open-report"))],
    )?;
    let pane: HtmlElement = dom::child(group, "div", "trace-report")?;
    dom::set_attributes(
        &pane,
        &[("id", &pane_id), ("popover", "auto"), ("role", "dialog"), ("aria-label", "What the trace is")],
    )?;
    let close = dom::text_child(&pane, "button", "quiet", "Close")?;
    dom::set_attributes(
        &close,
        &[("type", "button"), ("popovertarget", &pane_id), ("popovertargetaction", "hide")],
    )?;
    dom::text_child(&pane, "h3", "", "What the trace is, as lbsim trace FILE says it")?;
    let report = dom::text_child(&pane, "pre", "", "")?;
    report.set_id(&ids.of("trace-report"));
    Ok((button, report))
}

/// What the essay's caption says while a trace replays: the steps' stories
/// are of the scenario's own arrivals.
pub fn replaying_caption(name: &str) -> String {
    format!("Replaying {name}: its arrivals stand in for the scenario's, so no step of the essay tells this run's story.")
}

/// The classes named in `text` (as the box and the link give them).
pub fn named_classes(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect()
}

/// What a view says while its link names a trace the page does not hold.
pub fn waiting_for(need: &TraceNeed) -> String {
    format!(
        "This link replays the trace {} ({} bytes, FNV-1a hash {}): choose that file under “Your traffic” to run it.",
        need.name, need.bytes, need.hash
    )
}

/// The trace's arrivals a second over its time, drawn under the
/// percentile chart, with a mark where the replay is.
pub struct RateStrip {
    figure: HtmlElement,
    canvas: HtmlCanvasElement,
    surface: Surface,
    /// What was last drawn: the trace (by hash), the mark's place in whole
    /// pixels, and the speed its rates were scaled by.
    drawn: Option<(String, i64, f64)>,
}

impl RateStrip {
    /// Builds the strip, hidden, after the first chart in `figures`.
    pub fn build(figures: &Element, ids: &Ids) -> Result<RateStrip, JsValue> {
        let figure: HtmlElement = dom::create("figure", "rate-strip")?;
        match figures.first_element_child() {
            Some(first) => first.after_with_node_1(&figure)?,
            None => figures.append_child(&figure).map(|_| ())?,
        }
        dom::text_child(
            &figure,
            "figcaption",
            "",
            "The trace's arrivals a second as replayed, and where the replay is",
        )?;
        let canvas: HtmlCanvasElement = dom::child(&figure, "canvas", "")?;
        let label = "the replayed trace's request rate over its time, the replay's place marked";
        dom::set_attributes(
            &canvas,
            &[("id", &ids.of("rate-strip")), ("role", "img"), ("aria-label", label)],
        )?;
        figure.set_hidden(true);
        Ok(RateStrip { figure, surface: Surface::new(canvas.clone())?, canvas, drawn: None })
    }

    /// Draws `trace`'s rate and the replay's place at `at_s` simulated
    /// seconds (played at `speed`, looped or not); hides the strip
    /// without a trace.
    pub fn draw(
        &mut self,
        trace: Option<&LabTrace>,
        (at_s, speed, looped): (f64, f64, bool),
        palette: &Palette,
    ) {
        self.figure.set_hidden(trace.is_none());
        let Some(trace) = trace else {
            self.drawn = None;
            return;
        };
        let bins = trace.rates.len().max(1);
        let place = trace_place_s(trace, at_s * speed, looped);
        let resized = self.surface.fit();
        let (width, height) = (self.surface.width, self.surface.height);
        let x = (place / (trace.rate_bin_s * bins as f64)).clamp(0.0, 1.0) * width;
        let mark = x.round() as i64;
        let same = matches!(&self.drawn, Some((hash, at, was)) if *hash == trace.hash && *at == mark && *was == speed);
        if !resized && same {
            return;
        }
        self.drawn = Some((trace.hash.clone(), mark, speed));
        let (s, ctx) = (&self.surface, &self.surface.context);
        s.begin();
        let highest = trace.rates.iter().copied().fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        let bar = width / bins as f64;
        ctx.set_fill_style_str(&palette.busy.css());
        for (i, rate) in trace.rates.iter().enumerate() {
            let h = (rate / highest) * (height - 16.0);
            ctx.fill_rect(i as f64 * bar, height - h, (bar - 1.0).max(1.0), h);
        }
        ctx.set_fill_style_str(&palette.muted.css());
        ctx.set_font("12px system-ui, sans-serif");
        // The rates as replayed, the trace's own times divided by the speed,
        // so the peak reads beside the throughput the view shows.
        let peak = grouped(highest * speed, 0);
        let _ = ctx.fill_text(&format!("peak {peak}/s"), 4.0, 12.0);
        let label = format!(
            "the replayed trace's request rate over its time, the replay's place marked: peak {peak} requests a second at speed {speed}"
        );
        let _ = self.canvas.set_attribute("aria-label", &label);
        ctx.set_stroke_style_str(&palette.p99.css());
        ctx.set_line_width(2.0);
        ctx.begin_path();
        ctx.move_to(x, 14.0);
        ctx.line_to(x, height);
        ctx.stroke();
    }

    pub fn shown(&self) -> bool {
        !self.figure.hidden()
    }

    /// Draws afresh on the next frame (the colours changed).
    pub fn invalidate(&mut self) {
        self.drawn = None;
    }
}

/// Where in the trace's time (from its first arrival) a replay is after
/// `played_s` seconds of the trace's time, passes looping one mean gap
/// apart as [`lbsim::trace::replay::Playback`] plays them.
fn trace_place_s(trace: &LabTrace, played_s: f64, looped: bool) -> f64 {
    let (Some(first), Some(last)) = (trace.rows.first(), trace.rows.last()) else { return 0.0 };
    let (first, span) = (first.time.as_secs(), (last.time - first.time).as_secs());
    let n = trace.rows.len() as f64;
    let since = (played_s - first).max(0.0);
    if !looped || span <= 0.0 || n < 2.0 {
        return since.min(span);
    }
    let pass = span + span / (n - 1.0);
    since - pass * (since / pass).floor()
}
