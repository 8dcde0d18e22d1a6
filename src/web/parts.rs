//! What a view is made of, built inside its root: the notice area, a
//! caption, the sentences that read the numbers back, the stage (readouts, topology and its legend, transport), the
//! lab's settings panel or an embed's few controls, and the charts. Each
//! module builds its own elements into the containers made here.

use super::canvases::Canvases;
use super::capacity_panel::CapacityPanel;
use super::controls::{Controls, Placement};
use super::decision_caption::DecisionCaption;
use super::dom::{self, Ids};
use super::event_log::EventLog;
use super::fit::Fit;
use super::gain_bars::GainBars;
use super::lab::{Lab, LabOnly};
use super::membership_tools::MembershipTools;
use super::narration::Narration;
use super::notice::Notices;
use super::options::{Chart, Kind, Options, Theme, VERSUS_KEY};
use super::preset_picker::PresetPicker;
use super::question::QuestionBox;
use super::readouts::Readouts;
use super::share::Share;
use super::spread_chart::SpreadChart;
use super::take_away::TakeAway;
use super::trace_panel::{RateStrip, TracePanel};
use super::transport::Transport;
use super::twin_pane::{title_tag, CompareForm, TwinPane};
use super::twins::PRESET_KEY;
use lbsim::ui::bounces::BounceMarks;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

pub struct Parts {
    pub notices: Notices,
    pub narration: Narration,
    pub readouts: Readouts,
    pub canvases: Canvases,
    /// The sentence reading out the decision drawn on the topology.
    pub decision: DecisionCaption,
    /// The servers the picture marks as having bounced a request.
    pub bounces: BounceMarks,
    /// The twin's picture (and in the lab its readouts), when the options
    /// name a twin.
    pub twin_pane: Option<TwinPane>,
    /// The three runs' p99 under the pictures, when the options name a
    /// third run beside a twin.
    pub gain: Option<GainBars>,
    /// Each seed's p99 ratio of the two runs under the pictures, when the
    /// options name a number of seeds beside a twin.
    pub spread: Option<SpreadChart>,
    pub transport: Transport,
    pub event_log: EventLog,
    pub take_away: TakeAway,
    /// The lab's "Copy embed code".
    pub share: Option<LabOnly<Share>>,
    /// The lab's capacity search.
    pub capacity: Option<LabOnly<CapacityPanel>>,
    /// The lab's servers joining and leaving.
    pub membership: Option<LabOnly<MembershipTools>>,
    /// The lab's trace box, and the trace's rate under the percentile chart.
    pub trace_panel: Option<LabOnly<TracePanel>>,
    pub rate_strip: Option<LabOnly<RateStrip>>,
    /// The lab's compare form and presets.
    pub compare_form: Option<LabOnly<CompareForm>>,
    pub presets: Option<LabOnly<PresetPicker>>,
    pub controls: Controls,
    /// The question asked before the run, when the link asks for one.
    pub question: Option<QuestionBox>,
    /// An embed's fitting into its box; the lab lays itself out.
    pub fit: Option<Fit>,
    /// An embed's tabs, one a chart, used when its charts are folded.
    pub chart_tabs: Vec<HtmlElement>,
}

