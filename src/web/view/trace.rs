//! A view replaying a trace: a file chosen or dropped on the lab goes to
//! the trace worker; its reading, once in, replaces the scenario's
//! arrivals (in the twin too, so that compare mode compares policies on
//! the same requests). The link names the trace by file, size and hash,
//! and a view opened from it without the file asks for it.

use super::*;
use crate::lab::Lab;
use crate::options::{TraceNeed, TRACE_CLASSES_KEY, TRACE_COLUMNS_KEY, TRACE_LOOP_KEY, TRACE_SPEED_KEY};
use crate::trace_panel::{named_classes, waiting_for, TracePanel};
use crate::traces;
use lbsim::engine::Replay;
use lbsim::trace::replay::classes_to_read;
use web_sys::{DragEvent, File};

impl View {
    /// The arrivals the view's simulations replay, if it replays a trace.
    pub(super) fn replay(&self) -> Option<Replay> {
        // Only the lab replays, so lbsim-web leaves replaying out.
        Lab::here()?;
        let trace = self.trace.as_ref()?;
        Some(trace.replay(self.options.trace_speed, self.options.trace_loop))
    }

    /// Whether the link names a trace the view does not have yet.
    pub(super) fn waiting_for_trace(&self) -> bool {
        self.options.trace.is_some() && self.trace.is_none()
    }

    /// Finds the trace the options name among the page's, or starts
    /// reading its file again with other columns or classes; says what
    /// it waits for when the page has no such file.
    pub(super) fn look_for_trace(&mut self) {
        let Some(need) = self.options.trace.clone() else { return };
        if self.kind == Kind::Embed || Lab::here().is_none() {
            let message = "An embed does not replay traces: it runs the scenario; open this link in the lab to replay the trace.";
            self.parts.notices.show(&[Notice::plain(message)]);
            self.options.trace = None;
            return;
        }
        self.trace = traces::find(&need.hash, &self.options.trace_columns, &self.classes_to_read());
        if self.trace.is_some() {
            return;
        }
        match traces::has_file(&need.hash) {
            Some(file) => self.read_trace(file),
            None => self.parts.notices.show(&[Notice::plain(waiting_for(&need))]),
        }
    }

    /// The person chose a file in the trace box.
    pub fn trace_file_chosen(&mut self) {
        let file =
            self.parts.trace_panel.as_ref().and_then(|p| p.file.files()).and_then(|files| files.get(0));
        if let Some(file) = file {
            self.read_trace(file);
        }
    }

    /// Something is dragged over the lab: it may be dropped.
    pub fn trace_dragged(&self, event: &Event) {
        event.prevent_default();
    }

    /// A file was dropped on the lab.
    pub fn trace_dropped(&mut self, event: &Event) {
        event.prevent_default();
        let file = event.dyn_ref::<DragEvent>().and_then(DragEvent::data_transfer).and_then(|d| d.files());
        if let Some(file) = file.and_then(|files| files.get(0)) {
            self.read_trace(file);
        }
    }

    fn read_trace(&mut self, file: File) {
        let (columns, classes) = (self.options.trace_columns.clone(), self.classes_to_read());
        let said = match traces::read(file.clone(), &columns, &classes) {
            Ok(()) => format!("Reading {}…", file.name()),
            Err(error) => {
                self.parts.notices.show(&[Notice::plain(format!("{error}."))]);
                error
            }
        };
        if let Some(panel) = &self.parts.trace_panel {
            panel.say(&said);
        }
    }

    /// The scenario's classes changed what the rows of a trace read
    /// without named classes are (see [`Options::trace_classes_for`]): it is
    /// read again for them, as the command line would read it, and replayed
    /// from the start once read.
    pub(super) fn read_again_for_classes(&mut self) {
        if self.trace.as_ref().is_some_and(|t| t.classes != self.classes_to_read()) {
            self.trace = None;
            self.look_for_trace();
        }
    }

    /// The classes the trace is read with, for the scenario's classes.
    fn classes_to_read(&self) -> String {
        self.options.trace_classes_for(self.params.scenario.class_shares.len())
    }

    /// Takes the trace worker's reply, once in: a reading replaces the
    /// arrivals of the view and its twin, from the start.
    pub(super) fn collect_trace(&mut self) -> bool {
        if Lab::here().is_none() {
            return false;
        }
        let Some(reply) = traces::take_reply() else { return traces::reading() };
        let trace = match reply {
            Ok(trace) => trace,
            Err(error) => {
                if let Some(panel) = &self.parts.trace_panel {
                    panel.say(&error);
                }
                self.parts.notices.show(&[Notice::plain(error)]);
                return false;
            }
        };
        if let (true, Some(need)) = (self.waiting_for_trace(), &self.options.trace) {
            if (need.bytes, need.hash.as_str()) != (trace.bytes, trace.hash.as_str()) {
                let message = format!(
                    "{} is not the trace this link replays: it has {} bytes and hash {}; the link's, {}, has {} bytes and hash {}. Choose that file, or press Stop replaying to drop it from the link.",
                    trace.name, trace.bytes, trace.hash, need.name, need.bytes, need.hash
                );
                self.parts.notices.show(&[Notice::plain(message)]);
                return false;
            }
        }
        self.options.trace =
            Some(TraceNeed { name: trace.name.clone(), bytes: trace.bytes, hash: trace.hash.clone() });
        self.trace = Some(trace);
        // A trace's requests are sessions of one request each.
        if self.params.scenario.session_length != 1 || self.params.scenario.session_length_shape.is_some() {
            let mut next = self.params.clone();
            let single =
                next.set("session_length", "1").and_then(|()| next.set("session_length_shape", "none"));
            if single.is_ok() {
                self.params = next;
            }
        }
        self.parts.notices.dismiss();
        self.replay_from_start();
        true
    }

