//! How a view looks, as opposed to what it simulates: which controls,
//! charts and readouts it shows, a caption, its height, whether it starts playing, and
//! its colour theme. These come in the same `key=value` entries as the
//! scenario's fields (see `hash`), and a bad value is refused the same way,
//! with an error naming the entry and what it allows.

use super::controls::CONTROLS;
use super::readouts::Readout;
use super::spread::MOST_SEEDS;
use super::twins;
use crate::charts::{self, Drawer, SeriesMetric};
use crate::explain::Readback;
use crate::number;
use crate::trace::replay::{unnamed_classes, SPEEDS};
use crate::ScenarioError;

/// What kind of page a view is the heart of; it sets the view's defaults and
/// its chrome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The laboratory: every control, every chart, and the sharing tools.
    Lab,
    /// An embed: one simulation with few controls, for a post or a slide.
    Embed,
}

impl Kind {
    /// The kind named by a root's `data-lbsim` attribute.
    pub fn from_name(name: &str) -> Option<Kind> {
        match name {
            "lab" => Some(Kind::Lab),
            "embed" => Some(Kind::Embed),
            _ => None,
        }
    }
}

/// A chart a view can show beside its topology, as links name it: one of
/// the charts registry's (`charts::CHARTS`) that views draw. Its figure, which
/// draws it, is a file in `web/figures`, found there by the chart's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chart {
    key: &'static str,
    tab_label: &'static str,
}

/// How many charts a view can show.
const IN_VIEWS: usize = Drawer::Views.count();

impl Chart {
    /// The percentile chart, an embed's one chart.
    pub const PERCENTILES: Chart = Chart::of(&charts::PERCENTILES);

    /// Every chart a view can show, in the registry's order.
    pub const ALL: &'static [Chart] = &{
        let descriptors = Drawer::Views.charts::<IN_VIEWS>();
        let mut all = [Chart::PERCENTILES; IN_VIEWS];
        let mut i = 0;
        while i < IN_VIEWS {
            all[i] = Chart::of(descriptors[i]);
            i += 1;
        }
        all
    };

    /// The chart `descriptor` describes, which views must draw (else the
    /// build stops here).
    const fn of(descriptor: &'static charts::Descriptor) -> Chart {
        let Some(tab_label) = descriptor.tab_label else { panic!("a chart views draw has a tab label") };
        Chart { key: descriptor.key, tab_label }
    }

    pub fn named(key: &str) -> Option<Chart> {
        Chart::ALL.iter().copied().find(|chart| chart.key == key)
    }

    /// Its name in links (`charts=`).
    pub fn key(self) -> &'static str {
        self.key
    }

    /// Its name on a tab, when a view shows one chart at a time.
    pub fn tab_label(self) -> &'static str {
        self.tab_label
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Follows the system's light or dark setting.
    Auto,
    Light,
    Dark,
}

