//! What a view does beyond its settings: a new seed and embed code, presets,
//! compare mode, the presenter view, downloads, the capacity search, the
//! baseline pinned, what the percentile chart plots, what a click in the
//! topology follows or slows, and the servers box's changes.

use super::*;
use crate::event_log::Follower;
use crate::membership_tools::{Ask, NOISY_NEIGHBOUR};
use lbsim::engine::ServerState;
use lbsim::scenario::failures::Failure;

impl View {
    /// Opens or closes the chart folded behind its button. Each chart is
    /// drawn afresh at the size it opens at: hidden, it had none, and a
    /// chart opened while paused stayed empty.
    pub fn toggle_chart(&mut self) {
        self.parts.fit.iter().for_each(|fit| fit.toggle_chart());
        self.parts.canvases.invalidate();
    }

    /// Draws a seed from the browser's cryptographic generator.
    pub fn new_seed(&mut self) {
        let Ok(FieldKind::Count { max, .. }) = fields::find("seed").map(|f| f.kind) else { return };
        match getrandom::u64() {
            // The remainder's bias is below 2⁻¹⁰ for the seed's range (2⁵³).
            Ok(draw) => {
                let mut next = self.params.clone();
                if next.set("seed", &(draw % (max + 1)).to_string()).is_ok() {
                    self.apply(next);
                }
            }
            Err(error) => self.parts.notices.show(&[Notice::plain(format!("No new seed: {error}."))]),
        }
    }

    /// Shows the embed snippet for the current state.
    pub fn copy_embed_code(&self) {
        let Some(share) = &self.parts.share else { return };
        let mut options = Options::defaults(Kind::Embed);
        for (key, text) in [
            (CHARTS_KEY, self.options.text(CHARTS_KEY)),
            (AUTOPLAY_KEY, if self.playing { "1" } else { "0" }.to_string()),
        ] {
            let _ = options.set(key, &text);
        }
        let size = share.size();
        let height = size.height(&options);
        options.height = Some(height);
        options.presenter = size.presenter();
        let hash = hash::format(&self.params, &options, Kind::Embed, Fields::Changed);
        share.offer(&share::snippet(&hash, height));
    }

    /// Starts the capacity search of the current settings.
    pub fn find_capacity(&mut self) {
        if let Some(panel) = &mut self.parts.capacity {
            panel.start(&self.params.scenario);
        }
    }

    /// The capacity search's outcomes once done, as JSON.
    pub fn capacity_json(&self) -> String {
        self.parts.capacity.as_ref().map(|panel| panel.outcomes_json()).unwrap_or_default()
    }

    /// Keeps the client-experience curve so far as the baseline to compare
    /// later settings with.
    pub fn pin_baseline(&mut self) {
        let (over, now_s) = (whole_run::is_over(&self.sim), self.sim.now().as_secs());
        let words = whole_run::pinned(over, now_s, self.params.scenario.policy.title());
        self.parts.canvases.pin(&self.sim, &words);
    }

    /// The person chose what the percentile chart plots; the link keeps it.
    pub fn metric_chosen(&mut self) {
        let Some(metric) = self.parts.canvases.chosen_metric() else { return };
        let mut options = self.options.clone();
        if options.set(METRIC_KEY, metric.key()).is_ok() && options != self.options {
            self.parts.canvases.set_metric(options.metric);
            self.options = options;
            self.settings_changed();
        }
    }

    /// The person chose a preset: its every field, at the same speed,
    /// from its start.
    pub fn preset_chosen(&mut self) {
        let Some((_, scenario)) = self.parts.presets.as_ref().and_then(|presets| presets.chosen()) else {
            self.settings_changed();
            return;
        };
        self.apply(Params { scenario, speed: self.params.speed });
        self.reset();
    }