    /// The trace box's columns, classes, their shares and costs, speed or
    /// looping changed. What it cannot take, it says in itself, where the
    /// person is looking, and the replay goes on as it was.
    pub fn trace_settings_changed(&mut self) {
        let Some(panel) = &self.parts.trace_panel else { return };
        let (options, params) = match self.trace_box_settings(panel) {
            Ok(settings) => settings,
            Err(refusal) => return panel.say(&refusal),
        };
        if (&options, &params) == (&self.options, &self.params) {
            return;
        }
        let reread = (&options.trace_columns, &options.trace_classes)
            != (&self.options.trace_columns, &self.options.trace_classes);
        self.options = options;
        // New classes are read again for the trace by the change itself.
        self.apply(params);
        // New columns or classes are for the file the latest reading
        // refused, if it did; else the trace replayed is read with them.
        let refused = traces::failed_file().filter(|_| reread);
        if reread && refused.is_none() && self.trace.is_some() {
            self.trace = None;
            self.look_for_trace();
        }
        self.replay_from_start();
        if let Some(file) = refused {
            self.read_trace(file);
        }
    }

    /// The options and settings the trace box gives, or why it cannot.
    fn trace_box_settings(&self, panel: &TracePanel) -> Result<(Options, Params), String> {
        let looped = if panel.looped.checked() { "1" } else { "0" };
        let entries = [
            (TRACE_COLUMNS_KEY, panel.columns.value()),
            (TRACE_CLASSES_KEY, panel.classes.value()),
            (TRACE_SPEED_KEY, panel.speed.value()),
            (TRACE_LOOP_KEY, looped.to_string()),
        ];
        let mut options = self.options.clone();
        for (key, text) in entries {
            options
                .set(key, &text)
                .map_err(|error| Notice::rejected(key, &text, &error, &self.options.text(key)).message)?;
        }
        let mut params = self.params.clone();
        let classes = panel.class_fields().map(|(key, input)| (key, input.value()));
        params
            .scenario
            .set_many(classes.iter().map(|(key, text)| (*key, text.as_str())))
            .map_err(|error| format!("Class shares and costs not used: {error}."))?;
        let given_as = format!("Classes “{}”", options.trace_classes);
        classes_to_read(
            &named_classes(&options.trace_classes),
            params.scenario.class_shares.len(),
            &given_as,
        )
        .map_err(|refusal| format!("{refusal} in Class shares and Class costs."))?;
        Ok((options, params))
    }

    /// Says `text` in the trace box (a replay that stopped, say), where
    /// the person replaying a trace looks.
    pub(super) fn tell_trace_box(&self, text: &str) {
        if let (Some(panel), true) = (&self.parts.trace_panel, self.trace.is_some()) {
            panel.say(text);
        }
    }

    /// The trace the view replays, by name, once it has one.
    pub fn replayed_trace(&self) -> Option<&str> {
        self.trace.as_ref().map(|trace| trace.name.as_str())
    }

    /// Whether a replay started or stopped since the last call (the page's
    /// essay steps follow).
    pub fn take_replaying_changed(&self) -> bool {
        self.parts.trace_panel.as_ref().is_some_and(|panel| panel.take_replaying_changed())
    }

    /// Stops replaying: the scenario makes its own requests again.
    pub fn trace_stopped(&mut self) {
        self.options.trace = None;
        self.trace = None;
        self.replay_from_start();
    }

    /// Builds the simulation and its twin again from the seed, on the
    /// trace if there is one.
    fn replay_from_start(&mut self) {
        match simulate(&self.params.scenario, self.replay()) {
            Ok(sim) => self.sim = sim,
            Err(error) => self.parts.notices.show(&[Notice::plain(format!("Trace not replayed: {error}."))]),
        }
        self.restart_twin();
        self.started_over();
        self.parts.event_log.clear();
        self.parts.canvases.restarted();
        self.settings_changed();
    }

    /// What the trace box shows, as JSON (for tests): the trace named,
    /// whether it is replayed or awaited, its status line and summary.
    pub fn trace_json(&self) -> String {
        let trace = self.trace.as_deref();
        let shown = TraceShown {
            need: self.options.trace.as_ref().map(TraceNeed::text),
            replaying: trace.is_some() && self.sim.replays(),
            waiting: self.waiting_for_trace(),
            rows: trace.map(|t| t.rows.len()),
            summary: trace.map(|t| t.summary_json.as_str()),
            report: trace.map(|t| t.report.as_str()),
            status: self.parts.trace_panel.as_ref().map(|p| p.status_text()),
            strip: self.parts.rate_strip.as_ref().is_some_and(|s| s.shown()),
        };
        super::super::json::text(&shown).unwrap_or_default()
    }
}

/// What [`View::trace_json`] tells.
#[derive(serde::Serialize)]
struct TraceShown<'a> {
    need: Option<String>,
    replaying: bool,
    waiting: bool,
    rows: Option<usize>,
    /// The summary as `lbsim trace --json` gives it, as JSON text.
    summary: Option<&'a str>,
    report: Option<&'a str>,
    status: Option<String>,
    strip: bool,
}
