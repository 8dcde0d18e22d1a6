//! Which settings have controls, where they sit, and how each edits and
//! shows its value. Names, ranges and choices come from the field table.

use super::params::{Params, SPEED_KEY};
use crate::format::{and_list, grouped, thousands};
use crate::scenario::{fields, BalancePer, Demand, FieldKind, PolicyKind};

/// Where a control sits on the page.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Transport,
    Routing,
    Load,
    Servers,
    Failures,
    Keys,
    Run,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::Transport => "",
            Group::Routing => "Routing",
            Group::Load => "Demand",
            Group::Servers => "Servers",
            Group::Failures => "When servers fail",
            Group::Keys => "Keys",
            Group::Run => "Run",
        }
    }
}

/// How a control edits its setting.
pub enum Widget {
    /// A drop-down of the field's names.
    Choice,
    /// A slider over these values (those the field accepts), plus the
    /// current value when it is not among them.
    Presets(&'static [&'static str]),
    /// A slider over the field's whole range in steps of this size.
    Steps(f64),
    /// A box for the seed (a whole number in the field's range), and a
    /// button that draws a new one.
    Seed,
}

/// What a control shows beside its label.
pub enum Show {
    /// Nothing: the input shows its value itself.
    Nothing,
    /// The value and its unit.
    Value(&'static str),
    /// What the chosen policy does.
    PolicyDescription,
    /// The load, and the request rate it means.
    OfferedLoad,
}

pub struct Control {
    pub key: &'static str,
    pub label: &'static str,
    pub group: Group,
    pub widget: Widget,
    pub show: Show,
}

impl Control {
    /// A slider's values, in order: the presets the field accepts, or the
    /// field's range in steps. `None` for a control that is not a slider, or
    /// whose steps do not fit its field's kind.
    pub fn ladder(&self) -> Option<Vec<String>> {
        match (&self.widget, fields::find(self.key).ok().map(|f| f.kind)) {
            (Widget::Presets(values), _) => {
                Some(values.iter().filter(|v| Params::accepts(self.key, v)).map(|v| v.to_string()).collect())
            }
            (Widget::Steps(step), Some(FieldKind::Number { min, max })) => {
                let scale = 1.0 / step;
                let (low, high) = ((min * scale).ceil() as i64, (max * scale).floor() as i64);
                Some((low..=high).map(|k| fields::format_number(k as f64 / scale)).collect())
            }
            _ => None,
        }
    }

