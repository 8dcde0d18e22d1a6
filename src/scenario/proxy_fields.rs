//! The fields of the mechanisms real proxies ship (issue 42), named as the
//! proxy's own configuration names them; [`FIELDS`](super::FIELDS) lists
//! them beside the mechanisms they extend. Each defaults to what lbsim did
//! before it, so a scenario that does not name it runs as it did.

use super::fields::{Field, FieldKind, Live, Value};
use super::help::Help;
use super::{BalancePer, BudgetOf, EjectGrowth, RetryHosts, SubsetMode};

/// The words a yes-or-no field takes.
const NO_YES: &[&str] = &["no", "yes"];

pub(super) const EJECT_MAX_FOR_MS: Field = Field {
    key: "eject_max_for_ms",
    help: Help::Everywhere("Envoy's max_ejection_time: a server's nth ejection lasts n × eject_for_ms, up to this (or eject_for_ms if longer); none: every ejection lasts eject_for_ms"),
    kind: FieldKind::MillisOrNone { min: 0.001, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.eject_max_for_ms),
    put: |s, v| s.eject_max_for_ms = v.optional(),
};

pub(super) const EJECT_GROWTH: Field = Field {
    key: "eject_growth",
    help: cli_help!("how a server's kth ejection in a row lasts: linear, k × eject_for_ms (Envoy); exponential, 2^(k−1) × eject_for_ms (Linkerd's failure accrual); equal-jittered, eject_for_ms, then 2^(k−2) × eject_for_ms (Finagle's); each lengthened by eject_jitter and held to eject_max_for_ms"),
    kind: FieldKind::Choice(EjectGrowth::NAMES),
    live: Live::No,
    get: |s| Value::Choice(s.eject_backoff.growth.name()),
    put: |s, v| s.eject_backoff.growth = EjectGrowth::from_name(v.choice()).unwrap_or(s.eject_backoff.growth),
};

pub(super) const EJECT_JITTER: Field = Field {
    key: "eject_jitter",
    help: cli_help!("each ejection lengthened by a uniform draw of up to this share of its length, then held to eject_max_for_ms: Linkerd's jitter-ratio 0.5, Finagle's equal jitter 1 (its first ejection is not jittered); 0: none"),
    kind: FieldKind::Number { min: 0.0, max: 1.0 },
    live: Live::No,
    get: |s| Value::Number(s.eject_backoff.jitter),
    put: |s, v| s.eject_backoff.jitter = v.number(),
};

pub(super) const EJECT_INTERVAL_MS: Field = Field {
    key: "eject_interval_ms",
    help: cli_help!("Envoy's outlier detection interval: ejections end at the first sweep after their time is up, and each sweep that finds a server in its chooser's pool forgets one of its ejections; none: an ejection ends when its time is up"),
    kind: FieldKind::MillisOrNone { min: 1.0, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.eject_interval_ms),
    put: |s, v| s.eject_interval_ms = v.optional(),
};

pub(super) const EJECT_ALWAYS_ONE_HOST: Field = Field {
    key: "eject_always_one_host",
    help: cli_help!("Envoy's always_eject_one_host: yes lets a chooser holding no outlier out eject one whatever eject_max_fraction allows"),
    kind: FieldKind::Choice(NO_YES),
    live: Live::No,
    get: |s| Value::Choice(NO_YES[usize::from(s.eject_always_one_host)]),
    put: |s, v| s.eject_always_one_host = v.choice() == "yes",
};

pub(super) const EJECT_PROBE: Field = Field {
    key: "eject_probe",
    help: Help::Everywhere("NGINX's and Linkerd's probe: yes sends a server whose ejection ends one request and holds it out until that is answered, readmitting it on a success and ejecting it again for its next length on a failure; no: it returns whole"),
    kind: FieldKind::Choice(NO_YES),
    live: Live::No,
    get: |s| Value::Choice(NO_YES[usize::from(s.eject_probe)]),
    put: |s, v| s.eject_probe = v.choice() == "yes",
};

pub(super) const MAX_FAILS: Field = Field {
    key: "max_fails",
    help: cli_help!("NGINX's max_fails, under weighted-round-robin: a chooser skips a server that failed this many times for fail_timeout_s, then sends it one request, and cuts its effective weight by weight / max_fails at each failure, regrowing it by one a pick (NGINX's default is 1); 0: no failures counted"),
    kind: FieldKind::Count { min: 0, max: 1_000 },
    live: Live::No,
    get: |s| Value::Count(s.max_fails.into()),
    put: |s, v| s.max_fails = v.count() as u32,
};

