//! Playing a view: play and pause, a step of one event told, an advance
//! by simulated time, a reset to the seed, and stopping where the run
//! has halted for good.

use super::*;
use lbsim::charts::topology_legend::draws_decisions;

impl View {
    /// Plays or pauses; a spike that is over plays again from its start.
    /// A question waiting is skipped.
    pub fn toggle_play(&mut self) {
        // Play while the question waits is a skip: the reader asked to see.
        if self.waits_for_guess() {
            return self.guessed(None);
        }
        if !self.playing && self.spike_over() {
            self.reset();
        }
        if self.playing {
            self.spike_seen.held();
        }
        self.spike_start.open();
        self.set_playing(!self.playing);
    }

    /// Every session of a spike has ended: nothing more will happen.
    pub(super) fn spike_over(&self) -> bool {
        crate::spike::is_over(&self.sim)
    }

    pub fn set_playing(&mut self, playing: bool) {
        // A link's trace comes first: without it the run would not be the
        // one the link means.
        let playing = playing && !self.waiting_for_trace() && !self.waits_for_guess();
        self.playing = playing;
        if playing {
            self.parts.event_log.unhighlight();
        }
        self.pace.pause();
        // The charts are redrawn in turn while the run plays; stopped, each
        // is drawn once more, so that none is left showing a moment
        // before the stop (a spike's chart still "collecting… 99
        // sessions" after its hundredth had ended).
        if !playing {
            self.parts.canvases.invalidate();
        }
        self.parts.transport.show_playing(playing, self.spike_over());
        self.readouts_stale = true;
    }

    /// What the view does with the page's frame at wall-clock `now_ms`
    /// (see [`Sight::turn`]): a brief one waits for most of it to come in
    /// sight, an explainer's spike for its whole picture to have been in
    /// sight a second (see `lbsim::ui::spike::Start`). One at rest takes
    /// only a frame `asked` for (see [`Sight::takes_turn`]).
    pub fn turn(&mut self, tab_shown: bool, asked: bool, now_ms: f64) -> Turn {
        if !self.sight.takes_turn(asked) {
            return Turn::Rest;
        }
        let brief = pace::is_brief(self.sim.scenario().demand, self.opening_over());
        let held = self.explainer_spike();
        let (root, start) = (&self.root, &mut self.spike_start);
        let mut whole = false;
        let turn = self.sight.turn(tab_shown, || {
            let place = place(root, brief);
            whole = pace::wholly_in_sight(place);
            pace::in_sight_to_run(brief, place) && (!held || start.may_run(now_ms, whole))
        });
        self.watch_spike(whole);
        turn
    }

    /// Whether the view is an explainer's (or an embed's) spike, which
    /// waits to be seen before it runs and plays again if it ran unseen;
    /// the lab's spike is the reader's to play and replay.
    fn explainer_spike(&self) -> bool {
        self.kind == Kind::Embed && self.sim.scenario().demand == lbsim::scenario::Demand::Spike
    }

    /// Whether the view waits for its spike's second in sight to pass,
    /// and wants frames to see it pass.
    pub fn settling(&self) -> bool {
        self.spike_start.settling()
    }

    /// Notes whether the view wanted another frame after its turn.
    pub fn wanted_more(&mut self, more: bool) {
        self.sight.wanted_more(more);
    }

    /// Notes whether an explainer's spike runs with its whole picture in
    /// sight (`whole`), and plays it again once over if it never did, now
    /// that it is (see `lbsim::ui::spike::Seen`). The lab's spike is the
    /// reader's to replay.
    fn watch_spike(&mut self, whole: bool) {
        if !self.explainer_spike() {
            return;
        }
        if self.playing {
            self.spike_seen.ran(self.sim.now().as_ms(), whole);
        } else if self.spike_seen.replay_due(self.spike_over(), whole) {
            self.reset();
            self.set_playing(true);
        }
    }

    /// Draws the run at its present moment without running it, for a view
    /// on screen that waits for more of it to come in sight (a spike, an
    /// opening trip), so that the reader sees the clients and servers at
    /// once rather than a blank box; a spike not yet begun says what it
    /// waits for.
    pub fn draw_still(&mut self, now_ms: f64) {
        let playing = std::mem::replace(&mut self.playing, false);
        self.frame(now_ms, now_ms);
        self.playing = playing;
        if self.explainer_spike() && self.sim.now().as_ms() == 0.0 {
            self.parts.narration.wait_for_sight();
        }
        self.rest();
    }

