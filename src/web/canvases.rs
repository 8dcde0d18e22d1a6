//! Everything a view draws each frame: the topology on every frame, its
//! figures (see `figures`) in turn at a throttled rate so they never cost
//! the animation its frames (which is due when is
//! `lbsim::ui::chart_turns`). It builds the topology's canvas and legend,
//! and each figure, into the view.

use super::dom::{self, Ids};
use super::figures::{self, Canvas, Figure, Frame, Input, Place};
use super::options::Chart;
use super::surface::{Beside, Surface};
use super::theme::Palette;
use super::topology::{self, Focus, Part};
use super::twins::Sides;
use lbsim::charts::topology_legend::{choice_solid, choice_words, draws_decisions, Mark};
use lbsim::charts::{ChartStyle, SeriesMetric};
use lbsim::engine::{Decision, Hop, LearnedLoad};
use lbsim::ui::bounces::BounceMark;
use lbsim::ui::chart_turns::{picture_size, ChartTurns};
use lbsim::ui::fit::least_label_px;
use lbsim::ui::options::Kind;
use lbsim::ui::topology_layout::room_screen_height;
use lbsim::ui::waits::{waits_over_timeout, WaitBand};
use lbsim::{Simulation, Snapshot};
use plotters::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlCanvasElement, HtmlElement};

/// The topology's legend: each mark's chip class, colour and text. Only
/// the marks the view can draw for its scenario are shown.
const TOPOLOGY_LEGEND: [(Mark, figures::Entry); 17] = [
    (Mark::Request, ("dot", "var(--c-request)", "request")),
    (Mark::Retry, ("ring", "var(--c-retry)", "retry, after a bounce or an error")),
    (Mark::Bounce, ("cross", "var(--c-bounce)", "bounced by queue timeout")),
    (Mark::Response, ("dot", "var(--c-response)", "response")),
    (Mark::Handshake, ("", "var(--c-handshake)", "handshake")),
    (Mark::BusySlot, ("", "var(--c-busy)", "busy slot")),
    (Mark::FreeSlot, ("", "var(--c-free)", "free slot")),
    (Mark::SlowedSlot, ("hatched", "var(--c-busy)", "busy slot of a slowed server")),
    (Mark::Queued, ("", "var(--c-queued)", "queued (\"<\": longer than its lane shows)")),
    (
        Mark::Wait,
        (
            "hatched",
            "var(--c-bounce)",
            "a queue's wait at its server's speed, how long it takes to clear: the line under its row, thick, red and striped past the timeout's tick",
        ),
    ),
    (Mark::ClientWaiting, ("dot", "var(--c-client)", "client waiting")),
    (Mark::Completed, ("", "var(--c-response)", "requests each server completed, once the spike is over")),
    (
        Mark::ServerOut,
        (
            "cross",
            "var(--ink)",
            "server crashed or down (removed: faded; draining: dashed box; failing: dotted box; out of a pool: veiled)",
        ),
    ),
    (Mark::KeyMoves, ("", "var(--ink)", "keys moving to their new server after a change")),
    (Mark::Shades, ("shades", "", "many servers: shade = share of slots busy, orange bar = queue")),
    (
        Mark::Heard,
        (
            "needle",
            "var(--ink)",
            "needle: where a client's copy of a server's load, busy plus queued (16: 10 busy, 6 queued), would end on its row; the gap to the row's fill, the true load, is how wrong the copy is (left of the row's end, the client thinks the server busier)",
        ),
    ),
    // Last: listed only while the picture draws a choice (see
    // `Canvases::show_choice`), its room kept, so that the entries before
    // it never move; its words are the run's (see `choice_words`).
    (Mark::Choice, ("choice", "var(--ink)", "")),
];

/// A figure and the surface it draws on.
struct Slot {
    chart: Chart,
    figure: Box<dyn Figure>,
    surface: Surface,
}

