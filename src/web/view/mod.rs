//! A simulation view: a scenario running, and what a page shows of it
//! (readouts, topology, charts, controls, transport), all built inside the
//! root element it is mounted on. One instance lives behind
//! `Rc<RefCell<..>>` (see `page`); DOM events and animation frames call its
//! methods. Each frame is "simulate, draw, ask for the next". How its
//! settings change is in `settings`; playing, stepping and resetting, in
//! `playing`; what it does beyond its settings, in `tools`; which element
//! does what, in `target`; what the page and its tests read of it, in
//! `reads`; a replayed trace, in `trace`; the question before the run,
//! in `asking`; the comparison on more seeds, in `spreading`. The rules its state follows (running ahead to its point,
//! what a change of settings does, when the link is written, what a frame
//! does with its words, the pace) are web-free in `lbsim::ui` and tested
//! there with `cargo test`; here they meet the DOM.

mod asking;
mod opening;
mod playing;
mod reads;
mod settings;
mod spreading;
mod target;
mod tools;
mod trace;

pub use target::Target;

use super::controls::Controls;
use super::dom;
use super::draining::Draining;
use super::hash::{self, Fields, Notice, Parsed};
use super::opening::Opening;
use super::options::{Kind, Options, AUTOPLAY_KEY, CHARTS_KEY, METRIC_KEY, VERSUS_KEY};
use super::pace::{self, Pace, Sight, Turn};
use super::params::{Params, SPEED_KEY};
use super::parts::{self, Parts};
use super::recording::{self, Clip, Progress, Scene};
use super::share;
use super::surface::Beside;
use super::take_away::Download;
use super::topology::{self, Focus, Part};
use super::traces::LabTrace;
use lbsim::engine::Replay;
use lbsim::explain::readback::Sentence;
use lbsim::narration;
use lbsim::scenario::{fields, FieldKind};
use lbsim::ui::following::Naming;
use lbsim::ui::frame::{Moment, MovesShown, Words};
use lbsim::ui::gain::Gain;
use lbsim::ui::link::Link;
use lbsim::ui::run_ahead::{Ahead, Goal, RunAhead};
use lbsim::ui::spread::Spread;
use lbsim::ui::whole_run::{self, Kept, Span};
use lbsim::{Scenario, ScenarioError, Simulation, Snapshot, Time};
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::{Event, EventTarget, HtmlElement, MouseEvent};

/// Frame costs kept for the test hooks (about a minute of frames).
const MAX_FRAME_COSTS: usize = 4_096;

pub struct View {
    root: HtmlElement,
    kind: Kind,
    /// Whether the view mirrors its state in the page's URL hash.
    owns_hash: bool,
    options: Options,
    params: Params,
    sim: Simulation,
    /// The versus twin: the same scenario with the options' `versus`
    /// settings, on the same seed, kept at the same simulated time.
    twin: Option<Simulation>,
    /// A third run beside the twin, not drawn: the options' `reference`
    /// settings on the same seed, its p99 beside the two pictures' (see
    /// `gain_bars`).
    reference: Option<Simulation>,
    snapshot: Snapshot,
    playing: bool,
    /// Whether the view is in sight, and its still picture drawn.
    sight: Sight,
    /// The client whose session the person follows, clicked in the topology.
    followed: Option<u32>,
    /// The reader asked for reduced motion: no request dots move.
    reduced_motion: bool,
    pace: Pace,
    /// Everything the view shows, built inside its root.
    parts: Parts,
    readouts_stale: bool,
    /// The figures the readouts show over a span longer than a second, of
    /// the view's run, its twin's and the reference's.
    whole_run: [Kept; 3],
    /// Wall milliseconds recent frames spent simulating and drawing.
    frame_costs: Vec<f64>,
    /// The last membership change whose moving keys were shown.
    moves_shown: MovesShown,
    /// A clip of the view being recorded.
    clip: Option<Clip>,
    /// How far an embed has run ahead to its point since it started.
    run_ahead: RunAhead,
    /// When the settings last changed without starting over, so that the
    /// run's figures mix two settings.
    changed_at: Option<Time>,
    /// A server the reader gave back its speed, while its queue drains.
    draining: Option<Draining>,
    /// The trace the view replays instead of its scenario's arrivals.
    trace: Option<std::rc::Rc<LabTrace>>,
    /// The question asked before the run, when the link asks for one.
    guess: Option<crate::guess::Guess>,
    /// Whether the view opens with one request's trip first.
    opening: Opening,
    /// Whether a spike's reader can have seen it run.
    spike_seen: crate::spike::Seen,
    /// The longest queue of the run so far, the twin's included, which
    /// sets how finely the pictures draw queues (see `Surface`).
    longest_queue: u32,
    /// Whether an explainer's spike may start (see `lbsim::ui::spike::Start`).
    spike_start: crate::spike::Start,
    /// When the URL is to mirror the settings next.
    link: Link,
    /// The comparison run again on more seeds, headless, for the chart of
    /// its spread, when the options name a number of seeds.
    spread: Option<Spread>,
}