impl Parts {
    /// Empties `root` and builds a view of `kind` with `options` in it.
    pub fn build(root: &HtmlElement, kind: Kind, options: &Options) -> Result<Parts, JsValue> {
        let ids = Ids::for_root(root);
        root.set_text_content(None);
        root.set_class_name(match kind {
            Kind::Lab => "lbsim-view lbsim-lab",
            Kind::Embed => "lbsim-view lbsim-embed",
        });
        apply_look(root, kind, options)?;
        let notices = Notices::build(root, &ids)?;
        let size_note = dom::text_child(root, "p", "size-note", "")?;
        size_note.set_hidden(true);
        let caption = dom::text_child(root, "p", "caption", &options.caption)?;
        caption.set_hidden(options.caption.is_empty());
        let layout: Element = dom::child(root, "div", "layout")?;
        // Landmarks named apart when a page holds several views.
        let named = |what: &str| match view_name(root, options) {
            Some(name) => format!("{what}: {name}"),
            None => what.to_string(),
        };
        let stage: Element = dom::child(&layout, "section", "stage")?;
        stage.set_attribute("aria-label", &named("Simulation"))?;
        // Only the lab's module has a lab: in lbsim-web a lab view stops here.
        let in_lab = match kind {
            Kind::Lab => Some(Lab::needed()?),
            Kind::Embed => None,
        };
        let panel = match in_lab {
            Some(_) => {
                let panel: Element = dom::child(&layout, "aside", "controls")?;
                dom::set_attributes(&panel, &[("id", &ids.of("controls")), ("aria-label", "Settings")])?;
                dom::text_child(&panel, "h2", "", "Settings")?;
                Some(panel)
            }
            None => None,
        };
        let figures: HtmlElement = dom::child(&layout, "section", "charts")?;
        dom::set_attributes(&figures, &[("id", &ids.of("charts")), ("aria-label", &named("Charts"))])?;
        figures.set_hidden(options.charts.is_empty());
        // Classes rather than `:has()` in the stylesheet: Chromium checks a
        // `:has()` again on every change inside the view, each frame.
        layout.class_list().toggle_with_force("no-charts", options.charts.is_empty())?;

        // A view with a twin draws both runs side by side: in the lab's
        // stage with their readouts, in an embed in the picture's place.
        let lab = kind == Kind::Lab;
        let split = !options.versus.is_empty();
        root.class_list().toggle_with_force("comparing", split)?;
        let (pane, panes, pictures) = match split {
            true => {
                let pictures: Element = match lab {
                    true => stage.clone(),
                    false => dom::child(&stage, "div", "pictures")?,
                };
                let panes: Element = dom::child(&pictures, "div", "panes")?;
                let pane: Element = dom::child(&panes, "div", "pane pane-a")?;
                let title = dom::text_child(&pane, title_tag(lab), "pane-title", "")?;
                (pane, Some((panes, title)), Some(pictures))
            }
            false => (stage.clone(), None, None),
        };
        // The readouts and the decision's caption are the own run's: beside
        // its picture in the lab's pane, in the stage's own cells in an embed.
        let own_cells = if lab { &pane } else { &stage };
        let readouts = Readouts::build(own_cells, &ids, &options.readouts)?;
        let canvases = Canvases::build(
            root,
            (&pane, &stage),
            &figures,
            (&options.charts, options.metric),
            options.presenter,
            &ids,
        )?;
        let decision = DecisionCaption::build(own_cells, &ids)?;
        let in_figures = in_lab.map(|lab| (lab, &figures));
        let capacity = LabOnly::build(in_figures, |figures| CapacityPanel::build(figures, &ids))?;
        let rate_strip = LabOnly::build(in_figures, |figures| RateStrip::build(figures, &ids))?;
        let twin_pane = panes
            .map(|(panes, own_title)| {
                TwinPane::build(&panes, &ids, own_title, lab.then_some(options.readouts.as_slice()))
            })
            .transpose()?;
        // Under both pictures, a third run's p99 beside theirs.
        let gain = match (&pictures, options.reference.is_empty()) {
            (Some(pictures), false) => {
                pictures.class_list().add_1("with-gain")?;
                Some(GainBars::build(pictures)?)
            }
            _ => None,
        };
        // Under them, how the comparison spreads over seeds.
        let spread = match (&pictures, options.seeds) {
            (Some(pictures), 1..) => {
                pictures.class_list().add_1("with-spread")?;
                Some(SpreadChart::build(pictures)?)
            }
            _ => None,
        };
        let transport = Transport::build(&stage, &ids, kind == Kind::Lab)?;
        let event_log = EventLog::build(&stage, &ids)?;
        // The sentences: in the lab under its picture; in an embed above it,
        // under its caption, where an explainer's reader looks first.
        let narration = match kind {
            Kind::Lab => Narration::build(&stage, kind, options)?,
            Kind::Embed => {
                let narration = Narration::build(root, kind, options)?;
                narration.place_before(&layout)?;
                narration
            }
        };
        // The question, under the sentences, before the picture it is about:
        // with a twin, which tail is longer; alone, where a slowed server's
        // queue will stand (see `lbsim::ui::guess`). A view alone with a
        // chart asks beside its picture, over the chart (under the picture
        // when stacked): above the picture it took the room the chart
        // needed beside it, and chapter 3 at 1440 × 900 folded its chart
        // behind a button.
        root.class_list().toggle_with_force("asks", options.ask)?;
        let question = match options.ask {
            true => {
                let question = QuestionBox::build(root, &ids, view_name(root, options))?;
                let beside = !split && !options.charts.is_empty();
                layout.class_list().toggle_with_force("asks-beside", beside)?;
                match beside {
                    true => question.place_before(&figures)?,
                    false => question.place_before(&layout)?,
                }
                Some(question)
            }
            false => None,
        };
        let placement = match &panel {
            Some(panel) => Placement::Grouped { transport: &transport.controls, panel },
            None => Placement::Flat(&transport.controls),
        };
        let controls = Controls::build(&options.controls, placement, &ids)?;
        // The lab's panel: the settings first, so the policy is in sight;
        // then presets, comparison and the sharing tools.
        let in_panel = in_lab.zip(panel.as_ref());
        let membership = LabOnly::build(in_panel, |panel| MembershipTools::build(panel, &ids))?;
        let trace_panel = LabOnly::build(in_panel, |panel| TracePanel::build(panel, &ids))?;
        let presets = LabOnly::build(in_panel, |panel| PresetPicker::build(panel, &ids))?;
        let versus = options.text(VERSUS_KEY);
        let versus_preset =
            options.versus.iter().find(|(key, _)| *key == PRESET_KEY).map(|(_, name)| name.as_str());
        let compare_form =
            LabOnly::build(in_panel, |panel| CompareForm::build(panel, &ids, &versus, versus_preset))?;
        let share = LabOnly::build(in_panel, |panel| Share::build(panel, &ids))?;
        // At the end of the lab's settings panel; in an embed's drawer.
        let drawer: Option<Element> = match kind {
            Kind::Lab => None,
            Kind::Embed => Some(drawer(&stage, &ids)?.into()),
        };
        let take_away = TakeAway::build(
            panel.as_ref().or(drawer.as_ref()).unwrap_or(root),
            &ids,
            canvases.elements(),
            drawer.is_some(),
        )?;
        if let Some(legend) = stage.query_selector(":scope > .legend")? {
            legend.set_id(&ids.of("legend"));
        }
        let chart_tabs = match kind {
            Kind::Embed if options.charts.len() > 1 => chart_tabs(&figures, &options.charts)?,
            _ => Vec::new(),
        };
        let fit = (kind == Kind::Embed).then(|| Fit::new(root));
        Ok(Parts {
            notices,
            narration,
            readouts,
            canvases,
            decision,
            bounces: BounceMarks::default(),
            twin_pane,
            gain,
            spread,
            transport,
            event_log,
            take_away,
            share,
            compare_form,
            membership,
            trace_panel,
            rate_strip,
            presets,
            capacity,
            controls,
            question,
            fit,
            chart_tabs,
        })
    }
}