pub struct Canvases {
    root: Element,
    topology: Surface,
    /// Each entry of the topology's legend, by the mark it names.
    legend: Vec<(Mark, HtmlElement)>,
    /// The words of the choice's entry, which say what the run's policy
    /// does with a decision: compare servers, or place a key.
    choice_words: HtmlElement,
    /// Whether the run can draw a policy's choice, and whether the last
    /// frame drew one (see [`Canvases::show_choice`]).
    choice: (bool, bool),
    /// Whether the run can draw a request waiting for its handshake, and
    /// whether the legend lists it (see [`Canvases::show_handshake`]).
    handshake: (bool, bool),
    /// Whether the legend's entries changed since the view last asked
    /// (see [`Canvases::take_legend_changed`]).
    legend_changed: bool,
    slots: Vec<Slot>,
    /// Which of the slots' charts is drawn when.
    turns: ChartTurns,
    palette: Palette,
    /// The presenter view: larger text on the charts.
    presenting: bool,
    /// Where the topology last headed the column beside its rows (see
    /// `topology::Drawn::heading`).
    heading: Option<[f64; 4]>,
}

impl Canvases {
    /// Builds the topology into `pane`, its legend into `stage`, and a
    /// figure for each of `charts` into `figures`; colours come from the
    /// view's `root`, and the charts' type size from whether it is
    /// `presenting`.
    pub fn build(
        root: &HtmlElement,
        (pane, stage): (&Element, &Element),
        figures: &Element,
        (charts, metric): (&[Chart], SeriesMetric),
        presenting: bool,
        ids: &Ids,
    ) -> Result<Canvases, JsValue> {
        // Named as a picture, and never "Clients": that is the name of the
        // slider beside it, which a reader (or a screen reader) asks for by
        // name and found the picture instead.
        let label = "Picture of the run: each dot is a request travelling between a client on the left, \
                     a balancer where there are any, and a server on the right. Click a server (or press \
                     its number) to slow it to a quarter of its speed, again to restore it; click a client \
                     (or press f) to follow its requests.";
        let topology = figures::canvas(pane, "topology", &ids.of("topology"), label)?;
        // Focusable, for its keyboard equivalents.
        topology.set_attribute("tabindex", "0")?;
        let entries = TOPOLOGY_LEGEND.map(|(_, entry)| entry);
        let (items, mut words): (Vec<_>, Vec<_>) = figures::legend(stage, &entries)?.into_iter().unzip();
        let legend = TOPOLOGY_LEGEND.iter().map(|(mark, _)| *mark).zip(items).collect();
        let choice_words = words.pop().ok_or_else(|| JsValue::from_str("the legend has no choice"))?;
        let mut slots = Vec::with_capacity(charts.len());
        let mut least_width: f64 = 0.0;
        for &chart in charts {
            let figure: HtmlElement = dom::child(figures, "figure", "")?;
            let place =
                Place { figure: &figure, canvas_id: ids.of(&format!("chart-{}", chart.key())), ids, metric };
            let figure = figures::build(chart, &place)?;
            least_width = least_width.max(figure.min_size().0);
            let surface = Surface::new(figure.canvas().clone())?;
            slots.push(Slot { chart, figure, surface });
        }
        // The widest figure's least width, for the embed's stylesheet to
        // give the charts' column as far as the picture's share allows.
        root.style().set_property("--charts-min-w", &format!("{least_width}px"))?;
        Ok(Canvases {
            root: root.clone().into(),
            topology: Surface::new(topology)?,
            legend,
            choice_words,
            choice: (false, false),
            handshake: (false, false),
            legend_changed: false,
            turns: ChartTurns::new(slots.len()),
            slots,
            palette: Palette::read(root),
            presenting,
            heading: None,
        })
    }

    /// Re-reads the palette (the colour scheme changed) and redraws all.
    pub fn restyle(&mut self) {
        self.palette = Palette::read(&self.root);
        self.invalidate();
    }

    /// The view enters or leaves the presenter view: the charts are drawn
    /// again in its type size.
    pub fn set_presenting(&mut self, presenting: bool) {
        self.presenting = presenting;
        self.invalidate();
    }

    /// Marks every chart for redrawing: its data changed outside a frame.
    pub fn invalidate(&mut self) {
        self.turns.invalidate();
    }

    /// Gives `hook` each figure, then redraws them all.
    fn each(&mut self, mut hook: impl FnMut(&mut dyn Figure)) {
        for slot in &mut self.slots {
            hook(slot.figure.as_mut());
        }
        self.invalidate();
    }