impl View {
    /// Builds a view of `kind` inside `root` for the settings and options in
    /// `hash`, showing notices for any entry that could not be used.
    pub fn mount(root: &HtmlElement, kind: Kind, hash: &str, owns_hash: bool) -> Result<View, JsValue> {
        // Until the page's observer first reports, whether its box meets the
        // viewport now (read before the parts change the page, so it costs
        // no layout): a view in sight draws in the page's first frame, and
        // one never in sight never runs.
        let on_screen = super::waiting::is_in_sight(root);
        let Parsed { params, options, mut notices } = hash::parse(hash, kind);
        let parts = Parts::build(root, kind, &options)?;
        let (sim, params) = match simulate(&params.scenario, None) {
            Ok(sim) => (sim, params),
            Err(error) => {
                notices.push(Notice { message: format!("Settings not applied: {error}."), about_link: true });
                let sim =
                    simulate(&Scenario::default(), None).map_err(|e| JsValue::from_str(&e.to_string()))?;
                (sim, Params::default())
            }
        };
        let mut view = View {
            root: root.clone(),
            kind,
            owns_hash,
            sim,
            twin: None,
            reference: None,
            params,
            snapshot: Snapshot::default(),
            playing: true,
            sight: Sight::new(on_screen),
            followed: None,
            reduced_motion: dom::prefers(super::page::REDUCED_MOTION),
            pace: Pace::default(),
            parts,
            readouts_stale: true,
            whole_run: Default::default(),
            frame_costs: Vec::with_capacity(MAX_FRAME_COSTS),
            moves_shown: MovesShown::default(),
            clip: None,
            run_ahead: RunAhead::default(),
            changed_at: None,
            draining: None,
            trace: None,
            guess: None,
            opening: Opening::Over,
            spike_seen: Default::default(),
            longest_queue: 0,
            spike_start: Default::default(),
            link: Link::mounted(owns_hash),
            spread: None,
            options,
        };
        view.parts.notices.show(&notices);
        view.look_for_trace();
        if let Some(replay) = view.replay() {
            match simulate(&view.params.scenario, Some(replay)) {
                Ok(sim) => view.sim = sim,
                Err(error) => {
                    view.parts.notices.show(&[Notice::plain(format!("Trace not replayed: {error}."))])
                }
            }
        }
        view.restart_twin();
        view.open();
        view.ask();
        view.set_playing(view.options.autoplay);
        view.settings_changed();
        Ok(view)
    }

    /// Shows the readouts' figures over the span the sentences beside them
    /// count, and the twin's beside them where they count both runs: when
    /// due, or, counting since the run began beside sentences read back
    /// from the run, when those were rewritten (`said`), so that both give
    /// the same requests' figures until the next rewrite. Returns whether
    /// the strip may wrap otherwise (see `Readouts::show`).
    fn show_readouts_if_due(
        &mut self,
        speed: Option<f64>,
        now_ms: f64,
        stale: bool,
        said: Option<bool>,
    ) -> bool {
        let tail = self.options.say.0.contains(&Sentence::Tail);
        let beside = Span::counted_as_sentences(self.kind, tail, self.twin.is_some());
        let warmup_s = self.params.scenario.warmup_s;
        let span = Span::of(whole_run::is_over(&self.sim), beside, warmup_s);
        let due = match (span.since(), said) {
            (true, Some(said)) => said,
            _ => self.parts.readouts.due(now_ms, stale),
        };
        if !due {
            return false;
        }
        let asked = self.opening.speed(self.params.speed);
        self.parts.readouts.opening(!self.opening.is_over());
        let [own, twin_kept, reference_kept] = &mut self.whole_run;
        let twin = self.twin.as_ref().filter(|_| beside);
        let twin = twin.and_then(|twin| {
            let figures = twin_kept.of(twin, Span::of(whole_run::is_over(twin), true, warmup_s))?;
            Some((figures, twin.metrics().counts.bounces))
        });
        let own = (span, own.of(&self.sim, span));
        if let (Some(bars), Some(reference)) = (&self.parts.gain, &self.reference) {
            let reference =
                reference_kept.of(reference, Span::of(whole_run::is_over(reference), true, warmup_s));
            let figures = own.1.zip(twin.map(|(figures, _)| figures)).zip(reference);
            let gain = figures.and_then(|((own, twin), reference)| Gain::of_runs(&twin, &reference, &own));
            let measured_s = self.sim.now().as_secs() - warmup_s;
            bars.show((span, measured_s), gain);
        }
        self.parts.readouts.show(&self.snapshot, (speed, Some(asked)), now_ms, own, twin)
    }

