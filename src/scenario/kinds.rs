//! The named choices a scenario offers.

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
        }
    }

    /// Whether the policy draws `choices` candidates.
    pub fn uses_choices(self) -> bool {
        matches!(self, PolicyKind::PowerOfD | PolicyKind::LeastRequest)
    }

    /// Whether the policy reads the load board that `staleness_ms` refreshes.
    pub fn reads_board(self) -> bool {
        matches!(self, PolicyKind::PowerOfD | PolicyKind::ShortestQueue)
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
        }
    }

    /// Whether the policy times round trips (its chooser tells it each one).
    pub fn times_round_trips(self) -> bool {
        self == PolicyKind::PeakEwma
    }

    /// Whether servers tell choosers when they fall idle.
    pub fn hears_idle_servers(self) -> bool {
        self == PolicyKind::JoinIdleQueue
    }
}
