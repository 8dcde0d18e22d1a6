//! The table of scenario fields: name, meaning, allowed values, whether it
//! may change while a simulation runs, and how to read and write it.

use super::{Demand, PolicyKind, Scenario, ScenarioError, ServiceDistribution};

/// What values a field takes.
#[derive(Clone, Copy, Debug)]
pub enum FieldKind {
    /// A whole number in `min..=max`.
    Count { min: u64, max: u64 },
    /// A number in `min..=max`.
    Number { min: f64, max: f64 },
    /// One of a fixed set of names.
    Choice(&'static [&'static str]),
    /// A number of milliseconds in `min..=max`, or "none".
    MillisOrNone { min: f64, max: f64 },
    /// A whole number in `min..=max`, or "all".
    CountOrAll { min: u64, max: u64 },
    /// A list of up to `max_len` numbers, each in `min..=max`.
    NumberList { min: f64, max: f64, max_len: usize },
}

/// A field's value, in the shape its kind gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Count(u64),
    Number(f64),
    Choice(&'static str),
    Optional(Option<f64>),
    List(Vec<f64>),
}

impl Value {
    fn count(&self) -> u64 {
        match self {
            Value::Count(n) => *n,
            _ => 0,
        }
    }
    fn number(&self) -> f64 {
        match self {
            Value::Number(x) => *x,
            _ => 0.0,
        }
    }
    fn choice(&self) -> &'static str {
        match self {
            Value::Choice(name) => name,
            _ => "",
        }
    }
    fn optional(&self) -> Option<f64> {
        match self {
            Value::Optional(x) => *x,
            _ => None,
        }
    }
    fn list(&self) -> Vec<f64> {
        match self {
            Value::List(xs) => xs.clone(),
            _ => Vec::new(),
        }
    }
}

pub struct Field {
    pub key: &'static str,
    pub help: &'static str,
    pub kind: FieldKind,
    /// Whether the field may change while a simulation runs.
    pub live: bool,
    get: fn(&Scenario) -> Value,
    put: fn(&mut Scenario, &Value),
}

impl Field {
    /// The field's value in `scenario`, as text that `set_text` accepts back.
    pub fn text(&self, scenario: &Scenario) -> String {
        match (self.get)(scenario) {
            Value::Count(n) if matches!(self.kind, FieldKind::CountOrAll { .. }) && n == 0 => "all".into(),
            Value::Count(n) => n.to_string(),
            Value::Number(x) => format_number(x),
            Value::Choice(name) => name.to_string(),
            Value::Optional(Some(x)) => format_number(x),
            Value::Optional(None) => "none".into(),
            Value::List(xs) => xs.iter().map(|x| format_number(*x)).collect::<Vec<_>>().join(","),
        }
    }

    /// The default value as text.
    pub fn default_text(&self) -> String {
        self.text(&Scenario::default())
    }

    /// What the field allows, in words.
    pub fn allowed(&self) -> String {
        match self.kind {
            FieldKind::Count { min, max } => format!("a whole number from {min} to {max}"),
            FieldKind::Number { min, max } => {
                format!("a number from {} to {}", format_number(min), format_number(max))
            }
            FieldKind::Choice(names) => format!("one of {}", names.join(", ")),
            FieldKind::MillisOrNone { min, max } => {
                format!("\"none\" or milliseconds from {} to {}", format_number(min), format_number(max))
            }
            FieldKind::CountOrAll { min, max } => {
                format!("\"all\" or a whole number from {min} to {max}")
            }
            FieldKind::NumberList { min, max, max_len } => format!(
                "a list of 1 to {max_len} numbers, each from {} to {}",
                format_number(min),
                format_number(max)
            ),
        }
    }

    pub fn set_text(&self, scenario: &mut Scenario, text: &str) -> Result<(), ScenarioError> {
        let value = self.parse_text(text.trim()).ok_or_else(|| self.bad(text))?;
        (self.put)(scenario, &value);
        Ok(())
    }

    pub fn set_toml(&self, scenario: &mut Scenario, raw: &toml::Value) -> Result<(), ScenarioError> {
        let value = self.parse_toml(raw).ok_or_else(|| self.bad(&raw.to_string()))?;
        (self.put)(scenario, &value);
        Ok(())
    }