    /// One animation frame, in which running ahead may go on until
    /// `run_ahead_until` (wall ms); returns whether another one is wanted.
    pub fn frame(&mut self, now_ms: f64, run_ahead_until: f64) -> bool {
        self.write_link_if_due();
        let started = dom::now_ms();
        let wall_ms = self.pace.wall_step(now_ms);
        // Waiting at a question, a view that shows its setup runs ahead
        // through its warm-up, and waits there.
        let running = self.playing || self.shows_setup();
        if running && self.opening.is_over() {
            self.run_ahead(run_ahead_until);
        }
        if self.playing && wall_ms > 0.0 {
            let before = self.sim.now();
            let target = before + Time::from_ms(wall_ms * self.opening.speed(self.params.speed));
            let mut events = self.sim.advance_to(target, self.pace.event_cap()).events;
            let now = self.sim.now();
            for beside in self.twin.iter_mut().chain(&mut self.reference) {
                events += beside.advance_to(now, self.pace.event_cap()).events;
            }
            self.pace.observe(events, dom::now_ms() - started);
            self.pace.achieved((self.sim.now() - before).as_ms(), wall_ms);
            self.stop_if_halted();
            if self.spike_over() {
                // Over: pause on the final picture, offering a replay.
                self.set_playing(false);
            }
        }
        let max_requests = match self.reduced_motion {
            true => 0,
            false => topology::max_requests(self.servers()),
        };
        self.sim.snapshot_into(&mut self.snapshot, max_requests);
        self.opening_moves_on();
        if let Some(tools) = &mut self.parts.membership {
            tools.show(&self.snapshot);
        }
        // Running ahead, the view shows the run's passing states but holds
        // its words: a decision caption or sentence of the warm-up would
        // stay on screen after it.
        let running_ahead = running && !self.run_ahead.arrived();
        if !running_ahead {
            let copies_of = self.sim.clients_keep_copies().then(|| self.followed.unwrap_or(0));
            let latest = (self.snapshot.decisions.as_slice(), self.snapshot.servers.as_slice());
            self.parts.decision.update(latest, copies_of, now_ms, self.playing);
        }
        if let Some(moves) = self.sim.key_moves() {
            // A change has just applied: its sentence is due now.
            self.readouts_stale |= self.moves_shown.observe(moves.at_ms, now_ms);
        }
        let speed = self.playing.then_some(self.pace.actual_speed());
        let stale = std::mem::take(&mut self.readouts_stale);
        let (scenario, twin) = (&self.params.scenario, self.twin.as_ref());
        // Whether sentences read back from the run were rewritten this
        // frame: `None` where none are read back.
        let moment = Moment {
            running_ahead,
            opening_over: self.opening.is_over(),
            asking: self.waits_for_guess(),
            playing: self.playing,
        };
        let said = match Words::for_frame(moment) {
            Words::Opening => self.parts.narration.tell_opening(self.params.speed),
            Words::Hold => self.parts.narration.hold(),
            Words::Hide => self.parts.narration.hide(),
            Words::Update => {
                let changed_at = self.changed_at.map(Time::as_secs);
                let servers = &self.snapshot.servers;
                let queued = |d: &Draining| servers.get(d.server).map_or(0, |server| server.queued);
                self.draining = self.draining.filter(|d| queued(d) > 0);
                let draining = self.draining.and_then(|d| d.words(queued(&d), servers.len()));
                let sims = (&self.sim, twin);
                let versus = &self.options.versus;
                self.parts.narration.update(now_ms, stale, versus, scenario, sims, (changed_at, draining))
            }
        };
        if said == Some(true) {
            self.parts.canvases.words_said(&self.sim);
        }
        let strip_changed = self.show_readouts_if_due(speed, now_ms, stale, said);
        if !running_ahead {
            self.tell_verdict(now_ms);
        }
        let moving = self.sim.key_moves().zip(self.moves_shown.phase(now_ms));
        let servers = &self.snapshot.servers;
        let decision_ink = self.parts.decision.ink(now_ms, self.playing, servers);
        let learned = self.sim.learned_loads(self.followed.unwrap_or(0));
        let queue_places = self.followed.map_or_else(Vec::new, |client| self.sim.queue_places(client));
        let bounced: Vec<u64> = self.snapshot.servers.iter().map(|s| s.bounced).collect();
        self.parts.bounces.observe(now_ms, self.playing, &bounced);
        let bounces = self.parts.bounces.shown();
        let focus = Focus {
            told: self.parts.event_log.highlighted.as_ref(),
            client: self.followed,
            decision: self.parts.decision.shown(),
            decision_ink,
            moving,
            learned: &learned,
            queue_places: &queue_places,
            spike_over: lbsim::ui::spike::is_over(&self.sim),
            bounces: &bounces,
        };
        // The view fits itself to this frame's words before it draws, so
        // that the first frame drawn is laid out as the next: fitted before
        // the readouts' first figures, chapter 1's picture moved up 88 px a
        // quarter of a second in, once the strip had folded.
        if let Some(fit) = &mut self.parts.fit {
            fit.frame(now_ms, strip_changed);
        }
        // Both pictures of a twin share one row scale: each leaves the
        // column of copies the other writes.
        if let (Some(pane), Some(twin)) = (&mut self.parts.twin_pane, &self.twin) {
            pane.take(twin, max_requests);
            self.parts.canvases.draw_beside(pane.shown_beside(twin.clients_keep_copies()));
            pane.draw_beside(Beside { copies: self.sim.clients_keep_copies() });
        } else {
            self.parts.canvases.draw_beside(Beside { copies: false });
        }
        let twin_pane = self.parts.twin_pane.as_mut().filter(|_| self.twin.is_some());
        let queues = self.snapshot.servers.iter().map(|s| s.queued);
        let longest = queues.chain(twin_pane.as_ref().map(|pane| pane.longest_queue())).max();
        self.longest_queue = self.longest_queue.max(longest.unwrap_or(0));
        self.parts.canvases.queues_seen(self.longest_queue);
        if let Some(pane) = twin_pane {
            pane.queues_seen(self.longest_queue);
        }
        let drawn = self.parts.canvases.draw(
            (&self.sim, self.twin.as_ref()),
            &self.snapshot,
            focus,
            now_ms,
            self.playing,
        );
        if let (true, Some(fit)) = (self.parts.canvases.take_legend_changed(), &mut self.parts.fit) {
            fit.legend_changed();
        }
        self.parts.decision.ink_drawn = decision_ink;
        self.parts.decision.winner_ring = drawn.decision.flatten();
        if let Some(client) = self.followed {
            let naming = Naming::among(self.snapshot.servers.len(), self.twin.is_some());
            let beside = drawn.heading.map(|[x, ..]| x);
            let canvases = &self.parts.canvases;
            let room = beside.unwrap_or(f64::INFINITY).min(canvases.picture_width());
            // Over a lone picture in one line. Over a twin's, whose band the
            // panes' titles make taller, the stylesheet keeps it to its
            // own pane in a smaller type, in two lines (an estimate of two
            // lines' room dropped "Click it again to stop." from chapter 6's
            // line at 1440 × 900, which fitted); in the lab, in a line of
            // its own above the picture, and stacked under it on a phone,
            // it takes the room it needs.
            let over = self.kind == Kind::Embed && !self.root.class_list().contains("stacked");
            let one_line = over && self.twin.is_none();
            let measure = |font: &str, text: &str| canvases.picture_text_width(font, text);
            self.parts.event_log.show_following(client, &self.snapshot, (naming, room, one_line), measure);
        }
        let twin = self.twin.as_ref();
        if let (Some(pane), Some(twin)) = (&mut self.parts.twin_pane, twin) {
            pane.draw(twin, &self.parts.canvases, now_ms, speed, stale);
            if self.options.say.0.contains(&Sentence::Bounces) {
                let twin_counts = *pane.counts();
                pane.count_bounces(&self.snapshot.counts, &twin_counts);
            }
        }
        let strip = self.parts.readouts.shown();
        self.parts.narration.announce(now_ms, self.playing, strip, bounced.iter().sum());
        let searching = match &mut self.parts.capacity {
            Some(panel) => {
                panel.frame(&self.parts.canvases);
                panel.running()
            }
            None => false,
        };
        self.run_spread(run_ahead_until);
        if self.frame_costs.len() < MAX_FRAME_COSTS {
            self.frame_costs.push(dom::now_ms() - started);
        }
        let recording = self.record(now_ms);
        let reading = self.collect_trace();
        if let Some(strip) = &mut self.parts.rate_strip {
            let at = (self.sim.now().as_secs(), self.options.trace_speed, self.options.trace_loop);
            strip.draw(self.trace.as_deref(), at, &self.parts.canvases.palette().charts());
        }
        let link_due = self.link.frame_drawn();
        let setting_up = running && !self.run_ahead.arrived();
        self.playing
            || setting_up
            || searching
            || recording
            || reading
            || link_due
            || self.spread.as_ref().is_some_and(Spread::pending)
            || self.parts.canvases.pending()
    }