pub(super) const FAIL_TIMEOUT_S: Field = Field {
    key: "fail_timeout_s",
    help: cli_help!("NGINX's fail_timeout, in whole seconds as NGINX keeps time: how long a server that failed max_fails times is skipped, and the window after which a success forgets its failures"),
    kind: FieldKind::Count { min: 0, max: 86_400 },
    live: Live::No,
    get: |s| Value::Count(s.fail_timeout_s.into()),
    put: |s, v| s.fail_timeout_s = v.count() as u32,
};

pub(super) const HEALTHY_PANIC_THRESHOLD: Field = Field {
    key: "healthy_panic_threshold",
    help: Help::Everywhere("Envoy's panic threshold, in percent: a chooser with fewer of its servers in its pool than this (the rest ejected or failing health checks) routes to all of them; 0 never panics"),
    kind: FieldKind::Number { min: 0.0, max: 100.0 },
    live: Live::No,
    get: |s| Value::Number(s.healthy_panic_threshold),
    put: |s, v| s.healthy_panic_threshold = v.number(),
};

pub(super) const SLOW_START_WINDOW_MS: Field = Field {
    key: "slow_start_window_ms",
    help: Help::Everywhere("Envoy's slow_start_window: a server that joins has its weight ramped from slow_start_min_weight_percent to its own over this, as (t / window)^(1 / slow_start_aggression), under policies that read weights; none: no slow start"),
    kind: FieldKind::MillisOrNone { min: 1.0, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.slow_start_window_ms),
    put: |s, v| s.slow_start_window_ms = v.optional(),
};

pub(super) const SLOW_START_AGGRESSION: Field = Field {
    key: "slow_start_aggression",
    help: Help::Everywhere("Envoy's slow start aggression: 1 ramps a joining server's weight linearly (HAProxy's and ALB's slow start), more ramps it faster at first"),
    kind: FieldKind::Number { min: 0.01, max: 100.0 },
    live: Live::No,
    get: |s| Value::Number(s.slow_start_aggression),
    put: |s, v| s.slow_start_aggression = v.number(),
};

pub(super) const SLOW_START_MIN_WEIGHT_PERCENT: Field = Field {
    key: "slow_start_min_weight_percent",
    help: cli_help!("Envoy's min_weight_percent: the least share of its weight a joining server has during slow start (0 for HAProxy's and ALB's ramps from nothing)"),
    kind: FieldKind::Number { min: 0.0, max: 100.0 },
    live: Live::No,
    get: |s| Value::Number(s.slow_start_min_weight_percent),
    put: |s, v| s.slow_start_min_weight_percent = v.number(),
};

pub(super) const HEALTH_CHECK_RISE: Field = Field {
    key: "health_check_rise",
    help: Help::Everywhere("HAProxy's rise (Envoy's healthy_threshold): passing checks in a row that bring a server held out back"),
    kind: FieldKind::Count { min: 1, max: 100 },
    live: Live::No,
    get: |s| Value::Count(s.health_check_rise.into()),
    put: |s, v| s.health_check_rise = v.count() as u32,
};

pub(super) const HEALTH_CHECK_FALL: Field = Field {
    key: "health_check_fall",
    help: Help::Everywhere(
        "HAProxy's fall (Envoy's unhealthy_threshold): failed checks in a row that take a server out",
    ),
    kind: FieldKind::Count { min: 1, max: 100 },
    live: Live::No,
    get: |s| Value::Count(s.health_check_fall.into()),
    put: |s, v| s.health_check_fall = v.count() as u32,
};

pub(super) const HEALTH_CHECK_TIMEOUT_MS: Field = Field {
    key: "health_check_timeout_ms",
    help: Help::Everywhere("HAProxy's timeout check (Envoy's timeout): a check fails when it would wait this long for one of the server's slots, its queue served at the server's speed; none: a server that accepts connections passes, however slow"),
    kind: FieldKind::MillisOrNone { min: 0.001, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.health_check_timeout_ms),
    put: |s, v| s.health_check_timeout_ms = v.optional(),
};

pub(super) const SERVER_MAXCONN: Field = Field {
    key: "server_maxconn",
    help: Help::Everywhere("HAProxy's server maxconn: each chooser has at most this many requests out at a server at once, and the rest wait at the chooser, oldest first, for one to come back; 0: no limit"),
    kind: FieldKind::Count { min: 0, max: 100_000 },
    live: Live::No,
    get: |s| Value::Count(s.server_maxconn.into()),
    put: |s, v| s.server_maxconn = v.count() as u32,
};

