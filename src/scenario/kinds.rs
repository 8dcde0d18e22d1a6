//! The named choices a scenario offers.

use crate::keys::Scheme;
use serde::Serialize;

macro_rules! named_choice {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn from_name(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }
    };
}

named_choice! {
    /// How requests arrive.
    Demand {
        Spike => "spike",
        Continuous => "continuous",
    }
}

named_choice! {
    /// The distribution of a request's service time.
    ServiceDistribution {
        Constant => "constant",
        Exponential => "exponential",
        Lognormal => "lognormal",
        Pareto => "pareto",
    }
}

named_choice! {
    /// Which losing copies of a hedged request stop at once.
    HedgeCancel {
        InService => "in-service",
        Queued => "queued",
    }
}

impl HedgeCancel {
    /// Whether a loser already in service is cancelled (else it finishes).
    pub fn cancels_in_service(self) -> bool {
        self == HedgeCancel::InService
    }
}

named_choice! {
    /// How a chooser (client or balancer) picks a server.
    PolicyKind {
        Random => "random",
        RoundRobin => "round-robin",
        Repick => "repick",
        LeastConnections => "least-connections",
        PowerOfD => "power-of-d",
        ShortestQueue => "shortest-queue",
        Piggyback => "p2c-piggyback",
        LeastRequest => "least-request",
        LeastWork => "least-work",
        PeakEwma => "peak-ewma",
        JoinIdleQueue => "join-idle-queue",
        WeightedRoundRobin => "weighted-round-robin",
        WeightedRandom => "weighted-random",
        Modulo => "modulo",
        Ranges => "ranges",
        Table => "table",
        Ring => "ring",
        Rendezvous => "rendezvous",
        Maglev => "maglev",
        BoundedLoad => "bounded-load",
        FdbBasic => "fdb-basic",
        FdbLoadBalance => "fdb-load-balance",
    }
}

named_choice! {
    /// How a FoundationDB balancer orders its alternatives when servers
    /// stand in several datacenters.
    DcOrder {
        LocalFirst => "local-first",
        Any => "any",
    }
}

named_choice! {
    /// Which key a request carries: its session's (every request of a
    /// session goes where the key lives: affinity), or its own.
    KeyPer {
        Session => "session",
        Request => "request",
    }
}