    /// Runs the simulation and its twin ahead, headless, while an embed's
    /// sentences have no point to make yet, until `until` (wall ms, the
    /// page's frame's share of [`lbsim::ui::run_ahead::BUDGET_MS`]); the rule is
    /// [`RunAhead::run`]'s.
    fn run_ahead(&mut self, until: f64) {
        let goal = Goal {
            runs_ahead: self.kind == Kind::Embed,
            asks: self.guess.is_some(),
            warmup_s: self.params.scenario.warmup_s,
        };
        let mut run_ahead = self.run_ahead;
        run_ahead.run(goal, (dom::now_ms, until), self);
        self.run_ahead = run_ahead;
    }

    /// The view was scrolled out of sight or back. Out of sight it gets no
    /// frames (see [`View::rest`]).
    pub fn set_on_screen(&mut self, on_screen: bool) {
        if !on_screen {
            self.rest();
        }
        self.sight.set_on_screen(on_screen);
    }

    /// The view gets no frame this time (out of sight, or the tab hidden):
    /// its next frame starts afresh, so its clock resumes where it stopped
    /// instead of jumping ahead by the time it was away.
    pub fn rest(&mut self) {
        self.pace.pause();
    }

    pub fn on_screen(&self) -> bool {
        self.sight.on_screen()
    }