pub(super) const SERVER_MAXQUEUE: Field = Field {
    key: "server_maxqueue",
    help: cli_help!("HAProxy's maxqueue: at most this many requests wait at a chooser for one server under server_maxconn, and the next is answered at once with an error (a 503); 0: no limit"),
    kind: FieldKind::Count { min: 0, max: 100_000 },
    live: Live::No,
    get: |s| Value::Count(s.server_maxqueue.into()),
    put: |s, v| s.server_maxqueue = v.count() as u32,
};

pub(super) const TIMEOUT_QUEUE_MS: Field = Field {
    key: "timeout_queue_ms",
    help: cli_help!("HAProxy's timeout queue: a request that has waited this long at its chooser under server_maxconn is answered with an error (a 503); none: it waits for a slot"),
    kind: FieldKind::MillisOrNone { min: 0.001, max: 3_600_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.timeout_queue_ms),
    put: |s, v| s.timeout_queue_ms = v.optional(),
};

pub(super) const MAX_REQUESTS: Field = Field {
    key: "max_requests",
    help: Help::Everywhere("Envoy's circuit breaker max_requests: a chooser with this many requests out across its pool answers the next at once with an error (an overflow); 0: no limit (Envoy's default is 1024)"),
    kind: FieldKind::Count { min: 0, max: 1_000_000 },
    live: Live::No,
    get: |s| Value::Count(s.max_requests.into()),
    put: |s, v| s.max_requests = v.count() as u32,
};

pub(super) const BALANCE_PER: Field = Field {
    key: "balance_per",
    help: Help::Everywhere("connection: a chooser picks a server once per client connection, and every request on it goes there until it is max_connection_age_ms old (kube-proxy, an L4 balancer, an HTTP/2 or gRPC channel); request: a balancer picks per request and a client's session keeps its server"),
    kind: FieldKind::Choice(BalancePer::NAMES),
    live: Live::No,
    get: |s| Value::Choice(s.balance_per.name()),
    put: |s, v| s.balance_per = BalancePer::from_name(v.choice()).unwrap_or(s.balance_per),
};

pub(super) const CONNECTIONS_PER_CLIENT: Field = Field {
    key: "connections_per_client",
    help: Help::Everywhere(
        "with balance_per = connection, the connections each client holds, its sessions taking them in turn",
    ),
    kind: FieldKind::Count { min: 1, max: 1_000 },
    live: Live::No,
    get: |s| Value::Count(s.connections_per_client.into()),
    put: |s, v| s.connections_per_client = v.count() as u32,
};

pub(super) const MAX_CONNECTION_AGE_MS: Field = Field {
    key: "max_connection_age_ms",
    help: Help::Everywhere("gRPC's MAX_CONNECTION_AGE: with balance_per = connection, a connection this old is closed, and the next request on it opens a new one, picked anew; none: connections last"),
    kind: FieldKind::MillisOrNone { min: 1.0, max: 86_400_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.max_connection_age_ms),
    put: |s, v| s.max_connection_age_ms = v.optional(),
};

pub(super) const SUBSET_MODE: Field = Field {
    key: "subset_mode",
    help: cli_help!("how each chooser's pool is drawn: random, subset_size servers, each chooser its own draw; deterministic, the SRE book's subsetting (chooser i takes subset i mod k of a shuffle seeded by its round i div k, k = servers / subset_size), so every server is in as many pools as every other when the choosers are a multiple of k; aperture, Finagle's deterministic aperture (chooser i of N takes the arc from i/N of a ring of the servers, min_aperture servers' worth rounded up to whole 1/N, each server weighted by its overlap; subset_size is not read), for a weighted policy such as weighted-p2c"),
    kind: FieldKind::Choice(SubsetMode::NAMES),
    live: Live::Pools,
    get: |s| Value::Choice(s.subset_mode.name()),
    put: |s, v| s.subset_mode = SubsetMode::from_name(v.choice()).unwrap_or(s.subset_mode),
};

pub(super) const MIN_APERTURE: Field = Field {
    key: "min_aperture",
    help: cli_help!("Finagle's minDeterministicAperture (12): under subset_mode = aperture, each chooser's arc spans at least this many servers' worth of the ring (all of them when there are fewer)"),
    kind: FieldKind::Count { min: 1, max: 100_000 },
    live: Live::Pools,
    get: |s| Value::Count(s.min_aperture.into()),
    put: |s, v| s.min_aperture = v.count() as u32,
};