    /// The percentile chart plots `metric` from now on.
    pub fn set_metric(&mut self, metric: SeriesMetric) {
        self.each(|figure| figure.set_metric(metric));
    }

    /// The metric the person chose in the percentile chart's caption.
    pub fn chosen_metric(&self) -> Option<SeriesMetric> {
        self.slots.iter().find_map(|slot| slot.figure.chosen_metric())
    }

    /// What a person can press or choose in the figures.
    pub fn inputs(&self) -> Vec<(HtmlElement, Input)> {
        self.slots.iter().flat_map(|slot| slot.figure.inputs()).collect()
    }

    /// Each chart's name and the names of the lines its figure drew last.
    pub fn lines(&self) -> Vec<(&'static str, Vec<String>)> {
        self.slots.iter().map(|slot| (slot.chart.key(), slot.figure.lines())).collect()
    }

    /// The view's colours.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The client or server drawn at a point of the topology.
    /// The client or server drawn at `point` on this view's picture, or
    /// on another's `surface` (a twin's).
    pub fn part_at(&self, snapshot: &Snapshot, surface: Option<&Surface>, point: (f64, f64)) -> Option<Part> {
        topology::part_at(snapshot, (surface.unwrap_or(&self.topology), self.least_label_px()), point)
    }

    /// Where each server of `snapshot` is drawn in the topology (x, y, w, h).
    pub fn server_cells(&self, snapshot: &Snapshot) -> Vec<[f64; 4]> {
        topology::server_cells(snapshot, (&self.topology, self.least_label_px()))
    }

    /// Where each server's box of slots is drawn, where one is.
    pub fn slot_boxes(&self, snapshot: &Snapshot) -> Vec<Option<[f64; 4]>> {
        topology::slot_boxes(snapshot, (&self.topology, self.least_label_px()))
    }

    /// Where a followed client's requests are drawn (see
    /// `topology::followed_marks`).
    pub fn followed_marks(
        &self,
        snapshot: &Snapshot,
        followed: (u32, &[(u32, u32)]),
    ) -> Vec<(Hop, [f64; 2], Option<f64>)> {
        topology::followed_marks(snapshot, (&self.topology, self.least_label_px()), followed)
    }

    /// Where each cell of the clients' column is drawn.
    pub fn client_cells(&self, snapshot: &Snapshot) -> Vec<[f64; 4]> {
        topology::client_cells(snapshot, (&self.topology, self.least_label_px()))
    }

    /// Where each server's name is written, where its row holds one.
    pub fn name_spans(&self, snapshot: &Snapshot) -> Vec<Option<[f64; 2]>> {
        topology::name_spans(snapshot, (&self.topology, self.least_label_px()))
    }

    /// Where the mark of a client's copy of each server's load is drawn.
    pub fn copy_marks(&self, snapshot: &Snapshot, learned: &[LearnedLoad]) -> Vec<Option<[f64; 4]>> {
        topology::copy_marks(snapshot, (&self.topology, self.least_label_px()), learned)
    }

    /// Where the crosses of `marks` and their plates are drawn, on this
    /// view's picture or on another's `surface` (compare mode's twin).
    pub fn bounce_marks(
        &self,
        snapshot: &Snapshot,
        marks: &[BounceMark],
        surface: Option<&Surface>,
    ) -> Vec<topology::BounceBoxes> {
        let surface = surface.unwrap_or(&self.topology);
        topology::bounce_marks(snapshot, (surface, self.least_label_px()), marks)
    }

    /// How far left of its box each server's queue is drawn, on this
    /// view's picture or on another's `surface` (a twin's).
    pub fn queue_lengths(&self, snapshot: &Snapshot, surface: Option<&Surface>) -> Vec<f64> {
        topology::queue_lengths(snapshot, (surface.unwrap_or(&self.topology), self.least_label_px()))
    }

    /// What each server's row writes for its queue's wait, where it
    /// writes one.
    pub fn wait_labels(&self, snapshot: &Snapshot) -> Vec<Option<String>> {
        topology::wait_labels(snapshot, (&self.topology, self.least_label_px()))
    }

    /// What the twin's picture beside this one shows that its rows
    /// follow (see `Beside`).
    pub fn draw_beside(&mut self, beside: Beside) {
        self.topology.beside = beside;
    }