    fn bad(&self, value: &str) -> ScenarioError {
        ScenarioError::BadValue { field: self.key, value: value.to_string(), allowed: self.allowed() }
    }

    fn parse_text(&self, text: &str) -> Option<Value> {
        match self.kind {
            FieldKind::Count { min, max } => count_in(text.parse().ok()?, min, max).map(Value::Count),
            FieldKind::Number { min, max } => number_in(text.parse().ok()?, min, max).map(Value::Number),
            FieldKind::Choice(names) => names.iter().find(|n| **n == text).map(|n| Value::Choice(n)),
            FieldKind::MillisOrNone { min, max } => match text {
                "none" => Some(Value::Optional(None)),
                _ => number_in(text.parse().ok()?, min, max).map(|x| Value::Optional(Some(x))),
            },
            FieldKind::CountOrAll { min, max } => match text {
                "all" => Some(Value::Count(0)),
                _ => count_in(text.parse().ok()?, min, max).map(Value::Count),
            },
            FieldKind::NumberList { min, max, max_len } => {
                let items: Option<Vec<f64>> =
                    text.split(',').map(|item| number_in(item.trim().parse().ok()?, min, max)).collect();
                items.filter(|xs| !xs.is_empty() && xs.len() <= max_len).map(Value::List)
            }
        }
    }

    fn parse_toml(&self, raw: &toml::Value) -> Option<Value> {
        match (self.kind, raw) {
            (FieldKind::Count { .. } | FieldKind::CountOrAll { .. }, toml::Value::Integer(n)) => {
                self.parse_text(&n.to_string())
            }
            (
                FieldKind::Number { .. } | FieldKind::MillisOrNone { .. },
                toml::Value::Integer(_) | toml::Value::Float(_),
            ) => self.parse_text(&raw.to_string()),
            (
                FieldKind::Choice(_) | FieldKind::MillisOrNone { .. } | FieldKind::CountOrAll { .. },
                toml::Value::String(s),
            ) => self.parse_text(s),
            (FieldKind::NumberList { .. }, toml::Value::Array(items)) => {
                let texts: Option<Vec<String>> = items
                    .iter()
                    .map(|item| match item {
                        toml::Value::Integer(_) | toml::Value::Float(_) => Some(item.to_string()),
                        _ => None,
                    })
                    .collect();
                self.parse_text(&texts?.join(","))
            }
            _ => None,
        }
    }
}

fn count_in(n: u64, min: u64, max: u64) -> Option<u64> {
    (min..=max).contains(&n).then_some(n)
}

fn number_in(x: f64, min: f64, max: f64) -> Option<f64> {
    (x.is_finite() && x >= min && x <= max).then_some(x)
}

/// Shortest text that reads back as the same number.
pub fn format_number(x: f64) -> String {
    format!("{x}")
}

/// Looks a field up by name, suggesting a near miss when there is one.
pub fn find(key: &str) -> Result<&'static Field, ScenarioError> {
    FIELDS.iter().find(|f| f.key == key).ok_or_else(|| ScenarioError::UnknownField {
        field: key.to_string(),
        // Dropped letters are the commonest slip, so a field that contains the
        // typo as a subsequence ranks first; then the nearest by edit distance.
        suggestion: FIELDS
            .iter()
            .map(|f| (!is_subsequence(key, f.key), edit_distance(key, f.key), f.key))
            .filter(|(_, d, _)| *d <= 3)
            .min()
            .map(|(_, _, k)| k),
    })
}