    /// The view's box changed, or what it shows did: it fits itself into
    /// its box again on its next frame.
    pub fn resized(&mut self) {
        if let Some(fit) = &mut self.parts.fit {
            fit.invalidate();
        }
    }

    /// Shows the chart of tab `index` of an embed whose charts are tabs.
    pub fn show_chart_tab(&mut self, index: usize) {
        if let Some(fit) = &self.parts.fit {
            fit.show_tab(index);
        }
        self.parts.canvases.invalidate();
    }

    /// How many servers the simulation has (added ones too).
    fn servers(&self) -> usize {
        self.snapshot.servers.len().max(self.params.scenario.servers as usize)
    }

    pub fn dismiss_notices(&self) {
        self.parts.notices.dismiss();
    }

    pub fn restyle(&mut self) {
        self.parts.canvases.restyle();
        if let Some(panel) = &mut self.parts.capacity {
            panel.redraw(&self.parts.canvases);
        }
        if let Some(strip) = &mut self.parts.rate_strip {
            strip.invalidate();
        }
    }

    /// The reader's preference for reduced motion changed.
    pub fn set_reduced_motion(&mut self, reduced: bool) {
        self.reduced_motion = reduced;
        self.parts.canvases.invalidate();
    }
}

/// What running ahead reads and moves of a view: its simulation, its twin
/// kept beside it, and its sentences.
impl Ahead for View {
    fn now(&self) -> Time {
        self.sim.now()
    }

    fn halted(&self) -> bool {
        self.sim.halted().is_some()
    }

    fn earliest(&self) -> Time {
        Time::from_secs(self.parts.narration.earliest_s(&self.params.scenario))
    }

    fn has_point(&self) -> bool {
        self.parts.narration.ready(&self.params.scenario, &self.sim, self.twin.as_ref())
    }

    fn advance(&mut self, ms: f64, events: u64) {
        self.advance_by(ms, events);
    }
}

/// How many of a comparing policy's latest decisions a view keeps.
const DECISIONS_KEPT: usize = 4;

/// A view's simulation of `scenario`, replaying a trace's arrivals if
/// given them, keeping the decisions it shows.
fn simulate(scenario: &Scenario, replay: Option<Replay>) -> Result<Simulation, ScenarioError> {
    let mut sim = match replay {
        Some(replay) => Simulation::replaying(scenario, replay)?,
        None => Simulation::new(scenario)?,
    };
    sim.record_decisions(DECISIONS_KEPT);
    Ok(sim)
}