impl PolicyKind {
    /// Its name for people, as a menu shows it (the identifier stays for links).
    pub fn title(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::RoundRobin => "round-robin",
            PolicyKind::Repick => "random, repick after a bounce",
            PolicyKind::LeastConnections => "least connections (own count)",
            PolicyKind::PowerOfD => "power of d choices, live load",
            PolicyKind::ShortestQueue => "shortest queue, live load",
            PolicyKind::Piggyback => "power of two, learned load",
            PolicyKind::LeastWork => "least work in flight (own count)",
            PolicyKind::LeastRequest => "least requests of d (own count)",
            PolicyKind::PeakEwma => "peak-EWMA latency of two",
            PolicyKind::JoinIdleQueue => "join the idle queue",
            PolicyKind::WeightedRoundRobin => "weighted round-robin",
            PolicyKind::WeightedRandom => "weighted random",
            PolicyKind::Modulo => "key modulo servers",
            PolicyKind::Ranges => "key ranges",
            PolicyKind::Table => "mapping table",
            PolicyKind::Ring => "consistent hashing ring",
            PolicyKind::Rendezvous => "rendezvous hashing",
            PolicyKind::Maglev => "Maglev hashing",
            PolicyKind::BoundedLoad => "consistent hashing, bounded loads",
            PolicyKind::FdbBasic => "FoundationDB basicLoadBalance",
            PolicyKind::FdbLoadBalance => "FoundationDB loadBalance",
        }
    }

    /// Whether the policy draws `choices` candidates.
    pub fn uses_choices(self) -> bool {
        matches!(self, PolicyKind::PowerOfD | PolicyKind::LeastRequest)
    }

    /// Whether the policy reads the load board that `staleness_ms` refreshes.
    pub fn reads_board(self) -> bool {
        matches!(self, PolicyKind::PowerOfD | PolicyKind::ShortestQueue | PolicyKind::BoundedLoad)
    }

    /// One line for people choosing a policy.
    pub fn describe(self) -> &'static str {
        match self {
            PolicyKind::Random => "uniformly random server",
            PolicyKind::RoundRobin => "each chooser cycles through its pool",
            PolicyKind::Repick => "random; after a queue timeout, a different server",
            PolicyKind::LeastConnections => "fewest requests this chooser has in flight",
            PolicyKind::PowerOfD => "best of d random servers by their true load (d: choices)",
            PolicyKind::ShortestQueue => "least-loaded server of the pool by true load",
            PolicyKind::Piggyback => "best of two by load learned from responses; random when that is stale",
            PolicyKind::LeastWork => {
                "least work this chooser has in flight: its requests weighted by their class's mean cost"
            }
            PolicyKind::LeastRequest => {
                "best of d random servers by this chooser's requests in flight (d: choices)"
            }
            PolicyKind::PeakEwma => {
                "best of two by peak-sensitive average round trip × (requests in flight + 1)"
            }
            PolicyKind::JoinIdleQueue => {
                "a server that fell idle and told this chooser; random when none did"
            }
            PolicyKind::WeightedRoundRobin => {
                "cycles through the pool in proportion to the servers' nominal weights"
            }
            PolicyKind::WeightedRandom => "random, in proportion to the servers' nominal weights",
            PolicyKind::Modulo => "the server at the key's number modulo the pool size",
            PolicyKind::Ranges => "the server whose equal range of the hash space holds the key's hash",
            PolicyKind::Table => {
                "the server a directory of 65,536 hash slots names; each chooser's copy follows changes table_lag_ms late"
            }
            PolicyKind::Ring => "the next of virtual_nodes points per server clockwise from the key's hash",
            PolicyKind::Rendezvous => "the server whose hash with the key is highest",
            PolicyKind::Maglev => "the entry the key's hash names in Maglev's prime-sized lookup table",
            PolicyKind::BoundedLoad => {
                "the ring's answer, walking on past servers holding more than bounded_load_c times the mean load"
            }
            PolicyKind::FdbBasic => {
                "a random alternative, the others in turn on a broken connection, backing off once all were tried"
            }
            PolicyKind::FdbLoadBalance => {
                "the lower of two by queue model and reported penalty, a second request after a timeout, alternatives in turn"
            }
        }
    }

    /// Whether the policy places requests by their key.
    pub fn reads_keys(self) -> bool {
        self.scheme(1, 1.0).is_some()
    }

    /// The placement scheme the policy is, with its settings.
    pub fn scheme(self, virtual_nodes: u32, c: f64) -> Option<Scheme> {
        Some(match self {
            PolicyKind::Modulo => Scheme::Modulo,
            PolicyKind::Ranges => Scheme::Ranges,
            PolicyKind::Table => Scheme::Table,
            PolicyKind::Ring => Scheme::Ring { virtual_nodes },
            PolicyKind::Rendezvous => Scheme::Rendezvous,
            PolicyKind::Maglev => Scheme::Maglev,
            PolicyKind::BoundedLoad => Scheme::BoundedLoad { virtual_nodes, c },
            _ => return None,
        })
    }

    /// Whether the policy times round trips (its chooser tells it each one).
    pub fn times_round_trips(self) -> bool {
        self == PolicyKind::PeakEwma
    }

    /// Whether the policy is one of FoundationDB's balancers, which run one
    /// state machine per request (see `engine::fdb`).
    pub fn is_fdb(self) -> bool {
        matches!(self, PolicyKind::FdbBasic | PolicyKind::FdbLoadBalance)
    }

    /// Whether servers tell choosers when they fall idle.
    pub fn hears_idle_servers(self) -> bool {
        self == PolicyKind::JoinIdleQueue
    }
}