impl Theme {
    const NAMES: [(&'static str, Theme); 3] =
        [("auto", Theme::Auto), ("light", Theme::Light), ("dark", Theme::Dark)];

    pub fn name(self) -> &'static str {
        Theme::NAMES.iter().find(|(_, t)| *t == self).map_or("auto", |(n, _)| n)
    }
}

pub const CONTROLS_KEY: &str = "controls";
pub const CHARTS_KEY: &str = "charts";
pub const CAPTION_KEY: &str = "caption";
pub const HEIGHT_KEY: &str = "height";
pub const AUTOPLAY_KEY: &str = "autoplay";
pub const THEME_KEY: &str = "theme";
pub const VERSUS_KEY: &str = "versus";
pub const REFERENCE_KEY: &str = "reference";
pub const SAY_KEY: &str = "say";
pub const PRESENTER_KEY: &str = "presenter";
pub const METRIC_KEY: &str = "metric";
pub const TRACE_KEY: &str = "trace";
pub const TRACE_SPEED_KEY: &str = "trace_speed";
pub const TRACE_LOOP_KEY: &str = "trace_loop";
pub const TRACE_COLUMNS_KEY: &str = "trace_columns";
pub const TRACE_CLASSES_KEY: &str = "trace_classes";
pub const ASK_KEY: &str = "ask";
pub const QUESTION_KEY: &str = "question";
pub const FIRST_KEY: &str = "first";
pub const READOUTS_KEY: &str = "readouts";
pub const SEEDS_KEY: &str = "seeds";
/// Every option's key, in the order links write them.
pub const KEYS: [&str; 21] = [
    CONTROLS_KEY,
    CHARTS_KEY,
    READOUTS_KEY,
    CAPTION_KEY,
    HEIGHT_KEY,
    AUTOPLAY_KEY,
    THEME_KEY,
    VERSUS_KEY,
    REFERENCE_KEY,
    SAY_KEY,
    PRESENTER_KEY,
    METRIC_KEY,
    TRACE_KEY,
    TRACE_SPEED_KEY,
    TRACE_LOOP_KEY,
    TRACE_COLUMNS_KEY,
    TRACE_CLASSES_KEY,
    ASK_KEY,
    QUESTION_KEY,
    FIRST_KEY,
    SEEDS_KEY,
];

const HEIGHT_MIN: u32 = 240;
const HEIGHT_MAX: u32 = 4000;
const CAPTION_MAX_CHARS: usize = 200;
/// The longest trace file name, and column mapping or class list.
const TRACE_TEXT_MAX_CHARS: usize = 200;

/// A trace a view replays, as its link names it: the file's name, its
/// size and its 64-bit FNV-1a hash (16 hexadecimal digits), by which the
/// lab knows a file someone chooses is the one the link means.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceNeed {
    pub name: String,
    pub bytes: u64,
    pub hash: String,
}

impl TraceNeed {
    /// From its text in links, `name:bytes:hash`; the name may hold `:`.
    fn parse(text: &str) -> Option<TraceNeed> {
        let mut parts = text.rsplitn(3, ':');
        let (hash, bytes, name) = (parts.next()?, parts.next()?, parts.next()?);
        let hex = hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        let fits = !name.is_empty() && name.chars().count() <= TRACE_TEXT_MAX_CHARS;
        let bytes = bytes.parse().ok()?;
        (hex && fits).then(|| TraceNeed { name: name.to_string(), bytes, hash: hash.into() })
    }