    /// The longest queue of the run so far, which sets how finely the
    /// topology draws queues (see `Surface`).
    pub fn queues_seen(&mut self, longest: u32) {
        self.topology.longest_queue = longest;
    }

    pub fn topology_canvas(&self) -> &HtmlCanvasElement {
        &self.topology.canvas
    }

    /// Every canvas, the topology's first, with the name of what it shows.
    pub fn elements(&self) -> Vec<(HtmlCanvasElement, String)> {
        let charts = self.slots.iter().map(|s| (s.surface.canvas.clone(), s.chart.key().to_string()));
        std::iter::once((self.topology.canvas.clone(), "topology".to_string())).chain(charts).collect()
    }

    /// Whether a chart still waits to be redrawn.
    pub fn pending(&self) -> bool {
        self.turns.pending()
    }

    /// Settings are about to change from `before` to `after` (both in
    /// words): live (the simulation goes on), or starting over.
    pub fn settings_changing(&mut self, sim: &Simulation, before: &str, after: &str, live: bool) {
        self.each(|figure| figure.settings_changing(sim, before, after, live));
        if !live {
            self.restarted();
        }
    }

    /// Keeps what the figures show now as the baseline, named by `words`.
    pub fn pin(&mut self, sim: &Simulation, words: &str) {
        self.each(|figure| figure.pin(sim, words));
    }

    /// Compare mode: the view's run is drawn beside its twin, each named
    /// by its side, in a view of `kind`.
    pub fn compare_with(&mut self, sides: &Sides, kind: Kind) {
        self.each(|figure| figure.compare_with(sides, kind));
    }

    /// The sentences were rewritten from `sim` as it is now.
    pub fn words_said(&mut self, sim: &Simulation) {
        self.each(|figure| figure.words_said(sim));
    }

    /// The simulation starts over.
    pub fn restarted(&mut self) {
        self.each(|figure| figure.restarted());
    }

    /// Fits what is shown to what `sim` runs (and, when its topology is
    /// drawn beside, `twin`), on a topology of `servers`: the legend lists
    /// the marks either can draw, and each figure shows or hides itself.
    pub fn show_for(&mut self, (sim, twin): (&Simulation, Option<&Simulation>), servers: usize) {
        let compact = servers > topology::COMPACT_ABOVE;
        let chooses = [Some(sim), twin].into_iter().flatten().find(|s| draws_decisions(s.scenario()));
        self.choice_words.set_text_content(chooses.map(|s| choice_words(s.scenario())));
        if let Some(chip) = self.choice_words.previous_element_sibling() {
            let _ = chip
                .class_list()
                .toggle_with_force("solid", chooses.is_some_and(|s| choice_solid(s.scenario())));
        }
        for (mark, item) in &self.legend {
            let drawn = [Some(sim), twin].into_iter().flatten().any(|s| mark.drawn(s.scenario(), compact));
            item.set_hidden(!drawn);
            if *mark == Mark::Choice {
                self.choice.0 = drawn;
            }
            if *mark == Mark::Handshake {
                self.handshake = (drawn, drawn);
            }
        }
        self.show_choice(self.choice.1);
        self.show_handshake((sim, twin));
        self.each(|figure| figure.show_for(sim));
    }

    /// Lists the choice's entry only while the picture draws a choice
    /// (`drawn`): running, a choice is held until the next replaces it
    /// (see `lbsim::ui::marks::decision_ink`), so the entry stays; paused,
    /// one is drawn only beside rows as it met them. Its room stays, so
    /// that nothing else moves.
    fn show_choice(&mut self, drawn: bool) {
        self.choice.1 = drawn;
        if let Some((_, item)) = self.legend.iter().find(|(mark, _)| *mark == Mark::Choice) {
            let _ = item.class_list().toggle_with_force("unseen", self.choice.0 && !drawn);
        }
    }