    /// The person set what B changes in the compare form: the link takes
    /// the new options, and the page builds the view again for them.
    pub fn compare_entered(&mut self) {
        let Some(form) = &self.parts.compare_form else { return };
        let text = form.input.value();
        let mut options = self.options.clone();
        if let Err(error) = options.set(VERSUS_KEY, &text) {
            self.parts.notices.show(&[Notice::rejected(
                VERSUS_KEY,
                &text,
                &error,
                &self.options.text(VERSUS_KEY),
            )]);
            return;
        }
        if options != self.options {
            let hash = hash::format(&self.params, &options, self.kind, Fields::Shown);
            let _ = dom::window().location().set_hash(&hash);
        }
    }

    /// The person chose the preset B is: the compare form's text names it,
    /// and the view compares as if the text had been entered.
    pub fn compare_preset_chosen(&mut self) {
        if let Some(form) = &self.parts.compare_form {
            form.preset_chosen();
        }
        self.compare_entered();
    }

    /// Turns the presenter view on or off (the link remembers it).
    pub fn toggle_presenter(&mut self) {
        self.options.presenter = !self.options.presenter;
        if !self.options.presenter {
            let _ = self.root.class_list().remove_1("settings-shown");
        }
        let _ = crate::parts::apply_look(&self.root, self.kind, &self.options);
        self.parts.canvases.set_presenting(self.options.presenter);
        if let Some(panel) = &mut self.parts.capacity {
            panel.redraw(&self.parts.canvases);
        }
        self.settings_changed();
    }

    /// In the presenter view, shows or folds away the settings.
    pub fn toggle_settings(&self) {
        if self.options.presenter {
            let _ = self.root.class_list().toggle("settings-shown");
        }
    }

    /// Downloads figures or a picture, named after the view (its element's
    /// id, or else its policy).
    pub fn download(&mut self, what: Download) {
        let id = self.root.id();
        let name = if id.is_empty() { self.params.scenario.policy.name().to_string() } else { id };
        let file = |what: &str| lbsim::export::file_name(&name, self.sim.scenario().seed, what);
        let result = match what {
            Download::Poster => self.save_poster(&file("poster.png")),
            Download::Clip if self.clip.is_none() => {
                let started = Clip::start(&self.scene(), &file("clip.webm"), dom::now_ms());
                started.map(|clip| self.clip = Some(clip))
            }
            Download::Clip => Ok(()),
            Download::Picture(index) => match self.parts.take_away.picture_part(index) {
                Some(part) => {
                    let sims = (&self.sim, self.twin.as_ref());
                    let decision = self.parts.decision.shown();
                    let picture = self.parts.canvases.picture(index, sims, &self.snapshot, decision);
                    let url = picture.and_then(|canvas| canvas.to_data_url());
                    url.and_then(|url| crate::take_away::save_url(&file(&format!("{part}.png")), &url))
                }
                None => Ok(()),
            },
            Download::Series | Download::Servers => {
                self.parts.take_away.download(what, &name, &self.sim);
                Ok(())
            }
        };
        if let Err(error) = result {
            web_sys::console::error_1(&error);
        }
    }

    /// Saves a poster: every chart, a folded tab's too, drawn afresh at the
    /// size of its box on the poster, one pixel to one.
    fn save_poster(&mut self, file: &str) -> Result<(), JsValue> {
        let sims = (&self.sim, self.twin.as_ref());
        let decision = self.parts.decision.shown();
        let count = self.parts.take_away.canvases().len();
        let shapes: Vec<_> = (0..count)
            .map(|i| self.parts.canvases.picture(i, sims, &self.snapshot, decision))
            .collect::<Result<_, _>>()?;
        // The poster lays out the canvases that have a size, in order.
        let mut boxes = recording::boxes(&Scene { canvases: &shapes, ..self.scene() })?.into_iter();
        let mut pictures = Vec::new();
        for (index, shape) in shapes.iter().enumerate() {
            let place = (shape.width() > 0 && shape.height() > 0).then(|| boxes.next()).flatten();
            pictures.push(match (index.checked_sub(1), place) {
                (Some(chart), Some([_, _, w, h])) => {
                    let size = (w.round(), h.round(), 1.0);
                    self.parts.canvases.chart_drawn(chart, sims, &self.snapshot, decision, size)?
                }
                _ => shape.clone(),
            });
        }
        let drawn = recording::save_poster(&Scene { canvases: &pictures, ..self.scene() }, file)?;
        self.parts.take_away.poster_drawn = Some(drawn);
        Ok(())
    }

