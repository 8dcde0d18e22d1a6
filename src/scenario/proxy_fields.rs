//! The fields of the mechanisms real proxies ship (issue 42), named as the
//! proxy's own configuration names them; [`FIELDS`](super::FIELDS) lists
//! them beside the mechanisms they extend. Each defaults to what lbsim did
//! before it, so a scenario that does not name it runs as it did.

use super::fields::{Field, FieldKind, Live, Value};
use super::{BalancePer, SubsetMode};

/// The words a yes-or-no field takes.
const NO_YES: &[&str] = &["no", "yes"];

pub(super) const EJECT_MAX_FOR_MS: Field = Field {
    key: "eject_max_for_ms",
    help: "Envoy's max_ejection_time: a server's nth ejection lasts n × eject_for_ms, up to this (or eject_for_ms if longer); none: every ejection lasts eject_for_ms",
    kind: FieldKind::MillisOrNone { min: 0.001, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.eject_max_for_ms),
    put: |s, v| s.eject_max_for_ms = v.optional(),
};

pub(super) const EJECT_INTERVAL_MS: Field = Field {
    key: "eject_interval_ms",
    help: "Envoy's outlier detection interval: ejections end at the first sweep after their time is up, and each sweep that finds a server in its chooser's pool forgets one of its ejections; none: an ejection ends when its time is up",
    kind: FieldKind::MillisOrNone { min: 1.0, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.eject_interval_ms),
    put: |s, v| s.eject_interval_ms = v.optional(),
};

pub(super) const EJECT_ALWAYS_ONE_HOST: Field = Field {
    key: "eject_always_one_host",
    help: "Envoy's always_eject_one_host: yes lets a chooser holding no outlier out eject one whatever eject_max_fraction allows",
    kind: FieldKind::Choice(NO_YES),
    live: Live::No,
    get: |s| Value::Choice(NO_YES[usize::from(s.eject_always_one_host)]),
    put: |s, v| s.eject_always_one_host = v.choice() == "yes",
};

pub(super) const HEALTHY_PANIC_THRESHOLD: Field = Field {
    key: "healthy_panic_threshold",
    help: "Envoy's panic threshold, in percent: a chooser with fewer of its servers in its pool than this (the rest ejected or failing health checks) routes to all of them; 0 never panics",
    kind: FieldKind::Number { min: 0.0, max: 100.0 },
    live: Live::No,
    get: |s| Value::Number(s.healthy_panic_threshold),
    put: |s, v| s.healthy_panic_threshold = v.number(),
};

pub(super) const SLOW_START_WINDOW_MS: Field = Field {
    key: "slow_start_window_ms",
    help: "Envoy's slow_start_window: a server that joins has its weight ramped from slow_start_min_weight_percent to its own over this, as (t / window)^(1 / slow_start_aggression), under policies that read weights; none: no slow start",
    kind: FieldKind::MillisOrNone { min: 1.0, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.slow_start_window_ms),
    put: |s, v| s.slow_start_window_ms = v.optional(),
};

pub(super) const SLOW_START_AGGRESSION: Field = Field {
    key: "slow_start_aggression",
    help: "Envoy's slow start aggression: 1 ramps a joining server's weight linearly (HAProxy's and ALB's slow start), more ramps it faster at first",
    kind: FieldKind::Number { min: 0.01, max: 100.0 },
    live: Live::No,
    get: |s| Value::Number(s.slow_start_aggression),
    put: |s, v| s.slow_start_aggression = v.number(),
};

pub(super) const SLOW_START_MIN_WEIGHT_PERCENT: Field = Field {
    key: "slow_start_min_weight_percent",
    help: "Envoy's min_weight_percent: the least share of its weight a joining server has during slow start (0 for HAProxy's and ALB's ramps from nothing)",
    kind: FieldKind::Number { min: 0.0, max: 100.0 },
    live: Live::No,
    get: |s| Value::Number(s.slow_start_min_weight_percent),
    put: |s, v| s.slow_start_min_weight_percent = v.number(),
};

pub(super) const HEALTH_CHECK_RISE: Field = Field {
    key: "health_check_rise",
    help: "HAProxy's rise (Envoy's healthy_threshold): passing checks in a row that bring a server held out back",
    kind: FieldKind::Count { min: 1, max: 100 },
    live: Live::No,
    get: |s| Value::Count(s.health_check_rise.into()),
    put: |s, v| s.health_check_rise = v.count() as u32,
};

pub(super) const HEALTH_CHECK_FALL: Field = Field {
    key: "health_check_fall",
    help: "HAProxy's fall (Envoy's unhealthy_threshold): failed checks in a row that take a server out",
    kind: FieldKind::Count { min: 1, max: 100 },
    live: Live::No,
    get: |s| Value::Count(s.health_check_fall.into()),
    put: |s, v| s.health_check_fall = v.count() as u32,
};