    /// Lists a request waiting for its handshake only while one can still
    /// be drawn: without an idle timeout every connection is warm a few
    /// seconds in, before the chapters past their warm-up are read, and
    /// chapters 5 and 6 listed a mark their reader never saw.
    fn show_handshake(&mut self, (sim, twin): (&Simulation, Option<&Simulation>)) {
        let listed =
            self.handshake.0 && [Some(sim), twin].into_iter().flatten().any(|s| s.handshakes_to_come());
        if listed != self.handshake.1 {
            self.handshake.1 = listed;
            if let Some((_, item)) = self.legend.iter().find(|(mark, _)| *mark == Mark::Handshake) {
                item.set_hidden(!listed);
                self.legend_changed = true;
            }
        }
    }

    /// Whether the legend's entries changed since the last call: a folded
    /// legend may fit again (see `lbsim::ui::fit::Fitting::retry_due`).
    pub fn take_legend_changed(&mut self) -> bool {
        std::mem::take(&mut self.legend_changed)
    }

    /// How a chart on `surface` is drawn in this view: in its colours, at
    /// the surface's density, its text sized for the surface's width and,
    /// in the presenter view, for a room.
    pub fn chart_style(&self, surface: &Surface) -> ChartStyle {
        ChartStyle {
            palette: self.palette.charts(),
            scale: surface.scale,
            type_scale: ChartStyle::type_scale_for(surface.width, self.presenting),
        }
    }

    /// Canvas `index` of [`Canvases::elements`] (the topology, then each
    /// chart): as it is drawn, or, for a chart with no room on the page
    /// (its tab not shown), drawn afresh on a canvas of its own, as large
    /// as the largest chart shown and at least [`PICTURE_LEAST`].
    pub fn picture(
        &mut self,
        index: usize,
        (sim, twin): (&Simulation, Option<&Simulation>),
        snapshot: &Snapshot,
        decision: Option<&Decision>,
    ) -> Result<HtmlCanvasElement, JsValue> {
        let Some(chart) = index.checked_sub(1) else { return Ok(self.topology.canvas.clone()) };
        let shown = self.slots.iter().filter(|slot| has_room(slot)).map(|slot| &slot.surface);
        let (width, height) = picture_size(shown.map(|s| (s.width, s.height)));
        let slot = self.slots.get(chart).ok_or_else(|| JsValue::from_str("no such chart"))?;
        if has_room(slot) {
            return Ok(slot.surface.canvas.clone());
        }
        let scale = dom::window().device_pixel_ratio().max(1.0);
        self.chart_drawn(chart, (sim, twin), snapshot, decision, (width, height, scale))
    }

    /// Chart `chart` (an index into the charts) drawn afresh on a canvas
    /// of its own, `width` × `height` CSS px at `scale` pixels to one.
    pub fn chart_drawn(
        &mut self,
        chart: usize,
        (sim, twin): (&Simulation, Option<&Simulation>),
        snapshot: &Snapshot,
        decision: Option<&Decision>,
        (width, height, scale): (f64, f64, f64),
    ) -> Result<HtmlCanvasElement, JsValue> {
        let mut surface = Surface::new(dom::create("canvas", "")?)?;
        surface.scale = scale;
        (surface.width, surface.height) = (width, height);
        surface.canvas.set_width((width * surface.scale).round() as u32);
        surface.canvas.set_height((height * surface.scale).round() as u32);
        let style = self.chart_style(&surface);
        let slot = self.slots.get_mut(chart).ok_or_else(|| JsValue::from_str("no such chart"))?;
        draw_figure(
            slot.chart,
            slot.figure.as_mut(),
            &surface,
            &Frame { sim, twin, snapshot, decision, style: &style },
        );
        Ok(surface.canvas)
    }

    /// Draws another simulation's topology (compare mode's twin) on
    /// `surface`, in this view's colours, with its servers' `bounces`
    /// marked as this view marks its own: chapter 4 compares bouncing.
    pub fn draw_topology_on(&self, snapshot: &Snapshot, surface: &Surface, bounces: &[BounceMark]) {
        let focus = Focus { bounces, ..Focus::default() };
        topology::draw(snapshot, focus, (surface, self.least_label_px()), &self.palette);
        self.ask_picture_height(surface, (snapshot, snapshot.servers.len()));
    }