    /// Pauses, then processes one event, tells it in the event log and
    /// highlights what it involved. Where the picture draws decisions, and
    /// `to_decision`, the events up to the next decision run and the one
    /// that made it is told: a reader stepping to see power of two decide
    /// would otherwise press about a hundred times between two. The twin
    /// follows to the same time.
    pub fn step(&mut self, to_decision: bool) {
        if self.waits_for_guess() {
            return;
        }
        self.spike_seen.held();
        self.spike_start.open();
        self.set_playing(false);
        let step = match to_decision && draws_decisions(self.sim.scenario()) {
            true => narration::step_to_decision,
            false => narration::step_told,
        };
        match step(&mut self.sim) {
            Some(told) => self.parts.event_log.push(told),
            None => {
                let why =
                    self.sim.halted().map_or("No event is left to step to.".to_string(), |h| format!("{h}."));
                self.parts.event_log.push_none(&why);
            }
        }
        self.bring_beside_up();
        self.stop_if_halted();
        self.parts.canvases.invalidate();
        self.readouts_stale = true;
    }

    /// Advances the simulation by `ms` of simulated time at once.
    pub fn advance(&mut self, ms: f64) {
        self.advance_by(ms, u64::MAX);
    }

    /// Advances the simulation by `ms` of simulated time, or by
    /// `max_events` if it gets there first, and its twin to the same time.
    pub(super) fn advance_by(&mut self, ms: f64, max_events: u64) {
        let target = self.sim.now() + Time::from_ms(ms);
        self.sim.advance_to(target, max_events);
        self.bring_beside_up();
        self.stop_if_halted();
        self.parts.canvases.invalidate();
        self.readouts_stale = true;
    }

    /// Brings the runs beside the view's own (the twin, the reference) to
    /// its simulated time.
    fn bring_beside_up(&mut self) {
        let now = self.sim.now();
        for beside in self.twin.iter_mut().chain(&mut self.reference) {
            beside.advance_to(now, u64::MAX);
        }
    }

    /// Pauses, saying why, when the simulation has stopped for good.
    pub(super) fn stop_if_halted(&mut self) {
        if let Some(halt) = self.sim.halted() {
            self.set_playing(false);
            let said = format!("{halt}. Reset to start again.");
            self.tell_trace_box(&said);
            self.parts.notices.show(&[Notice::plain(said)]);
        }
    }

    /// The simulation starts from its seed again: it has its point to get
    /// to again, and its figures cover one setting.
    pub(super) fn started_over(&mut self) {
        self.run_ahead.start_over();
        self.spike_seen = Default::default();
        self.longest_queue = 0;
        self.changed_at = None;
        self.draining = None;
        self.whole_run.iter_mut().for_each(Kept::forget);
    }

    /// Starts the same scenario over from its seed.
    pub fn reset(&mut self) {
        if let Ok(sim) = simulate(&self.params.scenario, self.replay()) {
            self.sim = sim;
            self.restart_twin();
            self.started_over();
            self.open();
            self.parts.event_log.clear();
            self.parts.canvases.restarted();
        }
        self.parts.canvases.invalidate();
        self.readouts_stale = true;
    }
}

/// Where the view on `root` stands in the window, for
/// [`pace::in_sight_to_run`]: a `brief` view's picture (the twin's beside
/// it included), which it waits for most of, or for half of once the
/// reader has come to its chapter; the whole view for another, or for one
/// without a picture.
fn place(root: &HtmlElement, brief: bool) -> pace::Place {
    let picture = brief.then(|| root.query_selector(".pictures, .topology").ok().flatten()).flatten();
    let rect =
        picture.as_ref().map_or_else(|| root.get_bounding_client_rect(), |p| p.get_bounding_client_rect());
    let chapter = root.closest("section").ok().flatten();
    let chapter_top =
        chapter.map_or_else(|| root.get_bounding_client_rect().top(), |c| c.get_bounding_client_rect().top());
    let window_h = dom::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(rect.bottom());
    pace::Place { picture: (rect.top(), rect.bottom()), chapter_top, window_h }
}