pub(super) const HEALTH_CHECK_TIMEOUT_MS: Field = Field {
    key: "health_check_timeout_ms",
    help: "HAProxy's timeout check (Envoy's timeout): a check fails when it would wait this long for one of the server's slots, its queue served at the server's speed; none: a server that accepts connections passes, however slow",
    kind: FieldKind::MillisOrNone { min: 0.001, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.health_check_timeout_ms),
    put: |s, v| s.health_check_timeout_ms = v.optional(),
};

pub(super) const SERVER_MAXCONN: Field = Field {
    key: "server_maxconn",
    help: "HAProxy's server maxconn: each chooser has at most this many requests out at a server at once, and the rest wait at the chooser, oldest first, for one to come back; 0: no limit",
    kind: FieldKind::Count { min: 0, max: 100_000 },
    live: Live::No,
    get: |s| Value::Count(s.server_maxconn.into()),
    put: |s, v| s.server_maxconn = v.count() as u32,
};

pub(super) const SERVER_MAXQUEUE: Field = Field {
    key: "server_maxqueue",
    help: "HAProxy's maxqueue: at most this many requests wait at a chooser for one server under server_maxconn, and the next is answered at once with an error (a 503); 0: no limit",
    kind: FieldKind::Count { min: 0, max: 100_000 },
    live: Live::No,
    get: |s| Value::Count(s.server_maxqueue.into()),
    put: |s, v| s.server_maxqueue = v.count() as u32,
};

pub(super) const TIMEOUT_QUEUE_MS: Field = Field {
    key: "timeout_queue_ms",
    help: "HAProxy's timeout queue: a request that has waited this long at its chooser under server_maxconn is answered with an error (a 503); none: it waits for a slot",
    kind: FieldKind::MillisOrNone { min: 0.001, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.timeout_queue_ms),
    put: |s, v| s.timeout_queue_ms = v.optional(),
};

pub(super) const MAX_REQUESTS: Field = Field {
    key: "max_requests",
    help: "Envoy's circuit breaker max_requests: a chooser with this many requests out across its pool answers the next at once with an error (an overflow); 0: no limit (Envoy's default is 1024)",
    kind: FieldKind::Count { min: 0, max: 1_000_000 },
    live: Live::No,
    get: |s| Value::Count(s.max_requests.into()),
    put: |s, v| s.max_requests = v.count() as u32,
};

pub(super) const BALANCE_PER: Field = Field {
    key: "balance_per",
    help: "connection: a chooser picks a server once per client connection, and every request on it goes there until it is max_connection_age_ms old (kube-proxy, an L4 balancer, an HTTP/2 or gRPC channel); request: a balancer picks per request and a client's session keeps its server",
    kind: FieldKind::Choice(BalancePer::NAMES),
    live: Live::No,
    get: |s| Value::Choice(s.balance_per.name()),
    put: |s, v| s.balance_per = BalancePer::from_name(v.choice()).unwrap_or(s.balance_per),
};

pub(super) const CONNECTIONS_PER_CLIENT: Field = Field {
    key: "connections_per_client",
    help:
        "with balance_per = connection, the connections each client holds, its sessions taking them in turn",
    kind: FieldKind::Count { min: 1, max: 1_000 },
    live: Live::No,
    get: |s| Value::Count(s.connections_per_client.into()),
    put: |s, v| s.connections_per_client = v.count() as u32,
};

pub(super) const MAX_CONNECTION_AGE_MS: Field = Field {
    key: "max_connection_age_ms",
    help: "gRPC's MAX_CONNECTION_AGE: with balance_per = connection, a connection this old is closed, and the next request on it opens a new one, picked anew; none: connections last",
    kind: FieldKind::MillisOrNone { min: 1.0, max: 86_400_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.max_connection_age_ms),
    put: |s, v| s.max_connection_age_ms = v.optional(),
};

pub(super) const SUBSET_MODE: Field = Field {
    key: "subset_mode",
    help: "how subset_size's pools are drawn: random, each chooser its own draw; deterministic, the SRE book's subsetting (chooser i takes subset i mod k of a shuffle seeded by its round i div k, k = servers / subset_size), so every server is in as many pools as every other when the choosers are a multiple of k",
    kind: FieldKind::Choice(SubsetMode::NAMES),
    live: Live::Pools,
    get: |s| Value::Choice(s.subset_mode.name()),
    put: |s, v| s.subset_mode = SubsetMode::from_name(v.choice()).unwrap_or(s.subset_mode),
};