    /// Tells the view's fitting how tall `surface` must be for its picture
    /// of `rows` servers to read (see `topology::least_height`), and where
    /// `snapshot` draws queues' waits on a phone, for its rows to hold
    /// them (see `WaitBand::least_row_h`); a presenter's rows stay as its
    /// screen allows.
    fn ask_picture_height(&self, surface: &Surface, (snapshot, rows): (&Snapshot, usize)) {
        let px = self.least_label_px();
        let waits = !self.presenting && waits_over_timeout(snapshot).is_some();
        let row_h = waits.then(|| WaitBand::least_row_h(px, surface.width)).flatten();
        surface.ask_least_height(topology::least_height(rows, px, row_h));
    }

    /// The picture's width (CSS px).
    pub fn picture_width(&self) -> f64 {
        self.topology.width
    }

    /// How wide `text` is in `font` (CSS px) as the picture measures it.
    pub fn picture_text_width(&self, font: &str, text: &str) -> Option<f64> {
        let context = &self.topology.context;
        context.save();
        context.set_font(font);
        let width = topology::text_width(context, font, text);
        context.restore();
        width
    }

    /// The least size of the picture's labels: in the presenter view, read
    /// from the back of the room on this screen.
    fn least_label_px(&self) -> f64 {
        let window = dom::window();
        let px = |size: Result<JsValue, JsValue>| size.ok().and_then(|px| px.as_f64()).unwrap_or(0.0);
        let screen = room_screen_height(px(window.inner_width()), px(window.inner_height()));
        least_label_px(self.presenting, screen)
    }

    /// Draws the topology, and one chart when one is due; returns what the
    /// topology drew that the page places by.
    pub fn draw(
        &mut self,
        (sim, twin): (&Simulation, Option<&Simulation>),
        snapshot: &Snapshot,
        focus: Focus,
        now_ms: f64,
        running: bool,
    ) -> topology::Drawn {
        self.topology.fit();
        let drawn = topology::draw(snapshot, focus, (&self.topology, self.least_label_px()), &self.palette);
        // The rows the run will hold, from its start: a server joining at
        // 10 s folded a 640 × 400 embed's controls then.
        let rows = snapshot.servers.len().max(sim.scenario().most_servers() as usize);
        self.ask_picture_height(&self.topology, (snapshot, rows));
        if drawn.decision.is_some() != self.choice.1 {
            self.show_choice(drawn.decision.is_some());
        }
        self.show_handshake((sim, twin));
        self.draw_due_chart((sim, twin), snapshot, focus, now_ms, running);
        self.heading = drawn.heading;
        drawn
    }

    /// Where the topology last headed the column beside its rows (x, y, w,
    /// h, CSS px), if it did.
    pub fn heading(&self) -> Option<[f64; 4]> {
        self.heading
    }

    /// Draws one chart if one is due (see [`ChartTurns::due`]). A figure
    /// with no room (hidden, or folded away) is not drawn until it has
    /// some: its size changing then makes it due.
    fn draw_due_chart(
        &mut self,
        (sim, twin): (&Simulation, Option<&Simulation>),
        snapshot: &Snapshot,
        focus: Focus,
        now_ms: f64,
        running: bool,
    ) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.surface.fit() || slot.figure.gliding(now_ms) {
                self.turns.redraw(index);
            }
        }
        let room: Vec<bool> = self.slots.iter().map(has_room).collect();
        let Some(index) = self.turns.due(&room, now_ms, running) else { return };
        let style = self.chart_style(&self.slots[index].surface);
        let slot = &mut self.slots[index];
        let frame = Frame { sim, twin, snapshot, decision: focus.decision, style: &style };
        draw_figure(slot.chart, slot.figure.as_mut(), &slot.surface, &frame);
    }
}

/// Whether a slot's canvas has room on the page now.
fn has_room(slot: &Slot) -> bool {
    slot.surface.width > 0.0 && slot.surface.height > 0.0
}

/// Draws `figure`, the view's `chart`, on `surface`, saying why in the
/// console if it cannot.
fn draw_figure(chart: Chart, figure: &mut dyn Figure, surface: &Surface, frame: &Frame) {
    let Some(backend) = Canvas::on(surface.canvas.clone()) else { return };
    let area = backend.into_drawing_area();
    let drawn = figure.draw(&area, frame);
    if let Err(error) = drawn.and_then(|()| area.present().map_err(Into::into)) {
        web_sys::console::warn_1(&JsValue::from_str(&format!("{} chart: {error}", chart.key())));
    }
}