    pub fn text(&self) -> String {
        format!("{}:{}:{}", self.name, self.bytes, self.hash)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Keys of the controls shown, in the order given.
    pub controls: Vec<&'static str>,
    pub charts: Vec<Chart>,
    /// The readouts shown over the picture, in the strip's order.
    pub readouts: Vec<Readout>,
    pub caption: String,
    /// The view's height in CSS pixels; `None` fills what the page gives.
    pub height: Option<u32>,
    pub autoplay: bool,
    pub theme: Theme,
    /// The settings in which a twin simulation differs from the view's
    /// (field key and value): the twin runs beside it, drawn, on the same
    /// seed, and the view's sentences compare the two.
    pub versus: Vec<(&'static str, String)>,
    /// The settings of a third run beside a twin, on the same arrivals and
    /// not drawn: its p99 stands beside the two pictures' (see `gain`).
    pub reference: Vec<(&'static str, String)>,
    /// The sentences that read the numbers back under the view.
    pub say: Readback,
    /// The presenter view, for a projector: large type, strong contrast,
    /// the settings folded away behind one key.
    pub presenter: bool,
    /// The time the percentile chart plots.
    pub metric: SeriesMetric,
    /// The trace the lab replays instead of making requests, and how: at
    /// what speed, looped or not, its columns mapped and classes named as
    /// `lbsim run --trace` takes them.
    pub trace: Option<TraceNeed>,
    pub trace_speed: f64,
    pub trace_loop: bool,
    pub trace_columns: String,
    pub trace_classes: String,
    /// Whether a view with a twin asks the reader to guess the outcome
    /// before it runs (see `guess`), and in which words (empty: the plain
    /// question of which tail is longer).
    pub ask: bool,
    pub question: String,
    /// Whether the view opens with one request's trip at a pace a reader
    /// can follow (`first=one`, see `opening`) rather than all at once.
    pub one_first: bool,
    /// How many seeds a view with a twin runs its comparison on, headless,
    /// once the reader has answered, drawing each seed's p99 ratio as a
    /// dot (`seeds=20`, see `spread`); 0: none.
    pub seeds: u32,
}

impl Options {
    pub fn defaults(kind: Kind) -> Options {
        let (controls, charts) = match kind {
            Kind::Lab => (CONTROLS.iter().map(|c| c.key).collect(), Chart::ALL.to_vec()),
            Kind::Embed => (vec!["policy"], vec![Chart::PERCENTILES]),
        };
        Options {
            controls,
            charts,
            readouts: Readout::ALL.to_vec(),
            caption: String::new(),
            height: None,
            autoplay: true,
            theme: Theme::Auto,
            versus: Vec::new(),
            reference: Vec::new(),
            say: Readback::default(),
            presenter: false,
            metric: SeriesMetric::QueueTime,
            trace: None,
            trace_speed: 1.0,
            trace_loop: true,
            trace_columns: String::new(),
            trace_classes: String::new(),
            ask: false,
            question: String::new(),
            one_first: false,
            seeds: 0,
        }
    }

    /// The classes a trace is read with for a scenario of `classes`
    /// request classes: as the options name them, comma-separated, or
    /// else as the command line reads a trace without `--trace-classes`
    /// ([`unnamed_classes`]).
    pub fn trace_classes_for(&self, classes: usize) -> String {
        match self.trace_classes.trim() {
            "" => unnamed_classes(classes).join(","),
            named => named.to_string(),
        }
    }

    /// Whether `key` names an option rather than a scenario field.
    pub fn has(key: &str) -> bool {
        KEYS.contains(&key)
    }

    /// The option `key` as text that [`Options::set`] accepts back.
    pub fn text(&self, key: &str) -> String {
        match key {
            CONTROLS_KEY => list_text(&self.controls, CONTROLS.len()),
            CHARTS_KEY => {
                list_text(&self.charts.iter().map(|c| c.key()).collect::<Vec<_>>(), Chart::ALL.len())
            }
            // All six in another order is a list of its own.
            READOUTS_KEY => match self.readouts == Readout::ALL {
                true => "all".to_string(),
                false => list_text(&self.readouts.iter().map(|r| r.key()).collect::<Vec<_>>(), usize::MAX),
            },
            CAPTION_KEY => self.caption.clone(),
            HEIGHT_KEY => self.height.map_or_else(|| "auto".to_string(), |h| h.to_string()),
            AUTOPLAY_KEY => if self.autoplay { "1" } else { "0" }.to_string(),
            THEME_KEY => self.theme.name().to_string(),
            VERSUS_KEY => twins::settings_text(&self.versus),
            REFERENCE_KEY => twins::settings_text(&self.reference),
            SAY_KEY => self.say.text(),
            PRESENTER_KEY => if self.presenter { "1" } else { "0" }.to_string(),
            METRIC_KEY => self.metric.key().to_string(),
            TRACE_KEY => self.trace.as_ref().map_or_else(|| "none".to_string(), TraceNeed::text),
            TRACE_SPEED_KEY => self.trace_speed.to_string(),
            TRACE_LOOP_KEY => if self.trace_loop { "1" } else { "0" }.to_string(),
            TRACE_COLUMNS_KEY => self.trace_columns.clone(),
            TRACE_CLASSES_KEY => self.trace_classes.clone(),
            ASK_KEY => if self.ask { "1" } else { "0" }.to_string(),
            QUESTION_KEY => self.question.clone(),
            FIRST_KEY => if self.one_first { "one" } else { "all" }.to_string(),
            SEEDS_KEY => self.seeds.to_string(),
            _ => String::new(),
        }
    }

    /// Changes one option; on error nothing changes.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), ScenarioError> {
        let key = KEYS
            .iter()
            .copied()
            .find(|k| *k == key)
            .ok_or_else(|| ScenarioError::UnknownField { field: key.to_string(), suggestion: None })?;
        let bad = |allowed: String| ScenarioError::BadValue { field: key, value: text.to_string(), allowed };
        let text = text.trim();
        match key {
            CONTROLS_KEY => {
                let keys: Vec<&'static str> = CONTROLS.iter().map(|c| c.key).collect();
                self.controls = parse_list(text, &keys).ok_or_else(|| bad(list_allowed(&keys)))?;
            }
            CHARTS_KEY => {
                let keys: Vec<&'static str> = Chart::ALL.iter().map(|c| c.key).collect();
                let chosen = parse_list(text, &keys).ok_or_else(|| bad(list_allowed(&keys)))?;
                self.charts = chosen.iter().filter_map(|key| Chart::named(key)).collect();
            }
            READOUTS_KEY => {
                let keys = Readout::keys();
                let chosen = parse_list(text, &keys).ok_or_else(|| bad(list_allowed(&keys)))?;
                self.readouts = Readout::of_keys(&chosen);
            }
            CAPTION_KEY if text.chars().count() <= CAPTION_MAX_CHARS => self.caption = text.to_string(),
            QUESTION_KEY if text.chars().count() <= CAPTION_MAX_CHARS => self.question = text.to_string(),
            CAPTION_KEY | QUESTION_KEY => {
                return Err(bad(format!("text of at most {CAPTION_MAX_CHARS} characters")))
            }
            HEIGHT_KEY if text == "auto" => self.height = None,
            HEIGHT_KEY => match text.parse::<u32>() {
                Ok(h) if (HEIGHT_MIN..=HEIGHT_MAX).contains(&h) => self.height = Some(h),
                _ => return Err(bad(format!("\"auto\" or whole pixels from {HEIGHT_MIN} to {HEIGHT_MAX}"))),
            },
            VERSUS_KEY => self.versus = twins::parse_versus(VERSUS_KEY, text)?,
            REFERENCE_KEY => self.reference = twins::parse_versus(REFERENCE_KEY, text)?,
            SAY_KEY => {
                self.say = Readback::parse(text).ok_or_else(|| {
                    bad(format!("\"none\" or a comma-separated list of {}", Readback::names().join(", ")))
                })?
            }
            AUTOPLAY_KEY => match text {
                "1" => self.autoplay = true,
                "0" => self.autoplay = false,
                _ => return Err(bad("0 (start paused) or 1 (start playing)".to_string())),
            },
            METRIC_KEY => {
                let keys = SeriesMetric::ALL.map(SeriesMetric::key);
                self.metric = SeriesMetric::ALL.into_iter().find(|m| m.key() == text).ok_or_else(|| {
                    bad(format!("one of {} (what the percentile chart plots)", keys.join(", ")))
                })?;
            }
            TRACE_KEY if text == "none" || text.is_empty() => self.trace = None,
            TRACE_KEY => self.trace = Some(TraceNeed::parse(text).ok_or_else(|| {
                bad("\"none\", or the trace's file name, size in bytes and FNV-1a hash as name:bytes:hash \
                         (on-off.csv:338928:ad0ba2568b68dd70), as lbsim trace prints them"
                    .to_string())
            })?),
            TRACE_SPEED_KEY => {
                let (slowest, fastest) = SPEEDS;
                self.trace_speed =
                    number::parse(text).filter(|k| (slowest..=fastest).contains(k)).ok_or_else(|| {
                        bad(format!(
                            "a number from {slowest} to {fastest} (what the trace's times are divided by)"
                        ))
                    })?;
            }
            TRACE_LOOP_KEY => match text {
                "1" => self.trace_loop = true,
                "0" => self.trace_loop = false,
                _ => {
                    return Err(bad("0 (play the trace once) or 1 (play it again when it ends)".to_string()))
                }
            },
            TRACE_COLUMNS_KEY | TRACE_CLASSES_KEY if text.chars().count() > TRACE_TEXT_MAX_CHARS => {
                return Err(bad(format!("text of at most {TRACE_TEXT_MAX_CHARS} characters")))
            }
            TRACE_COLUMNS_KEY => self.trace_columns = text.to_string(),
            TRACE_CLASSES_KEY => self.trace_classes = text.to_string(),
            FIRST_KEY => match text {
                "one" => self.one_first = true,
                "all" => self.one_first = false,
                _ => return Err(bad(
                    "all (every request from the start) or one (one request's trip at a walking pace first)"
                        .to_string(),
                )),
            },
            SEEDS_KEY => {
                self.seeds =
                    text.parse().ok().filter(|n| *n == 0 || (2..=MOST_SEEDS).contains(n)).ok_or_else(
                        || bad(format!("0 (no spread) or a whole number of seeds from 2 to {MOST_SEEDS}")),
                    )?
            }
            ASK_KEY => match text {
                "1" => self.ask = true,
                "0" => self.ask = false,
                _ => return Err(bad("0 (no question) or 1 (ask for a guess before the run)".to_string())),
            },
            PRESENTER_KEY => match text {
                "1" => self.presenter = true,
                "0" => self.presenter = false,
                _ => return Err(bad("0 (the usual view) or 1 (the presenter view)".to_string())),
            },
            _ => {
                let names = Theme::NAMES.map(|(n, _)| n);
                self.theme = Theme::NAMES
                    .iter()
                    .find(|(n, _)| *n == text)
                    .map(|(_, t)| *t)
                    .ok_or_else(|| bad(format!("one of {}", names.join(", "))))?;
            }
        }
        Ok(())
    }

    /// `(key, text)` for every option that differs from `defaults`.
    pub fn entries(&self, defaults: &Options) -> Vec<(&'static str, String)> {
        KEYS.iter().filter(|k| self.text(k) != defaults.text(k)).map(|k| (*k, self.text(k))).collect()
    }
}

/// What the twin of a view with `versus` differs by, for people: the
/// policy's name alone, or "key = value" pairs.
pub fn versus_label(versus: &[(&str, String)]) -> String {
    match versus {
        [("policy", policy)] => policy.clone(),
        pairs => pairs.iter().map(|(key, value)| format!("{key} = {value}")).collect::<Vec<_>>().join(", "),
    }
}

/// "all", "none", or the names joined by commas.
fn list_text(names: &[&str], all: usize) -> String {
    match names.len() {
        0 => "none".to_string(),
        n if n == all => "all".to_string(),
        _ => names.join(","),
    }
}

/// The names in a comma-separated `text` ("all" and "none" included), each
/// once, in the order given; `None` when one is not among `known`.
fn parse_list(text: &str, known: &[&'static str]) -> Option<Vec<&'static str>> {
    match text {
        "all" => return Some(known.to_vec()),
        "none" | "" => return Some(Vec::new()),
        _ => {}
    }
    let mut chosen = Vec::new();
    for name in text.split(',').map(str::trim) {
        let known = *known.iter().find(|k| **k == name)?;
        if !chosen.contains(&known) {
            chosen.push(known);
        }
    }
    Some(chosen)
}

fn list_allowed(known: &[&str]) -> String {
    format!("\"all\", \"none\", or a comma-separated list of {}", known.join(", "))
}

#[cfg(test)]
mod tests;