fn is_subsequence(short: &str, long: &str) -> bool {
    let mut letters = long.chars();
    short.chars().all(|c| letters.any(|l| l == c))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

const MAX_SEED: u64 = (1 << 53) - 1;

pub static FIELDS: &[Field] = &[
    Field {
        key: "servers",
        help: "number of servers",
        kind: FieldKind::Count { min: 1, max: 10_000 },
        live: false,
        get: |s| Value::Count(s.servers.into()),
        put: |s, v| s.servers = v.count() as u32,
    },
    Field {
        key: "slots",
        help: "requests one server works on at once; more wait in its queue",
        kind: FieldKind::Count { min: 1, max: 1_000 },
        live: false,
        get: |s| Value::Count(s.slots.into()),
        put: |s, v| s.slots = v.count() as u32,
    },
    Field {
        key: "queue_timeout_ms",
        help: "a request still queued after this long is sent back to its chooser to pick again",
        kind: FieldKind::MillisOrNone { min: 0.1, max: 600_000.0 },
        live: true,
        get: |s| Value::Optional(s.queue_timeout_ms),
        put: |s, v| s.queue_timeout_ms = v.optional(),
    },
    Field {
        key: "server_speeds",
        help: "relative speed of each server, repeated across the servers (2 = twice as fast)",
        kind: FieldKind::NumberList { min: 0.01, max: 100.0, max_len: 100 },
        live: false,
        get: |s| Value::List(s.server_speeds.clone()),
        put: |s, v| s.server_speeds = v.list(),
    },
    Field {
        key: "service",
        help: "distribution of service times",
        kind: FieldKind::Choice(ServiceDistribution::NAMES),
        live: false,
        get: |s| Value::Choice(s.service.name()),
        put: |s, v| s.service = ServiceDistribution::from_name(v.choice()).unwrap_or(s.service),
    },
    Field {
        key: "service_mean_ms",
        help: "mean service time at speed 1",
        kind: FieldKind::Number { min: 0.001, max: 600_000.0 },
        live: false,
        get: |s| Value::Number(s.service_mean_ms),
        put: |s, v| s.service_mean_ms = v.number(),
    },
    Field {
        key: "service_cv",
        help: "coefficient of variation of lognormal service times",
        kind: FieldKind::Number { min: 0.05, max: 10.0 },
        live: false,
        get: |s| Value::Number(s.service_cv),
        put: |s, v| s.service_cv = v.number(),
    },
    Field {
        key: "pareto_shape",
        help: "tail index of Pareto service times (smaller is heavier)",
        kind: FieldKind::Number { min: 1.05, max: 10.0 },
        live: false,
        get: |s| Value::Number(s.pareto_shape),
        put: |s, v| s.pareto_shape = v.number(),
    },
    Field {
        key: "clients",
        help: "number of clients",
        kind: FieldKind::Count { min: 1, max: 100_000 },
        live: false,
        get: |s| Value::Count(s.clients.into()),
        put: |s, v| s.clients = v.count() as u32,
    },
    Field {
        key: "session_length",
        help: "requests in one session, sent one after another to one server",
        kind: FieldKind::Count { min: 1, max: 10_000 },
        live: false,
        get: |s| Value::Count(s.session_length.into()),
        put: |s, v| s.session_length = v.count() as u32,
    },
    Field {
        key: "handshake_round_trips",
        help: "round trips a client spends opening a connection to a server or balancer",
        kind: FieldKind::Count { min: 0, max: 20 },
        live: false,
        get: |s| Value::Count(s.handshake_round_trips.into()),
        put: |s, v| s.handshake_round_trips = v.count() as u32,
    },
    Field {
        key: "idle_timeout_ms",
        help: "a connection unused for this long goes cold and needs a new handshake",
        kind: FieldKind::MillisOrNone { min: 1.0, max: 3_600_000.0 },
        live: false,
        get: |s| Value::Optional(s.idle_timeout_ms),
        put: |s, v| s.idle_timeout_ms = v.optional(),
    },
    Field {
        key: "subset_size",
        help: "servers each chooser may pick from, drawn at random per chooser (above servers means all)",
        kind: FieldKind::CountOrAll { min: 1, max: 10_000 },
        live: true,
        get: |s| Value::Count(s.subset_size.map_or(0, u64::from)),
        put: |s, v| s.subset_size = Some(v.count() as u32).filter(|&n| n > 0),
    },
    Field {
        key: "balancers",
        help: "load balancers between clients and servers; 0 means clients choose servers themselves",
        kind: FieldKind::Count { min: 0, max: 1_000 },
        live: false,
        get: |s| Value::Count(s.balancers.into()),
        put: |s, v| s.balancers = v.count() as u32,
    },
    Field {
        key: "client_delay_ms",
        help: "one-way network delay between a client and a server or balancer",
        kind: FieldKind::Number { min: 0.0, max: 10_000.0 },
        live: false,
        get: |s| Value::Number(s.client_delay_ms),
        put: |s, v| s.client_delay_ms = v.number(),
    },
    Field {
        key: "balancer_delay_ms",
        help: "one-way network delay between a balancer and a server",
        kind: FieldKind::Number { min: 0.0, max: 10_000.0 },
        live: false,
        get: |s| Value::Number(s.balancer_delay_ms),
        put: |s, v| s.balancer_delay_ms = v.number(),
    },
    Field {
        key: "demand",
        help: "spike: every client starts one session at time 0; continuous: sessions arrive as a Poisson process",
        kind: FieldKind::Choice(Demand::NAMES),
        live: false,
        get: |s| Value::Choice(s.demand.name()),
        put: |s, v| s.demand = Demand::from_name(v.choice()).unwrap_or(s.demand),
    },
    Field {
        key: "load",
        help: "continuous demand as a fraction of total server capacity",
        kind: FieldKind::Number { min: 0.05, max: 1.5 },
        live: true,
        get: |s| Value::Number(s.load),
        put: |s, v| s.load = v.number(),
    },
    Field {
        key: "policy",
        help: "how a chooser picks a server (see `lbsim policies`)",
        kind: FieldKind::Choice(PolicyKind::NAMES),
        live: true,
        get: |s| Value::Choice(s.policy.name()),
        put: |s, v| s.policy = PolicyKind::from_name(v.choice()).unwrap_or(s.policy),
    },
    Field {
        key: "choices",
        help: "candidates drawn by power-of-d",
        kind: FieldKind::Count { min: 2, max: 10 },
        live: true,
        get: |s| Value::Count(s.choices.into()),
        put: |s, v| s.choices = v.count() as u32,
    },
    Field {
        key: "staleness_ms",
        help: "age of the load board that power-of-d and shortest-queue read; 0 reads live load",
        kind: FieldKind::Number { min: 0.0, max: 60_000.0 },
        live: true,
        get: |s| Value::Number(s.staleness_ms),
        put: |s, v| s.staleness_ms = v.number(),
    },
    Field {
        key: "retry_budget",
        help: "queue timeouts one request may suffer before it fails",
        kind: FieldKind::Count { min: 0, max: 1_000 },
        live: true,
        get: |s| Value::Count(s.retry_budget.into()),
        put: |s, v| s.retry_budget = v.count() as u32,
    },
    Field {
        key: "seed",
        help: "seed of the simulation's random generator",
        kind: FieldKind::Count { min: 0, max: MAX_SEED },
        live: false,
        get: |s| Value::Count(s.seed),
        put: |s, v| s.seed = v.count(),
    },
    Field {
        key: "duration_s",
        help: "simulated seconds a command-line run lasts",
        kind: FieldKind::Number { min: 0.001, max: 86_400.0 },
        live: false,
        get: |s| Value::Number(s.duration_s),
        put: |s, v| s.duration_s = v.number(),
    },
    Field {
        key: "warmup_s",
        help: "simulated seconds at the start left out of the statistics",
        kind: FieldKind::Number { min: 0.0, max: 86_400.0 },
        live: false,
        get: |s| Value::Number(s.warmup_s),
        put: |s, v| s.warmup_s = v.number(),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_back_its_own_text() {
        let scenario = Scenario::default();
        for field in FIELDS {
            let mut copy = Scenario { seed: 99, ..Scenario::default() };
            field.set_text(&mut copy, &field.text(&scenario)).unwrap();
            assert_eq!(field.text(&copy), field.text(&scenario), "{}", field.key);
        }
    }

    #[test]
    fn suggests_a_near_miss() {
        for (typo, meant) in
            [("polcy", Some("policy")), ("service_mean", Some("service_mean_ms")), ("colour", None)]
        {
            match find(typo) {
                Err(ScenarioError::UnknownField { suggestion, .. }) => assert_eq!(suggestion, meant),
                other => panic!("{:?}", other.map(|f| f.key)),
            }
        }
    }

    #[test]
    fn keys_are_unique() {
        for (i, a) in FIELDS.iter().enumerate() {
            assert!(FIELDS[i + 1..].iter().all(|b| b.key != a.key), "{}", a.key);
        }
    }
}