/// An embed's drawer, opened by its "More" button: a panel over the
/// picture holding the downloads, and the controls once they are folded.
fn drawer(stage: &Element, ids: &Ids) -> Result<HtmlElement, JsValue> {
    let drawer: HtmlElement = dom::child(stage, "div", "drawer")?;
    dom::set_attributes(&drawer, &[("id", &ids.of("drawer")), ("role", "dialog"), ("aria-label", "More")])?;
    drawer.set_hidden(true);
    // The whole of the sentences, when only the first fits beside the picture.
    dom::child::<Element>(&drawer, "p", "said-in-full")?;
    Ok(drawer)
}

/// A tab a chart, first in `figures`: used when the charts are folded so
/// that one shows at a time.
fn chart_tabs(figures: &Element, charts: &[Chart]) -> Result<Vec<HtmlElement>, JsValue> {
    let row: HtmlElement = dom::create("div", "chart-tabs")?;
    dom::set_attributes(&row, &[("role", "tablist"), ("aria-label", "Charts")])?;
    figures.prepend_with_node_1(&row)?;
    charts
        .iter()
        .map(|chart| {
            let tab = dom::text_child(&row, "button", "quiet", chart.tab_label())?;
            dom::set_attributes(&tab, &[("type", "button"), ("role", "tab"), ("aria-selected", "false")])?;
            Ok(tab)
        })
        .collect()
}

/// What to call a view: its caption, or else the heading of the section of
/// the page it sits in (an explainer's).
pub fn view_name(root: &HtmlElement, options: &Options) -> Option<String> {
    if !options.caption.is_empty() {
        return Some(options.caption.clone());
    }
    let section = root.closest("section").ok().flatten()?;
    let heading = section.query_selector("h2, h3").ok().flatten()?.text_content()?;
    let heading = heading.split_whitespace().collect::<Vec<_>>().join(" ");
    (!heading.is_empty()).then_some(heading)
}

/// The options that change only how the view looks: its theme, height and
/// the presenter view.
pub fn apply_look(root: &HtmlElement, kind: Kind, options: &Options) -> Result<(), JsValue> {
    root.class_list().toggle_with_force("presenter", options.presenter)?;
    // The lab's page sets its own text aside while presenting.
    if kind == Kind::Lab {
        if let Some(body) = dom::document().body() {
            body.class_list().toggle_with_force("presenting", options.presenter)?;
        }
    }
    match options.theme {
        Theme::Auto => root.remove_attribute("data-theme")?,
        theme => root.set_attribute("data-theme", theme.name())?,
    }
    match options.height {
        Some(height) => root.style().set_property("height", &format!("{height}px"))?,
        None => root.style().remove_property("height").map(|_| ())?,
    }
    Ok(())
}