pub(super) const SUCCESS_RATE_STDEV_FACTOR: Field = Field {
    key: "success_rate_stdev_factor",
    help: cli_help!("Envoy's success_rate_stdev_factor, in thousandths (1900 there: 1.9): at each eject_interval_ms sweep a chooser ejects each server whose success rate over the interval is below the mean less this many standard deviations, among the servers with success_rate_request_volume answers, if at least success_rate_minimum_hosts have; none: no success-rate ejection"),
    kind: FieldKind::NumberOrNone { min: 0.0, max: 100_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.success_rate.limit),
    put: |s, v| s.success_rate.limit = v.optional(),
};

pub(super) const SUCCESS_RATE_MINIMUM_HOSTS: Field = Field {
    key: "success_rate_minimum_hosts",
    help: cli_help!("Envoy's success_rate_minimum_hosts: servers with enough answers a chooser needs before it compares success rates"),
    kind: FieldKind::Count { min: 1, max: 100_000 },
    live: Live::No,
    get: |s| Value::Count(s.success_rate.minimum_hosts.into()),
    put: |s, v| s.success_rate.minimum_hosts = v.count() as u32,
};

pub(super) const SUCCESS_RATE_REQUEST_VOLUME: Field = Field {
    key: "success_rate_request_volume",
    help: cli_help!("Envoy's success_rate_request_volume: answers a server must give a chooser in an interval for its success rate to count"),
    kind: FieldKind::Count { min: 1, max: 1_000_000_000 },
    live: Live::No,
    get: |s| Value::Count(s.success_rate.request_volume.into()),
    put: |s, v| s.success_rate.request_volume = v.count() as u32,
};

pub(super) const FAILURE_PERCENTAGE_THRESHOLD: Field = Field {
    key: "failure_percentage_threshold",
    help: cli_help!("Envoy's failure_percentage_threshold (85 there, enforced at 0%: off): at each eject_interval_ms sweep a chooser ejects each server whose errors over the interval are at least this percentage of its answers, among the servers with failure_percentage_request_volume answers, if at least failure_percentage_minimum_hosts have; none: no failure-percentage ejection"),
    kind: FieldKind::NumberOrNone { min: 0.0, max: 100.0 },
    live: Live::No,
    get: |s| Value::Optional(s.failure_percentage.limit),
    put: |s, v| s.failure_percentage.limit = v.optional(),
};

pub(super) const FAILURE_PERCENTAGE_MINIMUM_HOSTS: Field = Field {
    key: "failure_percentage_minimum_hosts",
    help: cli_help!("Envoy's failure_percentage_minimum_hosts: servers with enough answers a chooser needs before it ejects by failure percentage"),
    kind: FieldKind::Count { min: 1, max: 100_000 },
    live: Live::No,
    get: |s| Value::Count(s.failure_percentage.minimum_hosts.into()),
    put: |s, v| s.failure_percentage.minimum_hosts = v.count() as u32,
};

pub(super) const FAILURE_PERCENTAGE_REQUEST_VOLUME: Field = Field {
    key: "failure_percentage_request_volume",
    help: cli_help!("Envoy's failure_percentage_request_volume: answers a server must give a chooser in an interval for its failure percentage to count"),
    kind: FieldKind::Count { min: 1, max: 1_000_000_000 },
    live: Live::No,
    get: |s| Value::Count(s.failure_percentage.request_volume.into()),
    put: |s, v| s.failure_percentage.request_volume = v.count() as u32,
};

pub(super) const RETRY_BACKOFF_MAX_MS: Field = Field {
    key: "retry_backoff_max_ms",
    help: cli_help!(
        "Envoy's retry max_interval (10 × the base there: 250 ms): no backoff waits longer; none: no cap"
    ),
    kind: FieldKind::MillisOrNone { min: 0.001, max: 3_600_000.0 },
    live: Live::AtUse,
    get: |s| Value::Optional(s.retry_backoff_max_ms),
    put: |s, v| s.retry_backoff_max_ms = v.optional(),
};

pub(super) const RETRY_HOSTS: Field = Field {
    key: "retry_hosts",
    help: cli_help!("which servers a retry may go to: any, whichever the policy picks, the server it came back from too (Envoy with no retry_host_predicate, its default; repick avoids that server itself); previous_hosts, a pick of that server is made again, up to host_selection_retry_max_attempts times (Envoy's previous_hosts predicate)"),
    kind: FieldKind::Choice(RetryHosts::NAMES),
    live: Live::AtUse,
    get: |s| Value::Choice(s.retry_hosts.name()),
    put: |s, v| s.retry_hosts = RetryHosts::from_name(v.choice()).unwrap_or(s.retry_hosts),
};

