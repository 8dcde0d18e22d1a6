//! Which of a view's elements report an edit or a press, and what each does.

use super::*;
use crate::figures::Input;
use crate::guess::Answer;
use crate::lab::LabOnly;
use crate::membership_tools::Ask;

impl View {
    /// Every element that reports an edit or a press, with its event and
    /// what it does to the view.
    pub fn targets(&self) -> Vec<(EventTarget, &'static str, Target)> {
        let mut targets: Vec<_> = self
            .parts
            .controls
            .inputs()
            .into_iter()
            .map(|(key, target, kind)| (target, kind, Target::Control(key)))
            .collect();
        let mut add =
            |element: &HtmlElement, kind, target| targets.push((element.clone().into(), kind, target));
        add(&self.parts.transport.play, "click", Target::Play);
        add(&self.parts.transport.step, "click", Target::Step);
        add(&self.parts.transport.reset, "click", Target::Reset);
        if let Some(present) = &self.parts.transport.present {
            add(present, "click", Target::Presenter);
        }
        if let Some(chart) = &self.parts.transport.chart {
            add(chart, "click", Target::Chart);
        }
        if let Some(key) = &self.parts.transport.key {
            add(key, "click", Target::Key);
        }
        if let Some(more) = &self.parts.transport.more {
            add(more, "click", Target::More);
        }
        for (index, tab) in self.parts.chart_tabs.iter().enumerate() {
            add(tab, "click", Target::ChartTab(index));
        }
        add(&self.parts.notices.dismiss, "click", Target::DismissNotices);
        for (button, answer) in self.parts.question.iter().flat_map(|question| &question.buttons) {
            add(button, "click", Target::Guess(*answer));
        }
        if let Some(button) = &self.parts.controls.new_seed {
            add(button, "click", Target::NewSeed);
        }
        if let Some(share) = &self.parts.share {
            add(&share.button, "click", share.target(LabTarget::CopyEmbedCode));
            add(share.size.unchecked_ref(), "change", share.target(LabTarget::CopyEmbedCode));
        }
        for (button, download) in &self.parts.take_away.buttons {
            add(button, "click", Target::Download(*download));
        }
        if let Some(form) = &self.parts.compare_form {
            add(&form.button, "click", form.target(LabTarget::Compare));
            add(&form.input, "change", form.target(LabTarget::Compare));
            add(&form.preset, "change", form.target(LabTarget::ComparePreset));
        }
        add(self.parts.canvases.topology_canvas(), "click", Target::Topology);
        add(self.parts.canvases.topology_canvas(), "keydown", Target::TopologyKey);
        if let Some(pane) = &self.parts.twin_pane {
            add(pane.canvas(), "click", Target::TwinTopology);
        }
        if let Some(panel) = &self.parts.capacity {
            add(&panel.button, "click", panel.target(LabTarget::Capacity));
        }
        for (element, input) in self.parts.canvases.inputs() {
            let target = match input {
                Input::PinBaseline => Target::PinBaseline,
                Input::Metric => Target::Metric,
            };
            add(&element, input.event(), target);
        }
        if let Some(presets) = &self.parts.presets {
            add(&presets.select, "change", presets.target(LabTarget::Preset));
        }
        if let Some(tools) = &self.parts.membership {
            for (button, ask) in &tools.buttons {
                add(button, "click", tools.target(LabTarget::Membership(*ask)));
            }
        }
        if let Some(panel) = &self.parts.trace_panel {
            add(panel.file.unchecked_ref(), "change", panel.target(LabTarget::TraceFile));
            for input in panel.settings_inputs() {
                add(input.unchecked_ref(), "change", panel.target(LabTarget::TraceSettings));
            }
            add(&panel.stop, "click", panel.target(LabTarget::TraceStop));
            add(&self.root, "dragover", panel.target(LabTarget::TraceDragged));
            add(&self.root, "drop", panel.target(LabTarget::TraceDropped));
        }
        targets
    }
}