    /// What a poster or a clip of the view shows: its name, its sentence
    /// (or its caption), its canvases.
    pub(super) fn scene(&self) -> Scene<'_> {
        let title = parts::view_name(&self.root, &self.options)
            .unwrap_or_else(|| format!("{} policy", self.params.scenario.policy.name()));
        // Without sentences, none: the caption is the title already
        // (a poster read "Power of two / Power of two").
        let sentence = self.parts.narration.readback();
        Scene {
            title,
            sentence,
            canvases: self.parts.take_away.canvases(),
            palette: self.parts.canvases.palette(),
        }
    }

    /// Draws the clip being recorded, if one is, and says how long it has
    /// left; returns whether it still records or saves.
    pub(super) fn record(&mut self, now_ms: f64) -> bool {
        let Some(mut clip) = self.clip.take() else { return false };
        let progress = clip.frame(&self.scene(), now_ms);
        if let Some(button) = self.parts.take_away.clip_button() {
            let text = match progress {
                Progress::Recording(seconds) => format!("Recording… {seconds} s"),
                Progress::Saving => "Saving the clip…".to_string(),
                Progress::Saved => format!("Clip ({:.0} s, WebM)", recording::CLIP_SECONDS),
                Progress::Empty => "No clip: the browser encoded no frame (try again)".to_string(),
            };
            button.set_text_content(Some(&text));
        }
        if !matches!(progress, Progress::Saved | Progress::Empty) {
            self.clip = Some(clip);
        }
        self.clip.is_some()
    }

    /// The person clicked the topology at `point` (CSS pixels): a client
    /// is followed (or no longer, clicked again); a server is chosen in the
    /// servers box and gets a noisy neighbour that slows it to a quarter of
    /// its speed, or, if it is failing, recovers.
    pub fn clicked_topology(&mut self, point: (f64, f64)) {
        match self.parts.canvases.part_at(&self.snapshot, None, point) {
            Some(Part::Server(server)) => self.clicked_server(server),
            Some(Part::Client(client)) if self.followed != Some(client) => {
                self.follow(Some(client), Follower::Reader)
            }
            _ => self.follow(None, Follower::Reader),
        }
    }

    /// A click in the twin's picture: on a server, what a click on that
    /// server in the view's own picture does, which slows it in both runs
    /// (a reader clicked random's rows in chapter 5 and nothing happened).
    pub fn clicked_twin(&mut self, point: (f64, f64)) {
        let pane = self.parts.twin_pane.as_ref();
        if let Some(Part::Server(server)) = pane.and_then(|pane| pane.part_at(&self.parts.canvases, point)) {
            self.clicked_server(server);
        }
    }

    /// The picture's keyboard equivalents, while it has the focus: a
    /// server's number does what a click on the server does, and "f"
    /// follows the next client (the first, if none is followed).
    pub fn topology_key(&mut self, key: &str) {
        match key {
            "f" => {
                let next =
                    self.followed.map_or(0, |client| (client + 1) % self.params.scenario.clients.max(1));
                self.follow(Some(next), Follower::Reader);
            }
            digit => {
                if let Some(server) = digit.parse::<usize>().ok().filter(|s| *s < self.snapshot.servers.len())
                {
                    self.clicked_server(server);
                }
            }
        }
    }

    fn clicked_server(&mut self, server: usize) {
        if let Some(tools) = &self.parts.membership {
            tools.choose(server);
        }
        match self.snapshot.servers.get(server).map(|s| s.state) {
            Some(ServerState::Active) => self.change_failure(server, Some(NOISY_NEIGHBOUR)),
            Some(ServerState::Down | ServerState::Slow | ServerState::Failing | ServerState::Flapping) => {
                self.change_failure(server, None)
            }
            _ => {}
        }
    }

    /// A button of the servers box: adds a server, removes, crashes or
    /// restores the one chosen, or makes it fail or recover.
    pub fn server_asked(&mut self, ask: Ask) {
        let Some(tools) = &self.parts.membership else { return };
        let (chosen, failure) = (tools.chosen(), tools.failure());
        match (ask, chosen) {
            (Ask::Add, _) => self.change_membership(|sim| sim.add_server().map(drop)),
            (Ask::Remove, Some(server)) => self.change_membership(|sim| sim.remove_server(server)),
            (Ask::Crash, Some(server)) => self.change_membership(|sim| sim.crash_server(server)),
            (Ask::Restore, Some(server)) => self.change_membership(|sim| sim.restore_server(server)),
            (Ask::Fail, Some(server)) => self.change_failure(server, Some(failure)),
            (Ask::Recover, Some(server)) => self.change_failure(server, None),
            (_, None) => {}
        }
    }

    /// Makes a membership change, which the engine applies at the next
    /// whole simulated millisecond and records into the schedule the link
    /// keeps; says what it did, or why not.
    fn change_membership(&mut self, change: impl FnOnce(&mut Simulation) -> Result<(), ScenarioError>) {
        let done = change(&mut self.sim);
        let Some(tools) = &self.parts.membership else { return };
        match done {
            Ok(()) => {
                self.params.scenario.membership = self.sim.scenario().membership.clone();
                if let Some(report) = self.sim.membership_changes().last() {
                    tools.tell(report);
                }
                self.run_changed();
                self.settings_changed();
            }
            Err(error) => tools.refuse(&format!("Not applied: {error}.")),
        }
    }

    /// Makes `server` fail (or, `None`, recover) as the engine records a
    /// live failure, into the schedule the link keeps, in the view's run
    /// and its twin's; says what it did, or why not, in the servers box,
    /// or without one in a notice.
    fn change_failure(&mut self, server: usize, failure: Option<Failure>) {
        let change = |sim: &mut Simulation| match failure {
            Some(failure) => sim.fail_server_live(server, failure),
            None => sim.recover_server_live(server),
        };
        let done = change(&mut self.sim);
        // The twin meets the same failure at the same moment, so that the
        // sentence comparing them still compares like with like.
        if done.is_ok() {
            for beside in self.twin.iter_mut().chain(&mut self.reference) {
                let _ = change(beside);
            }
        }
        match (done, &self.parts.membership) {
            (Ok(at), tools) => {
                self.params.scenario.failures = self.sim.scenario().failures.clone();
                let slowed = self.snapshot.servers.get(server).is_some_and(|s| s.state == ServerState::Slow);
                self.draining =
                    (failure.is_none() && slowed).then(|| Draining { server, since_s: at.as_secs() });
                if let Some(tools) = tools {
                    tools.tell_failure(server, failure, at, &self.params.scenario);
                }
                self.failure_changed(server, failure, at);
                self.settings_changed();
            }
            (Err(error), Some(tools)) => tools.refuse(&format!("Not applied: {error}.")),
            (Err(error), None) => {
                self.parts.notices.show(&[Notice::plain(format!("Server {server} unchanged: {error}."))])
            }
        }
    }

    /// Follows `client`'s requests (or none), for `follower`.
    pub fn follow(&mut self, client: Option<u32>, follower: Follower) {
        self.followed = client.filter(|c| *c < self.params.scenario.clients);
        self.parts.event_log.followed_by(follower);
        self.parts.event_log.stop_following_if(self.followed.is_none());
        self.parts.canvases.invalidate();
    }
}