pub(super) const HOST_SELECTION_RETRY_MAX_ATTEMPTS: Field = Field {
    key: "host_selection_retry_max_attempts",
    help: cli_help!("Envoy's host_selection_retry_max_attempts (1 there): under retry_hosts previous_hosts, how many times a retry's pick of the server it came back from is made again before the last pick is taken"),
    kind: FieldKind::Count { min: 1, max: 100 },
    live: Live::AtUse,
    get: |s| Value::Count(s.host_selection_retry_max_attempts.into()),
    put: |s, v| s.host_selection_retry_max_attempts = v.count() as u32,
};

pub(super) const RETRY_BUDGET_PERCENT: Field = Field {
    key: "retry_budget_percent",
    help: cli_help!("a retry budget as a share of requests, in percent (retry_budget_of says of what): Envoy's budget_percent, Linkerd's retryRatio and Finagle's percentCanRetry (× 100), 20 in each; a retry past it is not made, and the request fails as one past retry_budget does; none: no such budget"),
    kind: FieldKind::NumberOrNone { min: 0.0, max: 100_000.0 },
    live: Live::No,
    get: |s| Value::Optional(s.retry_ratio.percent),
    put: |s, v| s.retry_ratio.percent = v.optional(),
};

pub(super) const RETRY_BUDGET_OF: Field = Field {
    key: "retry_budget_of",
    help: cli_help!("what retry_budget_percent is of: active, a chooser's requests outstanding now, of which its retries outstanding may be that share, and at least min_retry_concurrency (Envoy); requests, the requests it made over retry_budget_ttl_ms, of which its retries in that window may be that share, plus min_retries_per_second for each second of it (Linkerd, Finagle)"),
    kind: FieldKind::Choice(BudgetOf::NAMES),
    live: Live::No,
    get: |s| Value::Choice(s.retry_ratio.of.name()),
    put: |s, v| s.retry_ratio.of = BudgetOf::from_name(v.choice()).unwrap_or(s.retry_ratio.of),
};

pub(super) const MIN_RETRY_CONCURRENCY: Field = Field {
    key: "min_retry_concurrency",
    help: cli_help!("Envoy's min_retry_concurrency: retries a chooser may have outstanding at once whatever retry_budget_percent allows (retry_budget_of active)"),
    kind: FieldKind::Count { min: 0, max: 1_000_000 },
    live: Live::No,
    get: |s| Value::Count(s.retry_ratio.min_retry_concurrency.into()),
    put: |s, v| s.retry_ratio.min_retry_concurrency = v.count() as u32,
};

pub(super) const MIN_RETRIES_PER_SECOND: Field = Field {
    key: "min_retries_per_second",
    help: cli_help!("Linkerd's minRetriesPerSecond and Finagle's minRetriesPerSec: retries a chooser may make each second whatever retry_budget_percent allows (retry_budget_of requests)"),
    kind: FieldKind::Number { min: 0.0, max: 1_000_000.0 },
    live: Live::No,
    get: |s| Value::Number(s.retry_ratio.min_retries_per_second),
    put: |s, v| s.retry_ratio.min_retries_per_second = v.number(),
};

pub(super) const RETRY_BUDGET_TTL_MS: Field = Field {
    key: "retry_budget_ttl_ms",
    help: cli_help!("Linkerd's and Finagle's ttl: the window over which requests and retries count against the budget (retry_budget_of requests), 1 s to 60 s as Finagle allows"),
    kind: FieldKind::Number { min: 1_000.0, max: 60_000.0 },
    live: Live::No,
    get: |s| Value::Number(s.retry_ratio.ttl_ms),
    put: |s, v| s.retry_ratio.ttl_ms = v.number(),
};

pub(super) const WORKERS_PER_BALANCER: Field = Field {
    key: "workers_per_balancer",
    help: Help::Everywhere("Envoy's worker threads (--concurrency, one per core by default), NGINX's worker_processes without a shared zone: each balancer is this many choosers, each with its own view of in-flight requests and its own round-robin place, a session handed to one of them at random; needs balancers"),
    kind: FieldKind::Count { min: 1, max: 256 },
    live: Live::No,
    get: |s| Value::Count(s.workers_per_balancer.into()),
    put: |s, v| s.workers_per_balancer = v.count() as u32,
};