/// What pressing or editing one of a view's elements does.
#[derive(Clone, Copy)]
pub enum Target {
    Control(&'static str),
    Play,
    Step,
    Reset,
    DismissNotices,
    NewSeed,
    Download(Download),
    Presenter,
    Settings,
    Metric,
    PinBaseline,
    /// A press or an edit of one of the lab's tools, with the proof that
    /// this module holds the lab: lbsim-web has no such target, so its
    /// build leaves out all that they do.
    Lab(LabOnly<LabTarget>),
    /// A click in the topology, at the event's point; a key pressed
    /// while it has the focus (its keyboard equivalents).
    Topology,
    TopologyKey,
    /// A click in the twin's picture.
    TwinTopology,
    /// An embed's folded legend, its drawer, and its charts' tabs.
    Chart,
    Key,
    More,
    ChartTab(usize),
    /// An answer to the view's question, or `None` to skip it.
    Guess(Option<Answer>),
}

impl Target {
    pub fn act(self, view: &mut View, event: &Event) {
        match self {
            Target::Topology => {
                if let Some(mouse) = event.dyn_ref::<MouseEvent>() {
                    view.clicked_topology((f64::from(mouse.offset_x()), f64::from(mouse.offset_y())));
                }
            }
            Target::TwinTopology => {
                if let Some(mouse) = event.dyn_ref::<MouseEvent>() {
                    view.clicked_twin((f64::from(mouse.offset_x()), f64::from(mouse.offset_y())));
                }
            }
            Target::TopologyKey => {
                if let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>() {
                    view.topology_key(&key.key());
                }
            }
            Target::Control(key) => view.control_changed(key),
            Target::Play => view.toggle_play(),
            Target::Step => view.step(!shift_held(event)),
            Target::Reset => view.reset(),
            Target::DismissNotices => view.dismiss_notices(),
            Target::NewSeed => view.new_seed(),
            Target::Download(what) => view.download(what),
            Target::Presenter => view.toggle_presenter(),
            Target::Settings => view.toggle_settings(),
            Target::Metric => view.metric_chosen(),
            Target::PinBaseline => view.pin_baseline(),
            Target::Lab(target) => target.act(view, event),
            Target::Chart => view.toggle_chart(),
            Target::Key => view.parts.fit.iter().for_each(|fit| fit.toggle_key()),
            Target::More => view.parts.fit.iter().for_each(|fit| fit.toggle_drawer()),
            Target::ChartTab(index) => view.show_chart_tab(index),
            Target::Guess(answer) => view.guessed(answer),
        }
    }
}

/// What pressing or editing one of the lab's tools does.
#[derive(Clone, Copy)]
pub enum LabTarget {
    CopyEmbedCode,
    Compare,
    ComparePreset,
    Preset,
    Capacity,
    Membership(Ask),
    /// The trace box: a file chosen, its settings edited, replaying
    /// stopped; and a file dragged over the lab or dropped on it.
    TraceFile,
    TraceSettings,
    TraceStop,
    TraceDragged,
    TraceDropped,
}

impl<T> LabOnly<T> {
    /// What a press or an edit of this part of the lab does.
    fn target(&self, target: LabTarget) -> Target {
        Target::Lab(self.with(target))
    }
}

impl LabTarget {
    fn act(self, view: &mut View, event: &Event) {
        match self {
            LabTarget::CopyEmbedCode => view.copy_embed_code(),
            LabTarget::Compare => view.compare_entered(),
            LabTarget::ComparePreset => view.compare_preset_chosen(),
            LabTarget::Preset => view.preset_chosen(),
            LabTarget::Capacity => view.find_capacity(),
            LabTarget::Membership(ask) => view.server_asked(ask),
            LabTarget::TraceFile => view.trace_file_chosen(),
            LabTarget::TraceSettings => view.trace_settings_changed(),
            LabTarget::TraceStop => view.trace_stopped(),
            LabTarget::TraceDragged => view.trace_dragged(event),
            LabTarget::TraceDropped => view.trace_dropped(event),
        }
    }
}

/// Whether Shift was held for `event`: a press of Step with it goes one
/// event on even where a plain press goes on to the next decision.
fn shift_held(event: &Event) -> bool {
    match (event.dyn_ref::<MouseEvent>(), event.dyn_ref::<web_sys::KeyboardEvent>()) {
        (Some(mouse), _) => mouse.shift_key(),
        (_, Some(key)) => key.shift_key(),
        _ => false,
    }
}