    /// What the control shows beside its label under `params`.
    pub fn shown(&self, params: &Params) -> String {
        let text = readable(params.text(self.key));
        match self.show {
            Show::Nothing => String::new(),
            Show::Value(unit) if unit.is_empty() || text == "all" || text == "none" => text,
            Show::Value(unit) => format!("{text} {unit}"),
            Show::PolicyDescription => PolicyKind::from_name(&text).map_or("", |p| p.describe()).to_string(),
            Show::OfferedLoad if params.scenario.demand == Demand::Spike => {
                format!("{text} × capacity (for continuous demand)")
            }
            Show::OfferedLoad => {
                let rate = params.scenario.load * params.scenario.capacity_per_sec();
                format!("{text} × capacity ≈ {} req/s", thousands(rate.round() as u64))
            }
        }
    }
}

/// A setting's value as the label beside its control shows it: a whole
/// number grouped in threes ("1,000 clients", as the sentences write
/// counts), anything else as a link writes it.
fn readable(text: String) -> String {
    match text.parse::<f64>() {
        Ok(x) if x.fract() == 0.0 && x.abs() >= 1000.0 => grouped(x, 0),
        _ => text,
    }
}

/// The position of `text` on a slider's `ladder`; a value that is not on
/// it (one a link gave) is first put among the numbers in order, wherever
/// the words ("none", "all") sit.
pub fn rung(ladder: &mut Vec<String>, text: String) -> usize {
    if let Some(index) = ladder.iter().position(|v| *v == text) {
        return index;
    }
    let number = |v: &str| v.parse::<f64>().ok();
    let index = match number(&text) {
        Some(value) => {
            ladder.iter().position(|v| number(v).is_some_and(|n| n > value)).unwrap_or_else(|| {
                ladder.iter().rposition(|v| number(v).is_some()).map_or(ladder.len(), |last| last + 1)
            })
        }
        None => ladder.len(),
    };
    ladder.insert(index, text);
    index
}

/// Why control `key` has no effect under `params`, when it has none:
/// whether a policy reads a field is its descriptor's to declare
/// ([`PolicyKind::reads`]); the wording of why is here, and the policies that
/// do read it are named from the registry, so the sentence stays true as
/// policies come and go.
pub fn unused_under(key: &str, params: &Params) -> Option<String> {
    if CONNECTION_SETTINGS.contains(&key) && params.scenario.balance_per == BalancePer::Request {
        return Some(format!(
            "Not used with balance_per = request: {key} shapes only a pick per connection."
        ));
    }
    let policy = params.scenario.policy;
    if policy.reads(key) {
        return None;
    }
    let readers = || policies_that(|p| p.reads(key));
    let why = match key {
        "choices" => format!("d candidates are drawn only by {}", readers()),
        "staleness_ms" => format!("the load board this refreshes is read only by {}", readers()),
        "key_space" | "key_popularity" | "key_per" => "only the placement schemes route by key".to_string(),
        "slow_start_window_ms" | "slow_start_aggression" => format!("slow start ramps a joining server's weight, read only by {}", readers()),
        "table_lag_ms" => "only the mapping table has copies to update".to_string(),
        _ if policy.reads_keys() && PolicyKind::is_ejection_field(key) => {
            "a key's server is its place, so a placement scheme takes no server out of its pool".to_string()
        }
        "dc_order" => "only FoundationDB's balancers order their alternatives by datacenter".to_string(),
        "retry_budget" | "retry_backoff_ms" if policy.is_fdb() => {
            "a FoundationDB balancer retries by its own rules, the next alternative in turn with a backoff of its own"
                .to_string()
        }
        _ => format!("{key} is read only by {}", readers()),
    };
    Some(format!("Not used by {}: {why}.", policy.title()))
}

/// The settings of a client's connections, read only when a server is
/// picked per connection: picked per request, a connection leads nowhere
/// in particular.
const CONNECTION_SETTINGS: [&str; 2] = ["connections_per_client", "max_connection_age_ms"];

/// The titles of the policies for which `has` holds, in the registry's
/// order, quoted (titles hold commas) and listed: “a”, “b” and “c”.
fn policies_that(has: impl Fn(PolicyKind) -> bool) -> String {
    and_list(PolicyKind::ALL.iter().filter(|p| has(**p)).map(|p| format!("“{}”", p.title())))
}

/// Every control, in page order. Keys are field keys (or the speed).
pub static CONTROLS: &[Control] = &[
    Control {
        key: SPEED_KEY,
        label: "Speed",
        group: Group::Transport,
        // Down to 0.01×, slow enough to follow one request's hop by eye.
        widget: Widget::Presets(&[
            "0.01", "0.02", "0.05", "0.1", "0.2", "0.25", "0.5", "1", "2", "3", "5", "10",
        ]),
        show: Show::Value("×"),
    },
    Control {
        key: "policy",
        label: "Policy",
        group: Group::Routing,
        widget: Widget::Choice,
        show: Show::PolicyDescription,
    },
    Control {
        key: "choices",
        label: "Choices (d) compared",
        group: Group::Routing,
        widget: Widget::Presets(&["2", "3", "4", "5", "6", "8", "10"]),
        show: Show::Value("servers"),
    },
    Control {
        key: "staleness_ms",
        label: "Staleness of load information",
        group: Group::Routing,
        widget: Widget::Presets(&[
            "0", "1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000", "5000", "10000",
            "60000",
        ]),
        show: Show::Value("ms"),
    },
    Control {
        key: "subset_size",
        label: "Pool (subset) size",
        group: Group::Routing,
        widget: Widget::Presets(&[
            "1", "2", "3", "4", "5", "6", "8", "10", "15", "20", "30", "50", "100", "all",
        ]),
        show: Show::Value("servers"),
    },
    Control {
        key: "balancers",
        label: "Balancers (0 = clients choose)",
        group: Group::Routing,
        widget: Widget::Presets(&[
            "0", "1", "2", "3", "4", "5", "10", "20", "50", "100", "200", "500", "1000",
        ]),
        show: Show::Value(""),
    },
    Control {
        key: "hedge_after_ms",
        label: "Hedge: copy a request after",
        group: Group::Routing,
        widget: Widget::Presets(&["none", "10", "20", "30", "50", "75", "100", "150", "200", "500"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "balance_per",
        label: "A server is picked once per",
        group: Group::Routing,
        widget: Widget::Choice,
        show: Show::Nothing,
    },
    Control {
        key: "connections_per_client",
        label: "Connections each client holds",
        group: Group::Routing,
        widget: Widget::Presets(&["1", "2", "3", "5", "10", "20", "50", "100"]),
        show: Show::Value(""),
    },
    Control {
        key: "max_connection_age_ms",
        label: "Maximum connection age",
        group: Group::Routing,
        widget: Widget::Presets(&[
            "none", "100", "200", "500", "1000", "2000", "5000", "10000", "30000", "60000", "300000",
        ]),
        show: Show::Value("ms"),
    },
    Control {
        key: "load",
        label: "Offered load",
        group: Group::Load,
        widget: Widget::Steps(0.05),
        show: Show::OfferedLoad,
    },
    Control {
        key: "demand",
        label: "Demand",
        group: Group::Load,
        widget: Widget::Choice,
        show: Show::Nothing,
    },
    Control {
        key: "clients",
        label: "Clients",
        group: Group::Load,
        widget: Widget::Presets(&[
            "1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000", "5000", "10000",
        ]),
        show: Show::Value(""),
    },
    Control {
        key: "servers",
        label: "Servers",
        group: Group::Servers,
        widget: Widget::Presets(&[
            "1", "2", "3", "4", "5", "6", "8", "10", "12", "15", "20", "25", "30", "40", "50", "75", "100",
            "150", "200", "300", "500", "750", "1000",
        ]),
        show: Show::Value(""),
    },
    Control {
        key: "slots",
        label: "Slots per server",
        group: Group::Servers,
        widget: Widget::Presets(&["1", "2", "3", "4", "5", "8", "10", "16", "20", "32", "50", "100"]),
        show: Show::Value(""),
    },
    Control {
        key: "queue_timeout_ms",
        label: "Queue timeout",
        group: Group::Servers,
        widget: Widget::Presets(&["5", "10", "20", "50", "100", "200", "500", "1000", "5000", "none"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "slow_start_window_ms",
        label: "Slow start: a joining server ramps up over",
        group: Group::Servers,
        widget: Widget::Presets(&["none", "1000", "5000", "10000", "30000", "60000", "120000", "300000"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "slow_start_aggression",
        label: "Slow start's aggression (1 = linear)",
        group: Group::Servers,
        widget: Widget::Presets(&["0.5", "1", "1.5", "2", "3", "5", "10"]),
        show: Show::Value(""),
    },
    Control {
        key: "service",
        label: "Service-time distribution",
        group: Group::Servers,
        widget: Widget::Choice,
        show: Show::Nothing,
    },
    Control {
        key: "datacenters",
        label: "Datacenters",
        group: Group::Servers,
        widget: Widget::Presets(&["1", "2", "3", "4"]),
        show: Show::Value(""),
    },
    Control {
        key: "cross_dc_delay_ms",
        label: "Added between datacenters, each way",
        group: Group::Servers,
        widget: Widget::Presets(&["0", "1", "2", "5", "10", "20", "50", "100"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "dc_order",
        label: "FoundationDB's order across datacenters",
        group: Group::Servers,
        widget: Widget::Choice,
        show: Show::Nothing,
    },
    Control {
        key: "retry_budget",
        label: "Retries per request",
        group: Group::Failures,
        widget: Widget::Presets(&["0", "1", "2", "3", "5", "10", "20", "50", "100", "1000"]),
        show: Show::Value(""),
    },
    Control {
        key: "retry_backoff_ms",
        label: "Retry backoff (doubling, jittered)",
        group: Group::Failures,
        widget: Widget::Presets(&["0", "1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "eject_after",
        label: "Eject a server after errors in a row (0 = never)",
        group: Group::Failures,
        widget: Widget::Presets(&["0", "1", "2", "3", "5", "10", "20", "50"]),
        show: Show::Value(""),
    },
    Control {
        key: "eject_for_ms",
        label: "Ejected for",
        group: Group::Failures,
        widget: Widget::Presets(&["100", "250", "500", "1000", "2000", "5000", "10000", "30000", "60000"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "eject_max_fraction",
        label: "Most of a pool held ejected",
        group: Group::Failures,
        widget: Widget::Presets(&["0", "0.1", "0.2", "0.3", "0.5", "0.75", "1"]),
        show: Show::Value(""),
    },
    Control {
        key: "eject_max_for_ms",
        label: "Ejections grow, each by that, up to",
        group: Group::Failures,
        widget: Widget::Presets(&["none", "1000", "5000", "10000", "30000", "60000", "300000"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "eject_probe",
        label: "Probe a returning server with one request",
        group: Group::Failures,
        widget: Widget::Choice,
        show: Show::Nothing,
    },
    Control {
        key: "health_check_ms",
        label: "Health checks every",
        group: Group::Failures,
        widget: Widget::Presets(&["none", "50", "100", "250", "500", "1000", "2000", "5000", "10000"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "health_check_fall",
        label: "Failed checks in a row that take a server out",
        group: Group::Failures,
        widget: Widget::Presets(&["1", "2", "3", "5", "10"]),
        show: Show::Value(""),
    },
    Control {
        key: "health_check_rise",
        label: "Passed checks in a row that bring it back",
        group: Group::Failures,
        widget: Widget::Presets(&["1", "2", "3", "5", "10"]),
        show: Show::Value(""),
    },
    Control {
        key: "health_check_timeout_ms",
        label: "A check fails when it would wait over",
        group: Group::Failures,
        widget: Widget::Presets(&["none", "10", "50", "100", "500", "1000", "2000", "5000"]),
        show: Show::Value("ms"),
    },
    Control {
        key: "healthy_panic_threshold",
        label: "Panic: route to every server when fewer are in than",
        group: Group::Failures,
        widget: Widget::Presets(&["0", "10", "25", "50", "75", "100"]),
        show: Show::Value("%"),
    },
    Control {
        key: "virtual_nodes",
        label: "Virtual nodes per server",
        group: Group::Keys,
        widget: Widget::Presets(&["1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"]),
        show: Show::Value(""),
    },
    Control {
        key: "bounded_load_c",
        label: "Load bound (c × mean)",
        group: Group::Keys,
        widget: Widget::Presets(&["1.05", "1.1", "1.25", "1.5", "2", "3"]),
        show: Show::Value("×"),
    },
    Control {
        key: "key_space",
        label: "Keys",
        group: Group::Keys,
        widget: Widget::Presets(&["10", "100", "1000", "10000", "100000", "1000000"]),
        show: Show::Value(""),
    },
    Control {
        key: "key_popularity",
        label: "Key popularity (Zipf exponent, 0 = uniform)",
        group: Group::Keys,
        widget: Widget::Presets(&["0", "0.5", "0.8", "1", "1.2", "1.5"]),
        show: Show::Value(""),
    },
    Control {
        key: "key_per",
        label: "A key per",
        group: Group::Keys,
        widget: Widget::Choice,
        show: Show::Nothing,
    },
    Control {
        key: "table_lag_ms",
        label: "Mapping table's copies lag by",
        group: Group::Keys,
        widget: Widget::Presets(&["0", "100", "200", "500", "1000", "2000", "5000", "10000"]),
        show: Show::Value("ms"),
    },
    Control { key: "seed", label: "Seed", group: Group::Run, widget: Widget::Seed, show: Show::Nothing },
];

#[cfg(test)]
mod tests;
